#include "app/core/print_targets.h"

#include <algorithm>

namespace swref::core {

const std::vector<std::string>& PrintTargetNames() {
  static const std::vector<std::string> names = {"markers", "charuco", "mat"};
  return names;
}

engine::Result<int> PrintTarget(const std::string& target, const std::string& path, const PrintTargetOptions& options) {
  if (target == "markers") return calibration::WriteMarkersPdf(path, options.paper, options.marker_mm);
  if (target == "charuco") {
    return options.charuco ? calibration::WriteCharucoPdf(path, options.paper, *options.charuco)
                           : calibration::WriteCharucoPdf(path, options.paper);
  }
  if (target == "mat") return calibration::WriteMatPdf(path, options.paper);
  return engine::Result<int>::Error("print: unknown target \"" + target + "\" (expected markers, charuco or mat)");
}

engine::Result<cv::Mat> RenderTargetPreview(const std::string& target, const PrintTargetOptions& options, double px_per_mm) {
  using R = engine::Result<cv::Mat>;
  const std::vector<std::string>& names = PrintTargetNames();
  if (std::find(names.begin(), names.end(), target) == names.end())
    return R::Error("print: unknown target \"" + target + "\" (expected markers, charuco or mat)");
  const auto pages = target == "markers" ? calibration::RenderMarkersPages(options.paper, options.marker_mm, px_per_mm)
                     : target == "charuco"
                         ? calibration::RenderCharucoPages(
                               options.paper, options.charuco ? *options.charuco : calibration::DefaultCharuco(options.paper), px_per_mm)
                         : calibration::RenderMatPages(options.paper, px_per_mm);
  if (!pages) return R::Error(pages.error());
  if (pages->empty()) return R::Error("print: the target has no page");
  return pages->front();
}

}  // namespace swref::core
