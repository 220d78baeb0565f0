// Step 4 of the pipeline: each instance named by the enrolled appearance model, then every region counted.
#include <algorithm>
#include <set>

#include <opencv2/imgproc.hpp>

#include "engine/components.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

bool IsRaceKind(const std::string& kind, std::string* race, bool* decline) {
  std::string base = kind;
  *decline = false;
  if (base.size() > 8 && base.compare(base.size() - 8, 8, "_decline") == 0) base = base.substr(0, base.size() - 8), *decline = true;
  if (!engine::RaceFromId(base)) return false;
  *race = base;
  return true;
}

}  // namespace

void ClassifyInstances(std::vector<Instance>& instances, const Rectified& frame, const cv::Mat& glare, double px_per_mm,
                       const calibration::AppearanceModel& model) {
  // The patch comes from the light-matched frame: enrollment is part of the setup, its crops taken under the
  // light of the reference photo, and every frame's light is brought back to that.
  const cv::Mat& bgr = frame.matched;
  for (Instance& inst : instances) {
    // The token patch convention: the token spans 2/3 of the patch. The footprint's inscribed radius gives one
    // guess of the token's size (a race token's is about 0.45 of its width); an overlapped token looks smaller
    // and a piece's shape is not square, so a few fixed sizes are tried too and the nearest match wins.
    const cv::Point2f c(static_cast<float>(inst.centre_mm.x * px_per_mm - 0.5), static_cast<float>(inst.centre_mm.y * px_per_mm - 0.5));
    calibration::Classification best;
    bool first = true;
    for (const double side_mm : {std::clamp(inst.radius_mm / 0.45 * 1.5, 25.0, 70.0), 37.5, 45.0, 55.0}) {
      const int side = std::max(16, cvRound(side_mm * px_per_mm));
      cv::Mat patch;
      cv::getRectSubPix(bgr, cv::Size(side, side), c, patch);
      const calibration::Classification cls = model.Classify(calibration::DescribeToken(patch));
      if (first || cls.distance < best.distance) best = cls;
      first = false;
    }
    inst.kind = best.kind;
    inst.confidence = best.confidence;
    // Glare over the token's centre: what it is cannot be trusted.
    if (!glare.empty()) {
      const cv::Point at(std::clamp(cvRound(c.x), 0, glare.cols - 1), std::clamp(cvRound(c.y), 0, glare.rows - 1));
      if (glare.at<uchar>(at)) inst.confidence = std::min(inst.confidence, 0.3);
    }
  }
}

Observation CountRegions(const std::vector<Instance>& instances, const engine::Map& map, const cv::Mat& glare,
                         const cv::Mat& region_labels, double min_confidence) {
  Observation obs;
  obs.regions.resize(map.size());
  struct Tally {
    std::map<std::string, int> races;   // "ratmen" / "ratmen_decline" -> count
    std::map<std::string, int> pieces;
    int lost_tribe = 0;
    bool unsure = false;
    bool stack = false;
    double confidence = 1;
  };
  std::vector<Tally> tally(map.size());
  for (const Instance& inst : instances) {
    if (inst.region < 0 || inst.region >= map.size()) continue;
    Tally& t = tally[inst.region];
    t.confidence = std::min(t.confidence, inst.confidence);
    if (inst.confidence < min_confidence) t.unsure = true;
    std::string race;
    bool decline = false;
    if (IsRaceKind(inst.kind, &race, &decline)) {
      ++t.races[inst.kind];
      t.stack = t.stack || inst.stack;
    } else if (inst.kind == "lost_tribe") {
      ++t.lost_tribe;
    } else {
      ++t.pieces[inst.kind];
    }
  }
  // Glare over a region hides what lies there: its count is not certain.
  std::vector<int> glare_px(map.size(), 0);
  for (int y = 0; y < glare.rows; ++y) {
    const uchar* g = glare.ptr<uchar>(y);
    const int* l = region_labels.ptr<int>(y);
    for (int x = 0; x < glare.cols; ++x) {
      if (g[x] && l[x] >= 0) ++glare_px[l[x]];
    }
  }
  for (int r = 0; r < map.size(); ++r) {
    RegionObservation& o = obs.regions[r];
    o.id = r;
    const Tally& t = tally[r];
    // One race per region: the most frequent kind wins, the others make the region uncertain.
    std::string best;
    int best_n = 0, total = 0;
    for (const auto& [kind, n] : t.races) {
      total += n;
      if (n > best_n) best = kind, best_n = n;
    }
    if (!best.empty()) {
      std::string race;
      bool decline = false;
      IsRaceKind(best, &race, &decline);
      o.race = race;
      o.decline = decline;
      o.tokens = best_n;
    }
    o.pieces = t.pieces;
    o.lost_tribe = t.lost_tribe;
    o.confidence = t.confidence;
    o.tokens_certain = !(t.unsure || t.stack || total != best_n || glare_px[r] > 400);
  }
  return obs;
}

}  // namespace swref::vision
