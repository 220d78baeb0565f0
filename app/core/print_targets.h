// `swref print markers|charuco|mat`: the printable targets of calibration/targets.h, as the CLI and the GUI offer
// them (one dispatch by name, so both accept the same targets and report the same errors).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibration/targets.h"
#include "engine/result.h"

namespace swref::core {

struct PrintTargetOptions {
  std::string paper = "a4";                         // "a4" or "letter"
  double marker_mm = 40;                            // markers: side of each black square, mm (default 40)
  std::optional<calibration::CharucoSpec> charuco;  // charuco: the board; default calibration::DefaultCharuco(paper)
};

// The target names PrintTarget accepts: "markers", "charuco", "mat".
const std::vector<std::string>& PrintTargetNames();

// Writes `target` to the PDF `path`; returns the number of pages, or an error (an unknown target is named as such;
// every other error starts with the path).
engine::Result<int> PrintTarget(const std::string& target, const std::string& path, const PrintTargetOptions& options);

// The target's first page as a picture (the GUI's preview): 8-bit BGR, `px_per_mm` pixels per mm, drawn as the
// PDF is. Errors as PrintTarget's, without a path.
engine::Result<cv::Mat> RenderTargetPreview(const std::string& target, const PrintTargetOptions& options, double px_per_mm = 2);

}  // namespace swref::core
