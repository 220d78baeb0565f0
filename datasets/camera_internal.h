// What the table camera's files share (camera.cpp traces a shot through the lens, camera_arms.cpp draws the arms
// over it, camera_light.cpp lights the frame and adds the sensor's noise): not part of the datasets library's
// interface.
#pragma once

#include <cstdint>

#include <opencv2/core.hpp>

#include "datasets/camera.h"

namespace swref::datasets::camera_internal {

inline constexpr double kPi = 3.14159265358979323846;
inline double Rad(double deg) { return deg * kPi / 180; }

// cv::RNG's seed from a user's seed (camera.cpp: why it is scrambled).
uint64_t Scramble(uint64_t seed);

// Smooth fields over the frame (the lens's remap, the light) are computed on a coarse grid of nodes, kGridStep frame
// pixels apart, and interpolated. Frame coordinate of node i: nodes lie one step beyond the frame on each side and
// are placed where cv::resize (INTER_LINEAR, integer factor kGridStep) takes its source samples, so that the resized
// node image, cropped by one step, interpolates the nodes at every frame pixel (none falls in resize's clamped
// border).
inline constexpr int kGridStep = 8;
inline double NodeCoord(int i) { return kGridStep * (i - 1) + (kGridStep - 1) / 2.0; }
inline cv::Size NodeCount(cv::Size frame) {
  return {(frame.width + kGridStep - 1) / kGridStep + 2, (frame.height + kGridStep - 1) / kGridStep + 2};
}
// The node image resized to the frame, in `big` (nodes.size() * kGridStep).
cv::Mat UpsampleNodes(const cv::Mat& nodes, cv::Size frame, cv::Mat big);
inline cv::Point2d PrincipalPoint(cv::Size frame) { return {(frame.width - 1) / 2.0, (frame.height - 1) / 2.0}; }

// Per-thread scratch memory for a frame's temporaries (megabytes each). A fresh allocation that large comes from
// mmap and costs a page fault per 4 KB page on first touch, which on a virtual machine can cost more than the
// work done on the buffer, so the buffers are kept and reused. A Mat from Scratch is valid until the next call with
// the same slot on the same thread, and must not leave RenderFrame.
enum ScratchSlot {
  kMapSlot,
  kGainSlot,
  kGlareSlot,
  kHeightSlot,
  kSlopeXSlot,
  kSlopeYSlot,
  kMottleSlot,
  kLayerSlot,
  kWideSlot,
  kSumSlot,
  kArmSlot,
  kShadowSlot,
  kCoverageSlot,
  kSlotCount
};
cv::Mat Scratch(ScratchSlot slot, cv::Size size, int type);

// The seed of what an arm leaves implicit (its hand, its sleeve's reach), from the arm itself.
uint64_t HashArm(const Arm& arm);

// Draws one arm over the frame with its shadow on the table. The arm is built at half resolution (a forearm is a
// hundred pixels wide; its edges end up soft from motion and defocus anyway), the shadow at an eighth.
// Returns the part of the frame it drew on, and keeps the arm's coverage in `coverage` (CV_8U, frame-sized).
cv::Rect DrawArm(cv::Mat& frame, const Arm& arm, cv::Point2d light_dir, cv::Mat& coverage);
// The direction (unit, frame pixels) towards the light in the image: opposite to where shadows fall on the board.
cv::Point2d LightDirection(const CameraShot& shot, cv::Size2d board_mm);

// Multiplies the frame by the light's gain field (exposure, colour temperature, gradient, vignetting) and adds the
// glare, which the arms (`arms`: their coverage, CV_8U or empty, inside `arms_box`) hide.
void ApplyLight(cv::Mat& frame, const Lighting& light, const cv::Mat& arms, cv::Rect arms_box);
// The sensor's noise, its sigma growing with brightness; `seed` chooses where each row reads the noise pool.
void AddNoise(cv::Mat& frame, double sigma, uint64_t seed);

}  // namespace swref::datasets::camera_internal
