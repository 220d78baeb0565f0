// Step 2 of the pipeline: the frame in board coordinates (one cv::remap through the pose's maps), and its light
// matched to the empty-board reference, so that the board looks as it did at setup wherever nothing lies on it.
//
// The light is matched with a smooth gain per channel: frame and reference are averaged over 8 mm cells, their
// ratio blurred over a few cells is the gain there. Twice: first every cell counts, then only the pixels the
// first gains explain (tokens, arms and glare get no say). A lamp's colour, a gradient and vignetting are all
// slow across the board; a token is not.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "calibration/token_model.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

constexpr int kCell = 16;  // board pixels per light cell (8 mm at 2 px/mm)

cv::Mat Shrink(const cv::Mat& f32) {
  cv::Mat small;
  cv::resize(f32, small, cv::Size(std::max(4, f32.cols / kCell), std::max(4, f32.rows / kCell)), 0, 0, cv::INTER_AREA);
  return small;
}

// The gain field over light cells: the frame's cells over the reference's, blurred, in three rounds, each giving
// little say to the cells the previous gains do not explain (tokens, arms) and none to `exclude` (glare).
cv::Mat FitGain(const cv::Mat& small, const cv::Mat& reference_small, const cv::Mat& exclude, double* light_change) {
  cv::Mat weight(small.size(), CV_32F, cv::Scalar(1));
  cv::Mat gain;
  for (int round = 0; round < 3; ++round) {
    if (!exclude.empty()) weight.setTo(0, exclude);
    cv::Mat w3, num, den;
    cv::merge(std::vector<cv::Mat>{weight, weight, weight}, w3);
    cv::GaussianBlur(small.mul(w3), num, cv::Size(), 2.0);
    cv::GaussianBlur(reference_small.mul(w3), den, cv::Size(), 2.0);
    cv::divide(num, den + cv::Scalar::all(1e-3), gain);
    if (round == 0 && light_change) {
      const cv::Scalar g = cv::mean(gain);
      *light_change = std::max({std::abs(std::log(std::max(g[0], 1e-3))), std::abs(std::log(std::max(g[1], 1e-3))),
                                std::abs(std::log(std::max(g[2], 1e-3)))});
    }
    // How far each cell is from what the gains predict, relative to its brightness.
    cv::Mat predicted = reference_small.mul(gain), diff;
    cv::absdiff(predicted, small, diff);
    cv::divide(diff, predicted + cv::Scalar::all(8), diff);
    std::vector<cv::Mat> ch;
    cv::split(diff, ch);
    const cv::Mat d = cv::max(cv::max(ch[0], ch[1]), ch[2]);
    weight = cv::Mat(d < 0.08);
    weight.convertTo(weight, CV_32F, 1.0 / 255);
    weight += 0.01f;
  }
  return gain;
}

// The frame divided by the gain field (float BGR 0..255).
cv::Mat Apply(const cv::Mat& cur, const cv::Mat& gain) {
  cv::Mat inv;
  cv::divide(cv::Scalar::all(1.0), gain, inv);
  cv::Mat field;
  cv::resize(inv, field, cur.size(), 0, 0, cv::INTER_LINEAR);
  return cur.mul(field);
}

}  // namespace

cv::Vec3f CeilingAt(const Rectified& frame, cv::Point2d board_px) {
  if (frame.ceiling.empty()) return {255, 255, 255};
  const cv::Mat& c = frame.ceiling;
  const double x = std::clamp(board_px.x / frame.bgr.cols * c.cols - 0.5, 0.0, c.cols - 1.0);
  const double y = std::clamp(board_px.y / frame.bgr.rows * c.rows - 0.5, 0.0, c.rows - 1.0);
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y), x1 = std::min(x0 + 1, c.cols - 1), y1 = std::min(y0 + 1, c.rows - 1);
  const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
  const cv::Vec3f top = c.at<cv::Vec3f>(y0, x0) * (1 - fx) + c.at<cv::Vec3f>(y0, x1) * fx;
  const cv::Vec3f bottom = c.at<cv::Vec3f>(y1, x0) * (1 - fx) + c.at<cv::Vec3f>(y1, x1) * fx;
  return top * (1 - fy) + bottom * fy;
}

cv::Mat LightReference(const cv::Mat& reference_board) {
  cv::Mat f;
  reference_board.convertTo(f, CV_32FC3);
  return Shrink(f);
}

cv::Mat FindGlare(const cv::Mat& matched, const cv::Mat& reference_board, const cv::Mat& raw, cv::Mat* corrected, cv::Mat* taken) {
  constexpr double ppm = kBoardPxPerMm;
  cv::Mat ref;
  reference_board.convertTo(ref, CV_32FC3);
  const cv::Mat d = matched - ref;
  const int n = d.rows * d.cols;
  // The colour glare adds, one for the whole frame: the median direction of the pixels brighter in every channel.
  std::vector<float> dirs[3];
  for (int i = 0; i < n; i += 3) {
    const cv::Vec3f v = d.at<cv::Vec3f>(i / d.cols, i % d.cols);
    if (v[0] > 12 && v[1] > 12 && v[2] > 12) {
      const float len = static_cast<float>(cv::norm(v));
      for (int c = 0; c < 3; ++c) dirs[c].push_back(v[c] / len);
    }
  }
  cv::Vec3f k(0.577f, 0.577f, 0.577f);
  if (dirs[0].size() > 200) {
    for (int c = 0; c < 3; ++c) {
      std::nth_element(dirs[c].begin(), dirs[c].begin() + dirs[c].size() / 2, dirs[c].end());
      k[c] = dirs[c][dirs[c].size() / 2];
    }
    k /= static_cast<float>(cv::norm(k));
  }
  // How much of that colour each pixel gained, and whether what it gained is that colour (a saturated channel may
  // have gained less).
  cv::Mat alpha(d.size(), CV_32F), fits(d.size(), CV_8U);
  for (int y = 0; y < d.rows; ++y) {
    const cv::Vec3f* dv = d.ptr<cv::Vec3f>(y);
    const cv::Vec3b* m = raw.ptr<cv::Vec3b>(y);
    float* a = alpha.ptr<float>(y);
    uchar* f = fits.ptr<uchar>(y);
    for (int x = 0; x < d.cols; ++x) {
      const float al = dv[x].dot(k);
      float r2 = 0;
      for (int c = 0; c < 3; ++c) {
        float rc = dv[x][c] - al * k[c];
        if (m[x][c] >= 250) rc = std::min(rc, 0.0f);
        r2 += rc * rc;
      }
      a[x] = al;
      f[x] = al > 18 && std::sqrt(r2) < 0.2f * al + 8 ? 255 : 0;
    }
  }
  // Glare is smooth: a token's edges and symbol make the gain jump, glare never does.
  cv::Mat gx, gy, grad;
  cv::Sobel(alpha, gx, CV_32F, 1, 0, 3, 0.125);
  cv::Sobel(alpha, gy, CV_32F, 0, 1, 3, 0.125);
  cv::magnitude(gx, gy, grad);
  fits &= grad < 6;
  cv::morphologyEx(fits, fits, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  // And large: a patch of light, not a token or two.
  cv::Mat glare = KeepComponents(fits, [&](int area, int) { return area >= 1500 * ppm * ppm; });
  const bool any = cv::countNonZero(glare) > 0;
  if (!any) return glare;
  cv::morphologyEx(glare, glare, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, {9, 9}));
  // Take the added light off around the patches too (tokens lying under the glare), from a smooth fill of what
  // the glare pixels gained.
  if (corrected) {
    cv::Mat w, num, den, fill;
    glare.convertTo(w, CV_32F, 1.0 / 255);
    const double sigma = 4 * ppm;
    cv::GaussianBlur(alpha.mul(w), num, cv::Size(), sigma);
    cv::GaussianBlur(w, den, cv::Size(), sigma);
    cv::divide(num, den + 1e-3f, fill);
    cv::Mat reach;
    cv::dilate(glare, reach, cv::getStructuringElement(cv::MORPH_ELLIPSE, {cvRound(16 * ppm) | 1, cvRound(16 * ppm) | 1}));
    fill.setTo(0, ~reach);
    fill.setTo(0, den < 0.05f);
    cv::Mat add;
    cv::merge(std::vector<cv::Mat>{fill * k[0], fill * k[1], fill * k[2]}, add);
    *corrected = matched - add;
    cv::max(*corrected, 0.0, *corrected);
    if (taken) *taken = add;
  }
  return glare;
}

Rectified Rectify(const cv::Mat& frame, const FramePose& pose, const cv::Mat& reference_small, const cv::Mat& reference_board) {
  Rectified r;
  cv::remap(frame, r.bgr, pose.map1, pose.map2, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  {
    std::vector<cv::Mat> ch;
    cv::split(r.bgr, ch);
    r.clipped = cv::max(cv::max(ch[0], ch[1]), ch[2]) >= 250;
  }
  cv::Mat cur;
  r.bgr.convertTo(cur, CV_32FC3);
  const cv::Mat small = Shrink(cur);
  cv::Mat gain = FitGain(small, reference_small, cv::Mat(), &r.light_change);
  cv::Mat matched = Apply(cur, gain);
  // Glare is light added on top (a lamp's reflection), not multiplied: the gains are fitted again without it, then
  // it is taken off before anything else.
  cv::Mat glare = FindGlare(matched, reference_board, r.bgr, nullptr);
  if (cv::countNonZero(glare) > 0) {
    cv::Mat cells;
    cv::resize(glare, cells, small.size(), 0, 0, cv::INTER_AREA);
    gain = FitGain(small, reference_small, cells > 20, nullptr);
    matched = Apply(cur, gain);
  }
  cv::Mat taken;
  r.glare = FindGlare(matched, reference_board, r.bgr, &matched, &taken);
  // The camera saturates at 255: once matched that is 255 / gain, less the glare taken off.
  cv::divide(cv::Scalar::all(255.0), gain, r.ceiling);
  if (!taken.empty()) {
    cv::Mat small_taken;
    cv::resize(taken, small_taken, gain.size(), 0, 0, cv::INTER_AREA);
    r.ceiling -= small_taken;
  }
  cv::min(matched, 255.0, matched);
  matched.convertTo(r.matched, CV_8UC3);
  matched *= 1.0 / 255;
  cv::GaussianBlur(matched, matched, cv::Size(), calibration::kMatchBlurPx);  // as calibration::MatchLab smooths enrollment photos
  cv::cvtColor(matched, r.lab, cv::COLOR_BGR2Lab);
  return r;
}

}  // namespace swref::vision
