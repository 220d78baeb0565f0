// What the table camera's two files share (camera.cpp renders a shot, camera_arms.cpp draws the arms over it):
// not part of the datasets library's interface.
#pragma once

#include <cstdint>

#include <opencv2/core.hpp>

#include "datasets/camera.h"

namespace swref::datasets::camera_internal {

inline constexpr double kPi = 3.14159265358979323846;
inline double Rad(double deg) { return deg * kPi / 180; }

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

}  // namespace swref::datasets::camera_internal
