// Camera intrinsics (`swref calibrate camera`): the pinhole matrix and lens distortion of the table camera, from
// photos of a printed chessboard or ChArUco board, with a report on every photo (used, or dropped and why), and
// the `swref-camera/1` file (camera.json) that `swref setup board --camera` reads.
//
// How it decides (numbers measured on OpenCV's sample photos, tests/calibration/intrinsics_test.cpp):
// - Chessboard corners come from findChessboardCornersSB with CALIB_CB_ACCURACY, retried with
//   CALIB_CB_NORMALIZE_IMAGE when not found (on the left set upscaled 2x, i.e. blurrier, the first try missed 3 of
//   13 boards and the second found all 3; EXHAUSTIVE found none of them).
// - A view whose error is far above the others' (> outlier_factor x the median and > outlier_min_px) is dropped
//   once and the camera is calibrated again without it: one bad corner set bends the whole model.
// - Aspect ratio (AspectRatio::kAuto): fx = fy is imposed only when the data confirm it, i.e. the free fit
//   measures fx and fy to better than 1 % and finds them equal within 2 sigma. Square pixels are then a fact
//   of this camera and fixing them costs nothing (OpenCV's chessboard sample: 532.42/532.38 free, 532.44
//   fixed, same RMS). When the data cannot tell (4 ChArUco photos: fx 456.5 +- 23 px), imposing fx = fy would
//   move fx by 8 px on an assumption nothing checked, so both stay free and the report says fx is uncertain.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kCameraFormat = "swref-camera/1";

struct ViewReport {
  std::string file;
  bool used = false;
  std::optional<double> error_px;  // RMS reprojection error of this view's corners; none when the target was not found
  int corners = 0;                 // target corners found in the photo
  std::string reason;              // why the view was dropped ("no chessboard of 9x6 inner corners found", ...)
};

struct CameraModel {
  cv::Size image_size;
  cv::Matx33d K = cv::Matx33d::eye();
  std::vector<double> dist;        // k1, k2, p1, p2, k3 (OpenCV's order)
  double rms = 0;                  // RMS reprojection error over every corner of the used views, px
  std::vector<ViewReport> views;   // one per input photo, in input order
  bool fixed_aspect = false;       // fx = fy was imposed (see AspectRatio::kAuto)
  cv::Vec4d sd;                    // 1-sigma uncertainty of fx, fy, cx, cy in px; 0 when unknown
  std::vector<std::string> notes;  // how the model was chosen, for the report (not stored in camera.json)

  double fx() const { return K(0, 0); }
  double fy() const { return K(1, 1); }
  double cx() const { return K(0, 2); }
  double cy() const { return K(1, 2); }
  int used_views() const;
};

enum class AspectRatio { kAuto, kFree, kFixed };

struct CalibrationOptions {
  AspectRatio aspect = AspectRatio::kAuto;
  int min_views = 3;            // fewer usable photos is an error
  int min_charuco_corners = 8;  // a ChArUco view with fewer corners is dropped
  double outlier_factor = 3.0;  // a view is an outlier when its error exceeds this times the median ...
  double outlier_min_px = 1.0;  // ... and this many pixels (a 0.3 px view is never an outlier)
  int detect_max_side = 1600;   // larger photos are searched for the chessboard at half size (repeatedly)
  std::function<void(int done, int total)> progress;  // after each photo
};

// `inner_corners`: corners where 4 squares meet, columns x rows (9x6 for OpenCV's board of 10x7 squares).
engine::Result<CameraModel> CalibrateChessboard(const std::vector<std::string>& files, cv::Size inner_corners,
                                                double square_mm, const CalibrationOptions& options = {});

// A ChArUco board of squares_x x squares_y squares; `dictionary`: an ArUco dictionary name or file (markers.h).
engine::Result<CameraModel> CalibrateCharuco(const std::vector<std::string>& files, int squares_x, int squares_y,
                                             double square_mm, double marker_mm, const std::string& dictionary,
                                             const CalibrationOptions& options = {});

// The target's corners in one photo, found exactly as calibration finds them (live feedback while the target is
// photographed): their image positions, or the reason the photo would be dropped.
struct TargetCorners {
  std::vector<cv::Point2f> image;
  std::string reason;  // "" when the target was found
  bool found() const { return reason.empty(); }
};
TargetCorners FindChessboardCorners(const cv::Mat& gray, cv::Size inner_corners, double square_mm, int detect_max_side = 1600);
TargetCorners FindCharucoCorners(const cv::Mat& gray, int squares_x, int squares_y, double square_mm, double marker_mm,
                                 const std::string& dictionary, int min_corners = 8);

// camera.json: {"format": "swref-camera/1", "image_size": [w, h], "fx", "fy", "cx", "cy", "dist": [k1, k2, p1,
// p2, k3], "rms", "views": [{"file", "used", "error_px", "corners", "reason"}], "aspect_ratio": "fixed"|"free",
// "sd": {"fx", "fy", "cx", "cy"}}. `views`, `aspect_ratio` and `sd` may be left out of a hand-written file.
nlohmann::ordered_json ToJson(const CameraModel& model);
engine::Result<CameraModel> ParseCamera(const nlohmann::json& doc, const std::string& where);
engine::Result<CameraModel> ReadCameraFile(const std::string& path);
std::string WriteCameraFile(const CameraModel& model, const std::string& path);  // "" or the error, naming the file

}  // namespace swref::calibration
