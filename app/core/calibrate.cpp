#include "app/core/calibrate.h"

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

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
    if (!cv::haveImageReader(file)) return file + ": not an image OpenCV can read";
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

}  // namespace swref::core
