#include "app/core/calibrate.h"

#include <filesystem>

#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "calibration/markers.h"

namespace swref::core {
namespace {

std::string Pattern(cv::Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

}  // namespace

std::string CalibrateRequest::Check() const {
  namespace fs = std::filesystem;
  const bool chessboard = kind == Kind::kChessboard;
  if (pattern.width < 3 || pattern.height < 3)
    return chessboard ? "chessboard " + Pattern(pattern) + ": expected at least 3x3 inner corners, e.g. 9x6"
                      : "ChArUco board " + Pattern(pattern) + ": expected at least 3x3 squares, e.g. 5x7";
  if (!(square_mm > 0)) return "square size: expected a positive number of mm";
  if (!chessboard) {
    const int corners = (pattern.width - 1) * (pattern.height - 1),
              needed = calibration::CalibrationOptions().min_charuco_corners;
    if (corners < needed)
      return "ChArUco board " + Pattern(pattern) + ": its " + std::to_string(corners) +
             " inner corners are fewer than the " + std::to_string(needed) + " a photo needs";
    if (!(marker_mm > 0 && marker_mm < square_mm))
      return "marker size: expected a positive number of mm, smaller than the square";
    if (dictionary.empty()) return "ChArUco board: give its ArUco dictionary, e.g. DICT_6X6_250";
    if (auto d = calibration::LoadDictionary(dictionary); !d) return d.error();
  }
  if (files.size() < 3) return "give at least 3 photos of the target (got " + std::to_string(files.size()) + ")";
  for (const std::string& file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return file + ": no such file";
    if (!calibration::LooksLikeImage(file)) return file + ": not a PNG or JPEG image";
  }
  if (out.empty()) return "give the camera file to write, e.g. camera.json";
  const fs::path parent = fs::path(out).parent_path();
  if (std::error_code ec; !parent.empty() && !fs::is_directory(parent, ec))
    return out + ": the folder " + parent.string() + " does not exist";
  return "";
}

engine::Result<calibration::CameraModel> CalibrateCamera(const CalibrateRequest& request, const ProgressFn& progress) {
  using R = engine::Result<calibration::CameraModel>;
  if (auto problem = request.Check(); !problem.empty()) return R::Error(problem);
  calibration::CalibrationOptions options;
  options.progress = progress;
  R model = request.kind == CalibrateRequest::Kind::kChessboard
                ? calibration::CalibrateChessboard(request.files, request.pattern, request.square_mm, options)
                : calibration::CalibrateCharuco(request.files, request.pattern.width, request.pattern.height,
                                                request.square_mm, request.marker_mm, request.dictionary, options);
  if (!model) return model;
  if (auto error = calibration::WriteCameraFile(*model, request.out); !error.empty()) return R::Error(error);
  return model;
}

calibration::TargetCorners FindTargetCorners(const CalibrateRequest& request, const cv::Mat& frame, int max_side) {
  if (frame.empty()) return {{}, "no frame"};
  cv::Mat gray;
  if (frame.channels() == 3)
    cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
  else
    gray = frame;
  if (request.kind == CalibrateRequest::Kind::kChessboard)
    return calibration::FindChessboardCorners(gray, request.pattern, request.square_mm, max_side);
  // ChArUco markers are found at full size (a shrunk marker loses its bits); large frames are shrunk first.
  const double scale = std::min(1.0, static_cast<double>(max_side) / std::max(gray.cols, gray.rows));
  cv::Mat small = gray;
  if (scale < 1) cv::resize(gray, small, {}, scale, scale, cv::INTER_AREA);
  auto found = calibration::FindCharucoCorners(small, request.pattern.width, request.pattern.height, request.square_mm, request.marker_mm,
                                               request.dictionary.empty() ? "DICT_6X6_250" : request.dictionary);
  for (cv::Point2f& p : found.image) p *= static_cast<float>(1 / scale);
  return found;
}

CalibrationCoverage MeasureCoverage(const std::vector<std::vector<cv::Point2f>>& corners_per_photo, cv::Size image_size) {
  static const char* kNames[9] = {"top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right"};
  CalibrationCoverage c;
  if (image_size.width <= 0 || image_size.height <= 0) return c;
  for (const auto& photo : corners_per_photo) {
    if (photo.empty()) continue;
    ++c.photos;
    for (const cv::Point2f& p : photo) {
      const int col = std::clamp(static_cast<int>(3 * p.x / image_size.width), 0, 2);
      const int row = std::clamp(static_cast<int>(3 * p.y / image_size.height), 0, 2);
      c.cells[row * 3 + col] = true;
    }
  }
  std::string missing;
  int left = 0;
  for (int i = 0; i < 9; ++i) {
    c.covered += c.cells[i];
    if (!c.cells[i] && left++ < 3) missing += (missing.empty() ? "" : ", ") + std::string(kNames[i]);
  }
  const int needed = calibration::CalibrationOptions().min_views;
  if (c.photos == 0) {
    c.hint = "Hold the printed target in view until its corners are drawn, then take a photo.";
  } else if (c.covered < 9) {
    c.hint =
        "Next, hold the target so that it reaches the " + missing + " of the view (" + std::to_string(c.covered) + " of 9 parts covered).";
  } else if (c.photos < needed) {
    c.hint = "Every part of the view is covered; take " + std::to_string(needed - c.photos) + " more photo(s), the target tilted.";
  } else {
    c.hint = "Every part of the view is covered by " + std::to_string(c.photos) + " photos: ready to calibrate (a few tilted photos help).";
  }
  return c;
}

}  // namespace swref::core
