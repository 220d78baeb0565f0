// Step 1 of the pipeline: where the board is in this frame. With corner markers: find them on a half-size copy
// (4x fewer pixels to search), then place their corners to a fraction of a pixel on the full frame. Without
// markers: ORB features matched to the empty-board reference photo, refined by ECC (calibration/board_setup).
#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

engine::Result<calibration::BoardPose> RegisterFrame(const cv::Mat& frame, const calibration::Layout& layout,
                                                     const calibration::FeatureRegistration* features) {
  using R = engine::Result<calibration::BoardPose>;
  if (!layout.markers) {
    if (features) return features->Register(frame, "frame");
    return calibration::RegisterByOutline(frame, layout.board_mm, "frame");
  }
  const calibration::LayoutMarkers& markers = *layout.markers;
  cv::Mat grey;
  cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
  const double scale = frame.cols > 1000 ? 0.5 : 1.0;
  cv::Mat small;
  if (scale < 1) cv::resize(grey, small, cv::Size(), scale, scale, cv::INTER_AREA);
  else small = grey;
  static const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(small, dict, corners, ids);
  std::vector<cv::Point2f> image_pts;
  std::vector<cv::Point2d> board_pts;
  calibration::BoardPose pose;
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = markers.corners.find(ids[i]);
    if (it == markers.corners.end()) continue;
    const cv::Point2d at = it->second;
    const double s = markers.size_mm;
    const cv::Point2d bc[4] = {at, {at.x + s, at.y}, {at.x + s, at.y + s}, {at.x, at.y + s}};
    for (int k = 0; k < 4; ++k) {
      // Half-size pixel centres to full-size ones.
      image_pts.emplace_back(static_cast<float>((corners[i][k].x + 0.5) / scale - 0.5), static_cast<float>((corners[i][k].y + 0.5) / scale - 0.5));
      board_pts.push_back(bc[k]);
    }
    pose.markers_found.push_back(ids[i]);
  }
  if (pose.markers_found.size() < 3) {
    return R::Error("found " + std::to_string(pose.markers_found.size()) + " of the 4 corner markers; the board is covered or out of view");
  }
  cv::cornerSubPix(grey, image_pts, cv::Size(5, 5), cv::Size(-1, -1), cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.01));
  std::vector<cv::Point2d> img(image_pts.begin(), image_pts.end());
  const cv::Mat h = cv::findHomography(board_pts, img, 0);
  if (h.empty()) return R::Error("the markers do not give a usable board position");
  pose.image_from_board = cv::Matx33d(h);
  std::vector<cv::Point2d> back;
  cv::perspectiveTransform(board_pts, back, h);
  double sq = 0;
  for (size_t i = 0; i < back.size(); ++i) sq += std::pow(cv::norm(back[i] - img[i]), 2);
  pose.residual_px = std::sqrt(sq / back.size());
  return pose;
}

}  // namespace swref::vision
