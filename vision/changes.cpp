// Step 5's shortcut, incremental observation: a still frame seen from the same pose as the last still frame is
// compared with it, and its tokens are named again only where it changed. A move touches two or three regions;
// the rest of the board keeps the tokens found there before. Both frames are compared after their light was
// matched to the reference's and their glare taken off (Rectified::half_lab), so a camera's exposure flicker
// changes nothing; what the matching does not undo (glare that moved, a new shadow) is a change like a token's, and
// where more than a quarter of the board changed the frame is observed in full.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {
namespace {

// A half-resolution pixel (1 px/mm) changed when a channel of its Lab moved by more than this. Between two still
// frames of the same board (the demo game's, each with its own exposure flicker, noise and JPEG), after the light
// matching, the largest channel's change was 1 at the median, 5 at the 99.99th percentile and 7 at most, on lone
// pixels; the foreground threshold is 14.
constexpr float kChangedLab = 6;
// A change is at least this wide (mm): thinner specks are noise (with the above, no pixel of those frames changed).
constexpr int kChangeOpenMm = 2;
// A token of the last still frame whose footprint comes this close to a change is named again.
constexpr double kTouchMm = 2;
// Seeds are named within this distance of a change or of a token named again: a token's centre lies within its
// half width (12.5 mm) of any of its pixels, and an outline seed up to 6 mm off its centre.
constexpr double kFocusMarginMm = 14;
// More of the board than this changed (a light change the matching did not undo, the board cleared): observed in
// full.
constexpr double kMaxChangedShare = 0.25;

// `mask` (CV_8U) grown by `mm` at `px_per_mm`: a distance transform, far cheaper than dilating by a disc that wide.
cv::Mat Grow(const cv::Mat& mask, double mm, double px_per_mm) {
  cv::Mat distance;
  cv::distanceTransform(mask == 0, distance, cv::DIST_L2, cv::DIST_MASK_3);
  return distance <= mm * px_per_mm;
}

}  // namespace

cv::Mat ChangedSince(const cv::Mat& half_lab, const cv::Mat& before_half_lab) {
  CV_Assert(half_lab.type() == CV_32FC3 && half_lab.size() == before_half_lab.size());
  cv::Mat changed(half_lab.size(), CV_8U);
  for (int y = 0; y < half_lab.rows; ++y) {
    const cv::Vec3f* a = half_lab.ptr<cv::Vec3f>(y);
    const cv::Vec3f* b = before_half_lab.ptr<cv::Vec3f>(y);
    uchar* c = changed.ptr<uchar>(y);
    for (int x = 0; x < half_lab.cols; ++x) {
      const cv::Vec3f d = a[x] - b[x];
      c[x] = std::abs(d[0]) > kChangedLab || std::abs(d[1]) > kChangedLab || std::abs(d[2]) > kChangedLab ? 255 : 0;
    }
  }
  const int k = kChangeOpenMm | 1;
  cv::morphologyEx(changed, changed, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, {k, k}));
  return changed;
}

std::optional<Focus> FocusOnChanges(const cv::Mat& changed_half, const StillScene& before, const calibration::TokenModel& model,
                                    cv::Size board_px) {
  Focus focus;
  focus.changed_share = cv::countNonZero(changed_half) / static_cast<double>(changed_half.total());
  if (focus.changed_share > kMaxChangedShare) return std::nullopt;
  // Grown by the touch distance (at 1 px/mm), then at the board's resolution: what a token of the last still frame
  // must not reach.
  constexpr double kHalfPpm = kBoardPxPerMm / 2;
  const int touch = 2 * cvRound(kTouchMm * kHalfPpm) + 1;
  cv::Mat touched;
  cv::dilate(changed_half, touched, cv::getStructuringElement(cv::MORPH_ELLIPSE, {touch, touch}));
  cv::resize(touched, touched, board_px, 0, 0, cv::INTER_NEAREST);
  cv::Mat named_again = touched.clone();
  cv::Mat canvas = cv::Mat::zeros(board_px, CV_8U);
  for (const Instance& i : before.instances) {
    const auto* kind = model.Find(i.kind);
    if (!kind) continue;
    // Most tokens lie far from any change: the box they may cover shows it without painting them.
    const size_t index = static_cast<size_t>(&i - before.instances.data());
    if (cv::countNonZero(touched(FootprintBox(*kind, i.centre_mm, board_px))) == 0) {
      focus.kept.push_back(i), focus.kept_from.push_back(index);
      continue;
    }
    const cv::Rect box = PaintFootprint(*kind, i.centre_mm, i.rotation_rad, canvas);
    if (cv::countNonZero(canvas(box) & touched(box)) == 0) {
      focus.kept.push_back(i), focus.kept_from.push_back(index);
    } else {
      named_again(box) |= canvas(box);
    }
    canvas(box).setTo(0);
  }
  // Grown by the margin at a quarter of the board's resolution (2 mm pixels: the margin needs no finer).
  constexpr int kShrink = 4;
  const cv::Size small((board_px.width + kShrink - 1) / kShrink, (board_px.height + kShrink - 1) / kShrink);
  cv::Mat named_small;
  cv::resize(named_again, named_small, small, 0, 0, cv::INTER_AREA);
  cv::resize(Grow(named_small, kFocusMarginMm, kBoardPxPerMm / kShrink), focus.where, board_px, 0, 0, cv::INTER_NEAREST);
  if (!before.unexplained.empty()) focus.kept_unexplained = before.unexplained & ~focus.where;
  return focus;
}

std::vector<StackMeasure> KeptStackMeasures(const Focus& focus, const StillScene& before, const std::vector<Instance>& instances,
                                            const calibration::TokenModel& model, cv::Size board_px) {
  std::vector<StackMeasure> measures(instances.size());
  if (before.stacks.size() != before.instances.size()) return measures;
  // What changed, or was named this frame: the focus, and the footprints of the tokens found in it.
  cv::Mat fresh = focus.where.clone();
  for (size_t j = focus.kept.size(); j < instances.size(); ++j) {
    if (const auto* kind = model.Find(instances[j].kind)) PaintFootprint(*kind, instances[j].centre_mm, instances[j].rotation_rad, fresh);
  }
  const int reach = cvCeil(kStackReachMm * kBoardPxPerMm) + 1;
  for (size_t j = 0; j < focus.kept.size() && j < instances.size(); ++j) {
    const auto* kind = model.Find(instances[j].kind);
    const size_t from = focus.kept_from[j];
    if (!kind || !before.stacks[from].measured) continue;
    cv::Rect around = FootprintBox(*kind, instances[j].centre_mm, board_px);
    around = cv::Rect(around.tl() - cv::Point(reach, reach), around.br() + cv::Point(reach, reach)) & cv::Rect(cv::Point(), board_px);
    if (cv::countNonZero(fresh(around)) == 0) measures[j] = before.stacks[from];
  }
  return measures;
}

std::vector<int> RegionsChanged(const cv::Mat& changed_half, const cv::Mat& region_labels, int regions) {
  // Each changed pixel (1 mm) counted once, in the region of the board pixel at its corner.
  cv::Mat labels;
  cv::resize(region_labels, labels, changed_half.size(), 0, 0, cv::INTER_NEAREST);
  const std::vector<int> pixels = PixelsPerRegion(changed_half, labels, regions);
  const double px_per_mm2 =
      (kBoardPxPerMm * changed_half.cols / region_labels.cols) * (kBoardPxPerMm * changed_half.rows / region_labels.rows);
  std::vector<int> regions_changed;
  for (int r = 0; r < regions; ++r)
    if (pixels[static_cast<size_t>(r)] >= kRegionChangedMm2 * px_per_mm2) regions_changed.push_back(r);
  return regions_changed;
}

}  // namespace swref::vision
