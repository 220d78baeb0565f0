#include "app/core/print_targets.h"

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

}  // namespace swref::core
