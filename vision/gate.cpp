// Step 2 of the pipeline: is anything moving over the board? Arms reach in from outside: a foreground piece that
// runs along the board's edge, or one far larger than any heap of tokens. A lamp switched on or off changes the
// whole board at once.
#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

bool IsMotion(const Foreground& fg, const Rectified& frame, double px_per_mm, double max_area_mm2, std::string* why) {
  (void)frame;  // a light change between frames is judged by the referee's temporal gate, not from one frame
  cv::Mat cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(fg.mask, cc, stats, centroids, 8, CV_32S);
  const int w = fg.mask.cols, h = fg.mask.rows;
  // Contact with the edge is measured on a ring 5 mm inside it (the outermost millimetres are noisy: the board's
  // cut, its shadow, a registration error of a pixel).
  const int in = std::max(1, static_cast<int>(5 * px_per_mm));
  std::vector<int> edge_px(n, 0);
  for (int x = in; x < w - in; ++x) {
    ++edge_px[cc.at<int>(in, x)];
    ++edge_px[cc.at<int>(h - 1 - in, x)];
  }
  for (int y = in; y < h - in; ++y) {
    ++edge_px[cc.at<int>(y, in)];
    ++edge_px[cc.at<int>(y, w - 1 - in)];
  }
  for (int i = 1; i < n; ++i) {
    const double area_mm2 = stats.at<int>(i, cv::CC_STAT_AREA) / (px_per_mm * px_per_mm);
    const double edge_mm = edge_px[i] / px_per_mm;
    // A token at the edge touches it along at most its width (~25 mm); an arm crosses it wide.
    if (edge_mm > 45 || area_mm2 > max_area_mm2) {
      if (why) *why = edge_mm > 45 ? "something reaches over the board's edge" : "a large shape over the board";
      return true;
    }
  }
  return false;
}

}  // namespace swref::vision
