// `swref calibrate camera`: the table camera's intrinsics from photos of a printed chessboard or ChArUco board,
// written to camera.json (calibration/intrinsics.h) for `swref setup board --camera`. Shared by the CLI and the GUI.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/intrinsics.h"
#include "engine/result.h"

namespace swref::core {

using ProgressFn = std::function<void(int done, int total)>;  // the same alias as in synthetic.h

struct CalibrateRequest {
  enum class Kind { kChessboard, kCharuco };
  Kind kind = Kind::kChessboard;
  cv::Size pattern;  // chessboard: inner corners (9x6); ChArUco: squares (5x7); columns x rows
  double square_mm = 0;
  double marker_mm = 0;            // ChArUco only
  std::string dictionary;          // ChArUco only: an ArUco dictionary name (DICT_6X6_250) or dictionary file
  std::vector<std::string> files;  // the photos
  std::string out = "camera.json";

  // What is wrong with the request itself, before any photo is searched: a bad pattern or size, an unknown
  // dictionary, fewer than 3 photos, a photo that does not exist or is no image, no output file. "" when fine.
  std::string Check() const;
};

// Checks the request, calibrates (progress: photos searched) and writes request.out. The model carries the
// report on every photo; an error names the photos or the file at fault.
engine::Result<calibration::CameraModel> CalibrateCamera(const CalibrateRequest& request,
                                                         const ProgressFn& progress = nullptr);

// Live feedback while the target is photographed (the GUI's calibration page): the request's target (its kind,
// pattern and sizes; its files are not used) looked for in one camera frame, BGR or grey, searched at most
// `max_side` px wide so that it keeps up with a camera; the corners are in the frame's pixels.
calibration::TargetCorners FindTargetCorners(const CalibrateRequest& request, const cv::Mat& frame, int max_side = 960);

// How well the photos taken so far cover the camera's view (corners near the edges pin the lens distortion
// down): the view cut in 3x3 cells, a cell covered when some photo's corners reach it, and what to photograph next.
struct CalibrationCoverage {
  std::array<bool, 9> cells{};  // row by row from the top-left
  int covered = 0;
  int photos = 0;    // photos with the target found
  std::string hint;  // one sentence for the user
};
CalibrationCoverage MeasureCoverage(const std::vector<std::vector<cv::Point2f>>& corners_per_photo, cv::Size image_size);

}  // namespace swref::core
