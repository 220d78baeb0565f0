// `swref calibrate camera`: core::CalibrateCamera with a progress bar, then the report: every photo (used or
// dropped, its error, why), the RMS error and the camera matrix and distortion. The options themselves are parsed
// in commands.cpp.
#pragma once

#include <string>

#include <opencv2/core.hpp>

#include "app/core/calibrate.h"

namespace swref::cli {

// "9x6" (or "9X6") -> {9, 6}, columns x rows; false for anything else, including sizes below 1.
bool ParsePattern(const std::string& text, cv::Size* size);

// Exit code: 0 calibrated and camera file written, 1 the calibration failed (too few usable photos, ...),
// 2 bad arguments. Errors are one line on stderr: "swref: calibrate camera: ...".
int RunCalibrateCamera(const core::CalibrateRequest& request);

}  // namespace swref::cli
