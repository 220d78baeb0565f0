// Step 3 of the pipeline: what lies on the board, against the empty-board reference (both in Lab, the frame's
// light matched). A token changes the colour; a shadow darkens and keeps it; glare lightens and washes it out.
#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

cv::Mat KeepComponents(const cv::Mat& mask, const std::function<bool(int area_px, int index)>& keep) {
  cv::Mat cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(mask, cc, stats, centroids, 8, CV_32S);
  std::vector<uchar> lut(n, 0);
  for (int i = 1; i < n; ++i) lut[i] = keep(stats.at<int>(i, cv::CC_STAT_AREA), i) ? 255 : 0;
  cv::Mat out(mask.size(), CV_8U);
  for (int y = 0; y < cc.rows; ++y) {
    const int* l = cc.ptr<int>(y);
    uchar* o = out.ptr<uchar>(y);
    for (int x = 0; x < cc.cols; ++x) o[x] = lut[l[x]];
  }
  return out;
}

Foreground FindForeground(const Rectified& frame, const cv::Mat& reference_lab, double threshold) {
  constexpr double ppm = kBoardPxPerMm;
  Foreground fg;
  std::vector<cv::Mat> a, b;
  cv::split(frame.lab, a);
  cv::split(reference_lab, b);
  const cv::Mat dl = a[0] - b[0];
  cv::Mat da = a[1] - b[1], db = a[2] - b[2];
  cv::Mat chroma_diff;
  cv::sqrt(da.mul(da) + db.mul(db), chroma_diff);
  // A shadow darkens and keeps the colour: only a darkening deeper than a token's shadow counts without a change
  // of colour. Glare lightens and washes colour out.
  cv::Mat dark = -dl;
  cv::Mat score = chroma_diff * 1.3 + cv::max(dark - 18, 0) + cv::max(dl, 0) * 0.8;
  cv::GaussianBlur(score, score, cv::Size(), 0.6 * ppm);
  fg.dark = (dark > 4) & (chroma_diff < 8);
  fg.glare = frame.glare.clone();
  // Glare was taken off the frame (Rectify): the board under it compares with the reference like the rest.
  // Blinded: so much light that the sensor saw white, whatever lies there.
  fg.blind = (a[0] > 96) & (chroma_diff < 100);
  {
    cv::Mat chroma;
    cv::sqrt(a[1].mul(a[1]) + a[2].mul(a[2]), chroma);
    fg.blind &= chroma < 4;
  }
  fg.mask = score > threshold;
  // The outermost 3 mm: the board's cut edge and its shadow, never a token's centre.
  const int band = std::max(1, cvRound(3 * ppm));
  for (cv::Mat* m : {&fg.mask, &fg.dark}) {
    m->rowRange(0, band).setTo(0);
    m->rowRange(m->rows - band, m->rows).setTo(0);
    m->colRange(0, band).setTo(0);
    m->colRange(m->cols - band, m->cols).setTo(0);
  }
  // Clean-up: close pinholes inside tokens, drop specks smaller than a quarter of a token.
  const int k = std::max(3, cvRound(1.5 * ppm) | 1);
  cv::morphologyEx(fg.mask, fg.mask, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  cv::morphologyEx(fg.mask, fg.mask, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  const double min_area = 100 * ppm * ppm;  // mm² -> px
  fg.mask = KeepComponents(fg.mask, [&](int area, int) { return area >= min_area; });
  // Fill holes: a token's symbol may match the board's colour.
  cv::Mat inv = ~fg.mask;
  cv::floodFill(inv, cv::Point(0, 0), cv::Scalar(0));
  fg.mask |= inv;
  return fg;
}

}  // namespace swref::vision
