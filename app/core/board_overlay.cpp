#include "app/core/board_overlay.h"

#include <filesystem>

#include <opencv2/imgproc.hpp>

#include "calibration/intrinsics.h"

namespace swref::core {
namespace {

// The point of a polygon farthest from its border (a distance transform on a 1 px/mm raster): where a label
// fits inside even a thin or bent region.
cv::Point2d LabelPoint(const std::vector<cv::Point2d>& polygon) {
  if (polygon.empty()) return {0, 0};
  cv::Rect2d box = cv::boundingRect(std::vector<cv::Point2f>(polygon.begin(), polygon.end()));
  const int w = std::max(3, static_cast<int>(box.width) + 3), h = std::max(3, static_cast<int>(box.height) + 3);
  cv::Mat mask = cv::Mat::zeros(h, w, CV_8U);
  std::vector<cv::Point> pts;
  for (const cv::Point2d& p : polygon) pts.emplace_back(cvRound(p.x - box.x + 1), cvRound(p.y - box.y + 1));
  cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(255));
  cv::Mat dist;
  cv::distanceTransform(mask, dist, cv::DIST_L2, 3);
  cv::Point best;
  cv::minMaxLoc(dist, nullptr, nullptr, nullptr, &best);
  return {best.x + box.x - 1, best.y + box.y - 1};
}

}  // namespace

engine::Result<OverlayMaker> OverlayMaker::Load(const std::string& setup_dir) {
  using R = engine::Result<OverlayMaker>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  OverlayMaker m;
  m.setup_ = std::move(*setup);
  if (m.setup_.has_camera) {
    auto camera = calibration::ReadCameraFile((std::filesystem::path(setup_dir) / "camera.json").string());
    if (!camera) return R::Error(camera.error());
    m.K_ = camera->K;
    m.dist_ = camera->dist;
  }
  for (const auto& polygon : m.setup_.layout.regions) m.labels_mm_.push_back(LabelPoint(polygon));
  return m;
}

BoardOverlay OverlayMaker::ForPose(const cv::Matx33d& image_from_board, bool lens) const {
  BoardOverlay out;
  out.placed = true;
  const std::vector<double> none;
  const std::vector<double>& dist = lens ? dist_ : none;
  auto project = [&](cv::Point2d mm) {
    const cv::Point2d p = vision::ProjectToFrame(image_from_board, K_, dist, mm);
    return cv::Point2f(static_cast<float>(p.x), static_cast<float>(p.y));
  };
  const auto& regions = setup_.layout.regions;
  for (size_t id = 0; id < regions.size(); ++id) {
    OverlayRegion r;
    r.id = static_cast<int>(id);
    // Long straight borders bend with the lens: points at most 10 mm apart.
    for (size_t i = 0; i < regions[id].size(); ++i) {
      const cv::Point2d a = regions[id][i], b = regions[id][(i + 1) % regions[id].size()];
      const int steps = lens && !dist_.empty() ? std::max(1, static_cast<int>(cv::norm(b - a) / 10)) : 1;
      for (int k = 0; k < steps; ++k) r.outline.push_back(project(a + (b - a) * (static_cast<double>(k) / steps)));
    }
    r.label = project(labels_mm_[id]);
    out.regions.push_back(std::move(r));
  }
  return out;
}

BoardOverlay OverlayMaker::OnReference() const { return ForPose(setup_.pose.image_from_board, false); }

BoardOverlay OverlayMaker::Make(const vision::Observer& observer) const {
  if (observer.registrations() == 0) return {};
  const cv::Matx33d& pose = observer.last_pose().image_from_board;
  BoardOverlay out = ForPose(pose, true);
  for (const vision::Instance& i : observer.last_instances()) {
    OverlayToken t;
    const cv::Point2d p = vision::ProjectToFrame(pose, K_, dist_, i.centre_mm);
    t.at = cv::Point2f(static_cast<float>(p.x), static_cast<float>(p.y));
    t.kind = i.kind;
    t.confidence = i.confidence;
    t.region = i.region;
    t.stack = i.stack;
    t.unsure = i.stack_unsure || i.confidence < vision::kUncertainBelow;
    out.tokens.push_back(std::move(t));
  }
  return out;
}

}  // namespace swref::core
