// Step 3 of the pipeline: the frame in board coordinates with its light matched to the reference, the
// foreground against the empty board, and the token instances in it.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {
namespace {

cv::Mat ToLab(const cv::Mat& bgr) {
  cv::Mat f, lab;
  bgr.convertTo(f, CV_32FC3, 1.0 / 255);
  cv::cvtColor(f, lab, cv::COLOR_BGR2Lab);
  return lab;
}

}  // namespace

Rectified RectifyAndMatch(const cv::Mat& frame, const cv::Matx33d& image_from_board, cv::Size2d board_mm, double px_per_mm,
                          const cv::Mat& reference_bgr) {
  Rectified r;
  {
    const cv::Matx33d scale(px_per_mm, 0, -0.5, 0, px_per_mm, -0.5, 0, 0, 1);  // board mm -> pixel centres
    cv::warpPerspective(frame, r.bgr, cv::Mat(scale * image_from_board.inv()),
                        cv::Size(cvRound(board_mm.width * px_per_mm), cvRound(board_mm.height * px_per_mm)), cv::INTER_LINEAR,
                        cv::BORDER_REPLICATE);
  }
  // Light matching: a smooth per-channel gain field, fitted where the frame looks like the reference (the empty
  // board). Two rounds: gains from every pixel first, then only from the pixels those gains explain.
  const cv::Mat& ref_bgr = reference_bgr;
  cv::Mat cur;
  r.bgr.convertTo(cur, CV_32FC3);
  const cv::Size small(std::max(8, cur.cols / 16), std::max(8, cur.rows / 16));
  cv::Mat weight = cv::Mat::ones(cur.size(), CV_32F);
  cv::Mat gain_field(cur.size(), CV_32FC3, cv::Scalar::all(1));
  for (int round = 0; round < 2; ++round) {
    // Weighted means of frame and reference over coarse cells, their ratio the gain.
    cv::Mat w3;
    cv::merge(std::vector<cv::Mat>{weight, weight, weight}, w3);
    cv::Mat num, den, wsum;
    cv::resize(cur.mul(w3), num, small, 0, 0, cv::INTER_AREA);
    cv::resize(ref_bgr.mul(w3), den, small, 0, 0, cv::INTER_AREA);
    cv::resize(weight, wsum, small, 0, 0, cv::INTER_AREA);
    cv::GaussianBlur(num, num, cv::Size(), 2.5);
    cv::GaussianBlur(den, den, cv::Size(), 2.5);
    cv::Mat g;
    cv::divide(num, den + cv::Scalar::all(1), g);
    cv::resize(g, gain_field, cur.size(), 0, 0, cv::INTER_LINEAR);
    if (round == 0) {
      const cv::Scalar mean_gain = cv::mean(g);
      r.light_change = std::max({std::abs(std::log(std::max(mean_gain[0], 1e-3))), std::abs(std::log(std::max(mean_gain[1], 1e-3))),
                                 std::abs(std::log(std::max(mean_gain[2], 1e-3)))});
    }
    // Pixels the gains explain well are background; tokens and arms get no say in the next round.
    cv::Mat predicted = ref_bgr.mul(gain_field), diff;
    cv::absdiff(predicted, cur, diff);
    std::vector<cv::Mat> ch;
    cv::split(diff, ch);
    cv::Mat d = cv::max(cv::max(ch[0], ch[1]), ch[2]);
    weight = d < 25;
    weight.convertTo(weight, CV_32F, 1.0 / 255);
    weight += 0.02f;  // never a cell with no weight at all
  }
  cv::Mat matched;
  cv::divide(cur, gain_field, matched);
  matched = cv::min(matched, 255);
  matched.convertTo(r.matched, CV_8UC3);
  r.lab = ToLab(r.matched);
  return r;
}

Foreground FindForeground(const Rectified& frame, const cv::Mat& reference_lab, double px_per_mm, double threshold) {
  Foreground fg;
  std::vector<cv::Mat> a, b;
  cv::split(frame.lab, a);
  cv::split(reference_lab, b);
  const cv::Mat dl = a[0] - b[0];
  cv::Mat da = a[1] - b[1], db = a[2] - b[2];
  cv::Mat chroma_diff;
  cv::sqrt(da.mul(da) + db.mul(db), chroma_diff);
  // A shadow darkens and keeps the colour: only a darkening larger than a token's shadow counts without chroma
  // change. Glare lightens and washes colour out.
  cv::Mat dark = -dl;
  cv::Mat score = chroma_diff * 1.3 + cv::max(dark - 18, 0) + cv::max(dl, 0) * 0.8;
  cv::GaussianBlur(score, score, cv::Size(), 0.6 * px_per_mm);
  fg.mask = score > threshold;
  // Glare: much lighter than the board and low chroma.
  cv::Mat chroma;
  cv::sqrt(a[1].mul(a[1]) + a[2].mul(a[2]), chroma);
  fg.glare = (dl > 22) & (chroma < 12) & (a[0] > 80);
  // The outermost 3 mm: the board's cut edge and its shadow, never a token's centre.
  const int band = std::max(1, cvRound(3 * px_per_mm));
  fg.mask.rowRange(0, band).setTo(0);
  fg.mask.rowRange(fg.mask.rows - band, fg.mask.rows).setTo(0);
  fg.mask.colRange(0, band).setTo(0);
  fg.mask.colRange(fg.mask.cols - band, fg.mask.cols).setTo(0);
  // Clean-up: close pinholes inside tokens, drop specks smaller than a quarter of a token.
  const int k = std::max(3, cvRound(1.5 * px_per_mm) | 1);
  cv::morphologyEx(fg.mask, fg.mask, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  cv::morphologyEx(fg.mask, fg.mask, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  cv::Mat cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(fg.mask, cc, stats, centroids, 8, CV_32S);
  const double min_area = 120 * px_per_mm * px_per_mm;  // mm² -> px
  for (int i = 1; i < n; ++i) {
    if (stats.at<int>(i, cv::CC_STAT_AREA) < min_area) fg.mask.setTo(0, cc == i);
  }
  // Fill holes: a token's symbol may match the board's colour.
  cv::Mat filled = fg.mask.clone();
  cv::Mat inv = ~filled;
  cv::floodFill(inv, cv::Point(0, 0), cv::Scalar(0));
  fg.mask |= inv;
  return fg;
}

std::vector<Instance> FindInstances(const Foreground& fg, double px_per_mm, const cv::Mat& region_labels) {
  std::vector<Instance> out;
  cv::Mat padded;
  cv::copyMakeBorder(fg.mask, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT, 0);
  cv::Mat dist;
  cv::distanceTransform(padded, dist, cv::DIST_L2, 5);
  dist = dist(cv::Rect(1, 1, fg.mask.cols, fg.mask.rows));
  // Peaks: local maxima over a 7 mm neighbourhood, at least 6 mm deep (a token's inscribed radius is ~11-12 mm).
  const int k = std::max(3, cvRound(7 * px_per_mm) | 1);
  cv::Mat dil;
  cv::dilate(dist, dil, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  const float min_depth = static_cast<float>(6 * px_per_mm);
  std::vector<std::pair<float, cv::Point>> peaks;
  for (int y = 0; y < dist.rows; ++y) {
    const float* d = dist.ptr<float>(y);
    const float* m = dil.ptr<float>(y);
    for (int x = 0; x < dist.cols; ++x) {
      if (d[x] >= min_depth && d[x] >= m[x] - 1e-4f) peaks.emplace_back(d[x], cv::Point(x, y));
    }
  }
  // Strongest first; a weaker peak within 0.9 of a stronger one's radius is the same token (a plateau).
  std::sort(peaks.begin(), peaks.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::pair<float, cv::Point>> kept;
  for (const auto& p : peaks) {
    bool near = false;
    for (const auto& q : kept) near = near || cv::norm(p.second - q.second) < 0.9 * q.first;
    if (!near) kept.push_back(p);
  }
  for (const auto& [d, at] : kept) {
    Instance inst;
    inst.centre_mm = {(at.x + 0.5) / px_per_mm, (at.y + 0.5) / px_per_mm};
    inst.radius_mm = d / px_per_mm;
    inst.region = region_labels.at<int>(at);
    out.push_back(inst);
  }
  return out;
}

}  // namespace swref::vision
