// The table camera simulator: how a webcam or phone above the table sees the board plane. A shot is a pose
// (tilt up to 15 degrees from overhead, distance, roll, where it looks), a lens (focal length, radial
// distortion), the light (colour temperature, exposure, gradient, vignetting, specular glare), the sensor (noise,
// blur, JPEG) and optionally arms and hands reaching over the board. The board may have been bumped on the table
// (shifted and turned a little) since the last shot.
//
// Input is the "world": a top-down image of the table plane in board millimetres (board art, tokens and their
// shadows already composited, table around it), so that everything lying on the table moves with the board.
// Everything here is deterministic: a shot holds its own random choices (RandomShot draws them from a seed).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

namespace swref::datasets {

// The top-down world image and where it lies in board coordinates.
struct World {
  cv::Mat image;                 // CV_8UC3 BGR, the table plane seen from straight above, evenly lit
  double px_per_mm = 2.5;        // world pixels per millimetre
  cv::Point2d origin_mm{0, 0};   // board position (mm) of the centre of world pixel (0, 0); negative: table margin
  cv::Size2d board_mm{600, 400};
};

struct CameraPose {
  cv::Point2d look_at_mm{300, 200};  // board point on the optical axis
  double distance_mm = 900;          // camera centre to look_at, along the optical axis
  double tilt_deg = 0;               // angle between the optical axis and the table's normal, 0..15
  double tilt_azimuth_deg = 0;       // direction (in the board plane) the camera is displaced towards when tilted
  double roll_deg = 0;               // rotation of the image about the optical axis
  double focal_px = 1400;            // pinhole focal length in pixels (fx = fy), principal point at the image centre
  double k1 = 0, k2 = 0;             // radial distortion (OpenCV's model, normalised image coordinates)
};

struct Glare {
  cv::Point2d centre;   // in frame pixels
  cv::Size2d axes;      // ellipse semi-axes, pixels
  double angle_deg = 0;
  double strength = 0;  // added brightness at the centre, 0..1 of full scale, soft falloff
};

struct Lighting {
  double kelvin = 5000;          // light colour temperature: 2700 (warm lamp) .. 6500 (daylight)
  double ev = 0;                 // exposure offset, -1 .. +1
  double gradient = 0;           // brightness falls by this fraction across the frame along gradient_deg, 0..0.5
  double gradient_deg = 0;
  double vignetting = 0;         // brightness at the frame's corners is (1 - vignetting), 0..0.5
  std::vector<Glare> glare;
  double shadow_deg = 135;       // direction shadows fall in the board plane (used when compositing the world)
  double shadow_mm = 1.5;        // shadow offset under a token lying on the board
};

struct Sensor {
  double noise_sigma = 0;        // Gaussian noise, 8-bit levels (plus some shot noise scaled with brightness)
  double blur_sigma = 0;         // defocus blur, pixels
  int jpeg_quality = 0;          // 0: no JPEG round trip; else 1..100
};

// An arm reaching over the board (a motion frame), drawn in frame pixels with a soft shadow on the table.
struct Arm {
  cv::Point2d shoulder;          // where the arm enters the frame, pixels (on or beyond the frame border)
  cv::Point2d hand;              // the hand's centre, pixels
  double width_px = 120;         // forearm width
  cv::Scalar skin_bgr{120, 150, 200};
  cv::Scalar sleeve_bgr{90, 60, 40};
  double motion_blur_px = 0;     // blur along the arm's movement
};

struct Bump {                    // the board moved on the table: rotation about the board's centre, then shift
  cv::Point2d shift_mm{0, 0};
  double rotation_deg = 0;
};

struct CameraShot {
  cv::Size frame{1920, 1080};
  CameraPose pose;
  Bump bump;
  Lighting light;
  Sensor sensor;
  std::vector<Arm> arms;
};

// A camera's lens: one per table session (a dataset is one camera); the pose still changes from shot to shot.
struct Lens {
  double focal_px = 1400;        // fx = fy, principal point at the frame's centre
  double k1 = 0, k2 = 0;
};
// A random lens for frames of `frame` size: focal 0.8..1.6 frame widths, |k1| up to max_k1, k2 = -k1 / 4.
Lens RandomLens(cv::Size frame, double max_k1, uint64_t seed);

// The range RandomShot draws from. Defaults: a realistic table camera; `Clean()` turns every nuisance off.
struct ShotRanges {
  double max_tilt_deg = 15;
  double min_board_fill = 0.70, max_board_fill = 0.92;  // board's larger extent / frame's matching extent
  double max_roll_deg = 6;
  double max_k1 = 0.12;          // |k1| up to this; k2 = -k1 / 4
  double max_look_offset_mm = 25;
  bool lighting = true, glare = true, noise = true, blur = true, jpeg = true;
  int max_arms = 0;              // arms over the board (0 for a still frame)
  std::optional<Lens> lens;      // a given lens (one camera); else a random focal length and distortion a shot
  static ShotRanges Clean();
};

// Draws a shot for a board of `board_mm`. Deterministic for a seed.
CameraShot RandomShot(cv::Size frame, cv::Size2d board_mm, const ShotRanges& ranges, uint64_t seed);

// A straight-overhead, distortion-free, evenly lit shot with the board filling `fill` of the frame.
CameraShot OverheadShot(cv::Size frame, cv::Size2d board_mm, double fill = 0.85);

// Adds 1 or 2 random arms reaching from the frame's edges towards the board (for motion frames).
void AddRandomArms(CameraShot& shot, int count, uint64_t seed);

// The frame as the camera records it (CV_8UC3 BGR, shot.frame in size).
cv::Mat RenderFrame(const World& world, const CameraShot& shot);

// Where board points (mm, before any bump) land in the frame, lens distortion included.
std::vector<cv::Point2d> ProjectBoardPoints(const CameraShot& shot, cv::Size2d board_mm, const std::vector<cv::Point2d>& board_pts);

// Where the camera is over the board: its centre's board position (mm, the bump undone) and height above the
// board (mm). Things standing on the board (a stack of tokens) are seen displaced away from the point below it.
cv::Point3d CameraOverBoard(const CameraShot& shot, cv::Size2d board_mm);

// The homography image_from_board (board mm -> frame pixels) without lens distortion.
cv::Matx33d ImageFromBoard(const CameraShot& shot, cv::Size2d board_mm);

}  // namespace swref::datasets
