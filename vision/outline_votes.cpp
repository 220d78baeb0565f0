// Seeds for step 5 from the tokens' outlines: where a token lies, the frame shows an edge the empty board does not
// have (its cut line), at a known distance from its centre. Every pixel of the difference image (frame minus
// reference, both in Lab) votes for the two points that lie `radius_mm` away along its edge normal, weighted by
// how strong the new edge is; a token's centre collects the votes of its whole outline. The board's own edges are
// in both images and cancel; glare and light changes are smooth and make no edges; a grey token on grey ground,
// which hardly changes the colour, still shows its whole cut line.
//
// Squarish tokens vote along a short cross through their centre (a side's normal is radial only at its middle),
// round ones on a point: either way the accumulator peaks at the centre. Pieces of other sizes peak less sharply;
// they are found from the foreground as before.
#include <algorithm>
#include <cmath>
#include <map>

#include <opencv2/imgproc.hpp>

#include "calibration/token_model.h"
#include "vision/observer.h"

namespace swref::vision {

cv::Mat OutlineLab(const cv::Mat& board_bgr) {
  cv::Mat half;
  cv::resize(board_bgr, half, cv::Size(board_bgr.cols / 2, board_bgr.rows / 2), 0, 0, cv::INTER_AREA);
  return calibration::MatchLab(half);
}

std::vector<OutlineSeed> OutlineSeeds(const cv::Mat& frame_half_lab, const cv::Mat& reference_half_lab, double radius_mm,
                                      const cv::Mat& exclude, cv::Mat* votes_image) {
  // At 1 px/mm: a token is 25 px across, fine enough for a seed (the matcher refines the centre).
  constexpr double ppm = kBoardPxPerMm / 2;
  const cv::Mat d = frame_half_lab - reference_half_lab;
  // The structure tensor of the difference over its three channels: its main eigenvector is the edge normal,
  // the square root of its eigenvalue the edge's strength (Lab units per pixel).
  cv::Mat gx, gy, sxx = cv::Mat::zeros(d.size(), CV_32F), syy = sxx.clone(), sxy = sxx.clone();
  cv::Sobel(d, gx, CV_32F, 1, 0, 3, 1.0 / 8);
  cv::Sobel(d, gy, CV_32F, 0, 1, 3, 1.0 / 8);
  for (int y = 0; y < d.rows; ++y) {
    const cv::Vec3f* px = gx.ptr<cv::Vec3f>(y);
    const cv::Vec3f* py = gy.ptr<cv::Vec3f>(y);
    float* a = sxx.ptr<float>(y);
    float* b = syy.ptr<float>(y);
    float* c = sxy.ptr<float>(y);
    for (int x = 0; x < d.cols; ++x) {
      a[x] = px[x].dot(px[x]);
      b[x] = py[x].dot(py[x]);
      c[x] = px[x].dot(py[x]);
    }
  }
  // How much each pixel changed (Lab distance), to tell a token's outline from the edges inside it: across an
  // outline one side is the board as it was, across a symbol's edge both sides changed.
  cv::Mat change(d.size(), CV_32F);
  for (int y = 0; y < d.rows; ++y) {
    const cv::Vec3f* dv = d.ptr<cv::Vec3f>(y);
    float* c = change.ptr<float>(y);
    for (int x = 0; x < d.cols; ++x) c[x] = std::sqrt(dv[x].dot(dv[x]));
  }
  auto change_at = [&](double x, double y) {
    const int xi = std::clamp(cvRound(x), 0, change.cols - 1), yi = std::clamp(cvRound(y), 0, change.rows - 1);
    return change.at<float>(yi, xi);
  };
  const double probe = 2.0 * ppm, h = (radius_mm + 0.5) * ppm;
  cv::Mat acc = cv::Mat::zeros(d.size(), CV_32F), fine = acc.clone();
  // The wedges of centres, one per direction bin, as points (made once per radius) and as offsets into the
  // accumulator's rows.
  constexpr int kBins = 32;
  const double r_in = (radius_mm - 1) * ppm, r_out = radius_mm * 1.35 * ppm;
  const int margin = cvCeil(r_out) + 1;
  thread_local std::map<double, std::vector<std::vector<cv::Point>>> wedge_points;
  auto [made, fresh] = wedge_points.try_emplace(radius_mm, kBins);
  if (fresh) {
    for (int b = 0; b < kBins; ++b) {
      const double dir = 2 * CV_PI * b / kBins;
      for (int oy = -margin; oy <= margin; ++oy)
        for (int ox = -margin; ox <= margin; ++ox) {
          const double dist = std::hypot(ox, oy);
          if (dist < r_in || dist > r_out) continue;
          double da = std::abs(std::remainder(std::atan2(oy, ox) - dir, 2 * CV_PI));
          if (da > CV_PI / 4 + 1e-9) continue;
          // Farther out only towards the corners: at the side's middle the centre lies at the half width.
          if (dist > r_in / std::cos(std::min(da, CV_PI / 4)) + 1.5 * ppm) continue;
          made->second[b].emplace_back(ox, oy);
        }
    }
  }
  struct Wedge {
    const std::vector<cv::Point>& points;
    std::vector<int> offsets;
  };
  std::vector<Wedge> wedges;
  for (const std::vector<cv::Point>& points : made->second) {
    Wedge w{points, {}};
    for (const cv::Point& o : points) w.offsets.push_back(o.y * static_cast<int>(acc.step1()) + o.x);
    wedges.push_back(std::move(w));
  }
  constexpr float kMinStrength = 2.0f;   // Lab units per pixel: noise and JPEG stay below it
  constexpr float kFullStrength = 5.0f;  // an edge this strong is surely an edge
  for (int y = 0; y < d.rows; ++y) {
    const float* a = sxx.ptr<float>(y);
    const float* b = syy.ptr<float>(y);
    const float* c = sxy.ptr<float>(y);
    const uchar* ex = exclude.empty() ? nullptr : exclude.ptr<uchar>(2 * std::min(y, exclude.rows / 2 - 1));
    for (int x = 0; x < d.cols; ++x) {
      if (ex && ex[2 * std::min(x, exclude.cols / 2 - 1)]) continue;
      const float tr = a[x] + b[x];
      if (tr < kMinStrength * kMinStrength) continue;
      const float diff = a[x] - b[x];
      const float root = std::sqrt(diff * diff + 4 * c[x] * c[x]);
      const float strength = std::sqrt(0.5f * (tr + root));
      if (strength < kMinStrength) continue;
      const double theta = 0.5 * std::atan2(2.0 * c[x], static_cast<double>(diff));
      const double nx = std::cos(theta), ny = std::sin(theta);
      // The changed side is the token's: the vote goes that way, weighted by how plainly the other side is the
      // untouched board.
      const float plus = change_at(x + probe * nx, y + probe * ny), minus = change_at(x - probe * nx, y - probe * ny);
      const float hi = std::max(plus, minus), lo = std::min(plus, minus);
      const float one_sided = hi > 0 ? std::clamp(1.0f - 2.0f * lo / hi, 0.0f, 1.0f) : 0.0f;
      if (one_sided <= 0) continue;
      // The inward normal's direction picks a wedge of centres: every point at a squarish token's centre distance
      // (its half width out to its rounded corner) within 45 degrees of the normal.
      double inward = std::atan2(ny, nx) + (plus > minus ? 0.0 : CV_PI);
      if (inward < 0) inward += 2 * CV_PI;
      const auto& wedge = wedges[static_cast<int>(inward / (2 * CV_PI) * kBins + 0.5) % kBins];
      // An outline counts by its length, not its contrast: a pale token's cut line is as long as a bright one's.
      const float w = std::min(strength / kFullStrength, 1.0f) * one_sided;
      // The exact centre distance along the normal (a side's middle): the fine accumulator, for placing a seed.
      {
        const double s = plus > minus ? 1.0 : -1.0;
        const int fx = cvRound(x + s * h * nx), fy = cvRound(y + s * h * ny);
        if (fx >= 0 && fy >= 0 && fx < fine.cols && fy < fine.rows) fine.at<float>(fy, fx) += w;
      }
      if (x >= margin && y >= margin && x < acc.cols - margin && y < acc.rows - margin) {
        float* base = acc.ptr<float>(y) + x;
        for (const int off : wedge.offsets) base[off] += w;
      } else {
        for (const cv::Point& o : wedge.points) {
          const int vx = x + o.x, vy = y + o.y;
          if (vx >= 0 && vy >= 0 && vx < acc.cols && vy < acc.rows) acc.at<float>(vy, vx) += w;
        }
      }
    }
  }
  cv::GaussianBlur(acc, acc, cv::Size(), 1.0);
  cv::GaussianBlur(fine, fine, cv::Size(), 1.0);
  // Peaks: local maxima over 9 mm, strongest first. The wedges' peaks are broad (they say that a token lies near);
  // the fine accumulator, where a squarish token's votes cross at its centre, says where: each peak moves to the
  // fine maximum within 5 mm.
  cv::Mat dil;
  const int k = cvRound(9 * ppm) | 1;
  cv::dilate(acc, dil, cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k}));
  // A token's whole outline gives about 60; the floor keeps texture that lines up by chance out.
  constexpr float kMinPeak = 8.0f;
  const int reach = cvRound(5 * ppm);
  std::vector<OutlineSeed> out;
  for (int y = 0; y < acc.rows; ++y) {
    const float* v = acc.ptr<float>(y);
    const float* m = dil.ptr<float>(y);
    for (int x = 0; x < acc.cols; ++x) {
      if (v[x] < kMinPeak || v[x] < m[x] - 1e-4f) continue;
      cv::Point best(x, y);
      float best_v = -1;
      for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
          const int qx = x + dx, qy = y + dy;
          if (dx * dx + dy * dy > reach * reach || qx < 1 || qy < 1 || qx >= fine.cols - 1 || qy >= fine.rows - 1) continue;
          if (fine.at<float>(qy, qx) > best_v) best_v = fine.at<float>(qy, qx), best = {qx, qy};
        }
      // Sub-pixel: the centroid of the 3 x 3 around the fine maximum.
      double sx = 0, sy = 0, sw = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int qx = std::clamp(best.x + dx, 0, fine.cols - 1), qy = std::clamp(best.y + dy, 0, fine.rows - 1);
          const double wgt = fine.at<float>(qy, qx);
          sx += wgt * qx, sy += wgt * qy, sw += wgt;
        }
      const cv::Point2d at = sw > 0 ? cv::Point2d(sx / sw, sy / sw) : cv::Point2d(best);
      out.push_back({cv::Point2d((at.x + 0.5) / ppm * kBoardPxPerMm - 0.5, (at.y + 0.5) / ppm * kBoardPxPerMm - 0.5), v[x]});
    }
  }
  std::sort(out.begin(), out.end(), [](const OutlineSeed& a, const OutlineSeed& b) { return a.votes > b.votes; });
  if (votes_image) *votes_image = acc;
  return out;
}

}  // namespace swref::vision
