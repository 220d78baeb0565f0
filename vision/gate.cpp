// Step 2 of the pipeline: is anything moving over the board? Arms reach in from outside: something on the table
// around the board that crosses the board's edge, or, where the table around the board is out of view, a
// foreground piece that runs along the edge; or a shape far larger than any heap of tokens. A lamp switched on or
// off changes the whole board at once (judged over time, by the referee's session).
#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

namespace {
constexpr double kRingMm = 40;        // how far around the board the table is watched
constexpr double kRingPxPerMm = 1.0;
constexpr double kCutMm = 4;          // the board's cut edge and its shadow: not watched
size_t kBoardPx(cv::Size ring) {      // ring pixels covered by the board and its cut edge
  const int cut = cvRound((kRingMm - kCutMm) * kRingPxPerMm);
  return static_cast<size_t>(std::max(0, ring.width - 2 * cut)) * std::max(0, ring.height - 2 * cut);
}
}  // namespace

EdgeRing WarpEdgeRing(const cv::Mat& image, FramePose& pose, cv::Size2d board_mm, const cv::Matx33d& K,
                      const std::vector<double>& dist) {
  EdgeRing ring;
  const double s = kRingPxPerMm;
  // ring pixel (u, v) <- board mm ((u + 0.5) / s - kRingMm, ...)
  const cv::Matx33d board_from_ring(1 / s, 0, 0.5 / s - kRingMm, 0, 1 / s, 0.5 / s - kRingMm, 0, 0, 1);
  const cv::Size size(cvRound((board_mm.width + 2 * kRingMm) * s), cvRound((board_mm.height + 2 * kRingMm) * s));
  if (pose.ring1.empty()) MakeMaps(pose.pose.image_from_board, board_from_ring, size, K, dist, &pose.ring1, &pose.ring2);
  cv::remap(image, ring.bgr, pose.ring1, pose.ring2, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  const cv::Mat ones(image.size(), CV_8U, cv::Scalar(255));
  cv::remap(ones, ring.valid, pose.ring1, pose.ring2, cv::INTER_NEAREST, cv::BORDER_CONSTANT);
  // The frame's own border blends with the black outside it: keep clear of it.
  cv::erode(ring.valid, ring.valid, cv::getStructuringElement(cv::MORPH_RECT, {7, 7}), cv::Point(-1, -1), 1, cv::BORDER_CONSTANT, cv::Scalar(0));
  // Only the table around the board, less the board's cut edge.
  const int cut = cvRound((kRingMm - kCutMm) * s);
  ring.valid(cv::Rect(cut, cut, size.width - 2 * cut, size.height - 2 * cut)).setTo(0);
  return ring;
}

TableWatch WatchTable(const EdgeRing& frame, const EdgeRing& reference) {
  TableWatch t;
  const cv::Mat valid = frame.valid & reference.valid;
  t.change = cv::Mat::zeros(valid.size(), CV_8U);
  // Too little of the table in view to tell (the board fills the frame): the board's edge alone decides.
  if (cv::countNonZero(valid) < 0.2 * (valid.total() - kBoardPx(valid.size()))) return t;
  t.watched = true;
  // The table's light may have changed, unevenly (a lamp's gradient, vignetting): per-channel gains, first the
  // median ratio of frame to reference (robust to an arm), then a smooth field (the ratio averaged over the
  // watched pixels within about 60 mm, at 1/8 scale) fitted on what the previous round found unchanged.
  cv::Mat f, r;
  frame.bgr.convertTo(f, CV_32FC3);
  reference.bgr.convertTo(r, CV_32FC3);
  cv::Mat ratio;
  cv::divide(f + cv::Scalar::all(4), r + cv::Scalar::all(4), ratio);
  cv::Scalar median_gain;
  {
    std::vector<float> ratios[3];
    for (int y = 0; y < valid.rows; y += 2) {
      const uchar* v = valid.ptr<uchar>(y);
      const cv::Vec3f* q = ratio.ptr<cv::Vec3f>(y);
      for (int x = 0; x < valid.cols; x += 2) {
        if (v[x]) for (int c = 0; c < 3; ++c) ratios[c].push_back(q[x][c]);
      }
    }
    for (int c = 0; c < 3; ++c) {
      auto mid = ratios[c].begin() + ratios[c].size() / 2;
      std::nth_element(ratios[c].begin(), mid, ratios[c].end());
      median_gain[c] = *mid;
    }
  }
  auto changed = [&](const cv::Mat& gain, float tolerance) {
    cv::Mat rel, dev;
    cv::divide(ratio, gain, rel);
    cv::absdiff(rel, cv::Scalar::all(1), dev);
    std::vector<cv::Mat> ch;
    cv::split(dev, ch);
    return cv::Mat((cv::max(cv::max(ch[0], ch[1]), ch[2]) > tolerance) & valid);
  };
  cv::Mat change = changed(cv::Mat(ratio.size(), CV_32FC3, median_gain), 0.6f);
  constexpr int kShrink = 8;
  const cv::Size small(std::max(4, ratio.cols / kShrink), std::max(4, ratio.rows / kShrink));
  for (int round = 0; round < 2; ++round) {
    cv::Mat weight;
    cv::Mat(valid & ~change).convertTo(weight, CV_32F, 1.0 / 255);
    cv::Mat w3, num, den, gain_small, gain;
    cv::merge(std::vector<cv::Mat>{weight, weight, weight}, w3);
    cv::resize(ratio.mul(w3), num, small, 0, 0, cv::INTER_AREA);
    cv::resize(w3, den, small, 0, 0, cv::INTER_AREA);
    const double sigma = 60.0 * kRingPxPerMm / kShrink;
    cv::GaussianBlur(num, num, cv::Size(), sigma);
    cv::GaussianBlur(den, den, cv::Size(), sigma);
    // Where nothing unchanged is near, the median gain stands in.
    const cv::Mat fallback(small, CV_32FC3, median_gain);
    cv::divide(num + fallback * 1e-3, den + cv::Scalar::all(1e-3), gain_small);
    cv::resize(gain_small, gain, ratio.size(), 0, 0, cv::INTER_LINEAR);
    change = changed(gain, 0.35f);
  }
  cv::morphologyEx(change, change, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  // Glare on the table brightens it but the wood's grain still shows through; an arm or a sleeve hides it. A
  // changed piece whose fine texture still follows the reference's is glare, not a change.
  cv::Mat grain_f, grain_r;
  {
    cv::Mat gf, gr, bf, br;
    cv::cvtColor(frame.bgr, gf, cv::COLOR_BGR2GRAY);
    cv::cvtColor(reference.bgr, gr, cv::COLOR_BGR2GRAY);
    gf.convertTo(gf, CV_32F);
    gr.convertTo(gr, CV_32F);
    cv::GaussianBlur(gf, bf, cv::Size(), 3);
    cv::GaussianBlur(gr, br, cv::Size(), 3);
    grain_f = gf - bf;
    grain_r = gr - br;
  }
  const int cut = cvRound((kRingMm - kCutMm) * kRingPxPerMm), rim = cvRound(3 * kRingPxPerMm);
  cv::Mat rim_mask(valid.size(), CV_8U, cv::Scalar(0));
  cv::rectangle(rim_mask, cv::Rect(cut - rim, cut - rim, valid.cols - 2 * (cut - rim), valid.rows - 2 * (cut - rim)), cv::Scalar(255), rim);
  cv::Mat cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(change, cc, stats, centroids, 8, CV_32S);
  std::vector<int> at_rim(n, 0);
  std::vector<double> sff(n, 0), srr(n, 0), sfr(n, 0);
  for (int y = 0; y < cc.rows; ++y) {
    const int* l = cc.ptr<int>(y);
    const uchar* m = rim_mask.ptr<uchar>(y);
    const float* a = grain_f.ptr<float>(y);
    const float* b = grain_r.ptr<float>(y);
    for (int x = 0; x < cc.cols; ++x) {
      if (l[x] <= 0) continue;
      at_rim[l[x]] += m[x] != 0;
      sff[l[x]] += a[x] * a[x], srr[l[x]] += b[x] * b[x], sfr[l[x]] += a[x] * b[x];
    }
  }
  for (int i = 1; i < n; ++i) {
    const double area = stats.at<int>(i, cv::CC_STAT_AREA);
    const bool textured = srr[i] / area > 4;  // the reference shows grain here (a plain cloth has none)
    const double corr = sfr[i] / std::sqrt(std::max(sff[i] * srr[i], 1e-9));
    if (textured && corr > 0.5) at_rim[i] = -1;  // glare: dropped below
  }
  change = KeepComponents(change, [&](int, int i) { return at_rim[i] >= 0; });
  t.change = change;
  // Something big that changed on the table and reaches the board's edge.
  const double px_per_mm2 = kRingPxPerMm * kRingPxPerMm;
  for (int i = 1; i < n; ++i) {
    // A wrist is some 50 mm wide: glare or a token's shadow on the table is smaller.
    if (at_rim[i] / kRingPxPerMm >= 35 && stats.at<int>(i, cv::CC_STAT_AREA) / px_per_mm2 >= 1200) t.arm = true;
  }
  return t;
}

bool IsMotion(const Foreground& fg, double max_area_mm2, const TableWatch& table, std::string* why) {
  constexpr double px_per_mm = kBoardPxPerMm;
  if (table.arm) {
    if (why) *why = "an arm or a hand crosses the board's edge";
    return true;
  }
  cv::Mat cc, stats, centroids;
  const int n = cv::connectedComponentsWithStats(fg.mask, cc, stats, centroids, 8, CV_32S);
  const int w = fg.mask.cols, h = fg.mask.rows;
  // Contact with the edge is measured on a ring 5 mm inside it (the outermost millimetres are noisy: the board's
  // cut, its shadow, a registration error of a pixel). Where the table was watched, a contact counts only when
  // the table just outside changed too (tokens in a row along the edge leave the table as it was).
  const int in = std::max(1, static_cast<int>(5 * px_per_mm));
  auto table_changed_beyond = [&](int x, int y) {
    if (!table.watched) return true;
    // Board pixel -> ring pixel; look 4..16 mm out from the board's edge, straight out.
    const double u = (x + 0.5) / px_per_mm + kRingMm, v = (y + 0.5) / px_per_mm + kRingMm;
    const int cols = table.change.cols, rows = table.change.rows;
    for (double d = kCutMm; d <= 16; d += 1) {
      int tu = cvRound(u), tv = cvRound(v);
      if (y == in) tv = cvRound(kRingMm - d);
      else if (y == h - 1 - in) tv = rows - 1 - cvRound(kRingMm - d);
      else if (x == in) tu = cvRound(kRingMm - d);
      else tu = cols - 1 - cvRound(kRingMm - d);
      if (tu >= 0 && tv >= 0 && tu < cols && tv < rows && table.change.at<uchar>(tv, tu)) return true;
    }
    return false;
  };
  std::vector<int> edge_px(n, 0);
  auto contact = [&](int x, int y) {
    const int l = cc.at<int>(y, x);
    if (l > 0 && table_changed_beyond(x, y)) ++edge_px[l];
  };
  for (int x = in; x < w - in; ++x) contact(x, in), contact(x, h - 1 - in);
  for (int y = in + 1; y < h - 1 - in; ++y) contact(in, y), contact(w - 1 - in, y);
  for (int i = 1; i < n; ++i) {
    const double area_mm2 = stats.at<int>(i, cv::CC_STAT_AREA) / (px_per_mm * px_per_mm);
    const double edge_mm = edge_px[i] / px_per_mm;
    // A token at the edge touches it along at most its width (~25 mm); an arm crosses it wide.
    if (edge_mm > (table.watched ? 20 : 45) || area_mm2 > max_area_mm2) {
      if (why) *why = area_mm2 > max_area_mm2 ? "a large shape over the board" : "something reaches over the board's edge";
      return true;
    }
  }
  return false;
}

}  // namespace swref::vision
