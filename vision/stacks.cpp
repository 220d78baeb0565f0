// Step 6 of the pipeline: neat stacks. From above, a stack of three tokens shows one token's face; what gives it
// away is its height: a longer shadow on the board, on the side away from the light. All tokens in one frame
// share the light, so each race token's shadow is compared with the frame's typical single token's:
//   - the frame's shadow direction is where the shadows of all race tokens fall on average;
//   - a token's shadow length is how far darkened board reaches beyond its footprint in that direction
//     (the darkened pixels there, divided by the footprint's width across that direction);
//   - a token whose shadow is clearly longer than the frame's median stands taller: a stack. It counts once and
//     its region's count is reported as a lower bound (tokens_certain false), never as a guess.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/components.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

constexpr double kPpm = kBoardPxPerMm;
constexpr double kReachMm = 9;          // how far beyond a footprint its shadow is looked for
constexpr double kTallerMm = 0.5;       // a shadow this much longer than the frame's median is a stack's

bool IsRace(const std::string& kind) {
  const std::string base = kind.size() > 8 && kind.compare(kind.size() - 8, 8, "_decline") == 0 ? kind.substr(0, kind.size() - 8) : kind;
  return engine::RaceFromId(base).has_value();
}

}  // namespace

void JudgeStacks(std::vector<Instance>& instances, const Rectified& frame, const Foreground& fg, const calibration::TokenModel& model) {
  (void)frame;
  const cv::Size size = fg.mask.size();
  cv::Mat all = cv::Mat::zeros(size, CV_8U);
  std::vector<cv::Mat> own(instances.size());
  for (size_t i = 0; i < instances.size(); ++i) {
    const calibration::KindTemplate* t = model.Find(instances[i].kind);
    if (!t) continue;
    own[i] = cv::Mat::zeros(size, CV_8U);
    PaintFootprint(*t, instances[i].centre_mm, instances[i].rotation_rad, own[i]);
    all |= own[i];
  }
  // The darkened board around each race token (not under another token), as offsets from its centre.
  struct Shade {
    size_t index;
    std::vector<cv::Point2d> offsets_mm;  // dark pixels within reach beyond the footprint
    double width_mm;
  };
  std::vector<Shade> shades;
  cv::Point2d direction(0, 0);
  const int reach = cvRound(kReachMm * kPpm);
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * reach + 1, 2 * reach + 1});
  for (size_t i = 0; i < instances.size(); ++i) {
    if (own[i].empty() || !IsRace(instances[i].kind) || instances[i].visible < 0.9) continue;
    const cv::Rect box = cv::boundingRect(own[i]);
    const cv::Rect area = cv::Rect(box.x - reach, box.y - reach, box.width + 2 * reach, box.height + 2 * reach) & cv::Rect(0, 0, size.width, size.height);
    cv::Mat around;
    cv::dilate(own[i](area), around, kernel);
    const cv::Mat ring = around & ~all(area) & fg.dark(area);
    Shade s;
    s.index = i;
    s.width_mm = model.Find(instances[i].kind)->size_mm;
    const cv::Point2d c = instances[i].centre_mm;
    for (int y = 0; y < ring.rows; ++y) {
      const uchar* m = ring.ptr<uchar>(y);
      for (int x = 0; x < ring.cols; ++x) {
        if (!m[x]) continue;
        const cv::Point2d p((area.x + x + 0.5) / kPpm - c.x, (area.y + y + 0.5) / kPpm - c.y);
        s.offsets_mm.push_back(p);
        direction += p / std::max(cv::norm(p), 1e-6);
      }
    }
    shades.push_back(std::move(s));
  }
  if (shades.size() < 2 || cv::norm(direction) < 1e-6) return;  // nothing to compare with
  direction /= cv::norm(direction);
  // Each token's shadow length: the dark pixels on the shadow's side, per mm of the token's width.
  std::vector<double> lengths;
  for (Shade& s : shades) {
    double n = 0;
    for (const cv::Point2d& p : s.offsets_mm)
      if (p.dot(direction) > 0.3 * s.width_mm) n += 1;
    lengths.push_back(n / (kPpm * kPpm) / s.width_mm);
  }
  std::vector<double> sorted = lengths;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double typical = sorted[sorted.size() / 2];
  for (size_t k = 0; k < shades.size(); ++k) {
    Instance& inst = instances[shades[k].index];
    const double extra = lengths[k] - typical;
    // Taller than one token: how many more cannot be told reliably, so the token counts once and its region's
    // count becomes a lower bound.
    if (extra > kTallerMm) inst.stack_unsure = true;
  }
}

}  // namespace swref::vision
