#include "app/cli/calibrate.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/output.h"
#include "app/cli/progress.h"

namespace swref::cli {
namespace {

int FailCalibrate(const std::string& message, int code) { return Fail("calibrate camera: " + message, code); }

void PrintReport(const core::CalibrateRequest& request, const calibration::CameraModel& m) {
  std::vector<std::string> names;
  size_t width = 5;
  for (const calibration::ViewReport& v : m.views) {
    names.push_back(std::filesystem::path(v.file).filename().string());
    width = std::max(width, names.back().size());
  }
  std::printf("%-*s  %-7s  %8s  %7s  %s\n", static_cast<int>(width), "Photo", "View", "Error px", "Corners", "Reason");
  for (size_t i = 0; i < m.views.size(); ++i) {
    const calibration::ViewReport& v = m.views[i];
    const std::string error = v.error_px ? cv::format("%.3f", *v.error_px) : "-";
    std::printf("%-*s  %-7s  %8s  %7d", static_cast<int>(width), names[i].c_str(), v.used ? "used" : "dropped",
                error.c_str(), v.corners);
    if (!v.reason.empty()) std::printf("  %s", v.reason.c_str());
    std::printf("\n");
  }
  std::printf("\nCalibrated from %d of %zu photos (%s, image %dx%d): RMS reprojection error %.3f px\n", m.used_views(),
              m.views.size(),
              request.kind == core::CalibrateRequest::Kind::kChessboard ? "chessboard" : "ChArUco board",
              m.image_size.width, m.image_size.height, m.rms);
  std::printf("  fx %9.3f px  +- %.2f\n  fy %9.3f px  +- %.2f\n  cx %9.3f px  +- %.2f\n  cy %9.3f px  +- %.2f\n",
              m.fx(), m.sd[0], m.fy(), m.sd[1], m.cx(), m.sd[2], m.cy(), m.sd[3]);
  std::printf("  dist k1 %.5f  k2 %.5f  p1 %.5f  p2 %.5f  k3 %.5f\n", m.dist[0], m.dist[1], m.dist[2], m.dist[3],
              m.dist[4]);
  for (const std::string& note : m.notes) std::printf("  %s\n", note.c_str());
  std::printf("Wrote %s: give it to `swref setup board --camera %s`.\n", request.out.c_str(), request.out.c_str());
}

}  // namespace

bool ParsePattern(const std::string& text, cv::Size* size) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 1 || h < 1)
    return false;
  *size = cv::Size(w, h);
  return true;
}

int RunCalibrateCamera(const core::CalibrateRequest& request) {
  if (auto problem = request.Check(); !problem.empty()) return FailCalibrate(problem, 2);
  ProgressBar bar("calibrate camera");
  auto model = core::CalibrateCamera(request, [&](int done, int total) { bar.Update(done, total); });
  bar.Finish();
  if (!model) return FailCalibrate(model.error(), 1);
  PrintReport(request, *model);
  return 0;
}

}  // namespace swref::cli
