// Naming a candidate with the token model (token_model.h: Rank, ErrorOf): ring colours as a quick filter, then
// every kind's template at every rotation, its light offset and its centre refined.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <opencv2/imgproc.hpp>

#include "calibration/token_model_internal.h"

namespace swref::calibration {
using namespace token_model_internal;

namespace {

// The cube root of t in [0, 1.25], from a table with linear interpolation: within 3e-5 above 0.008856 (where Lab
// uses it), at most 0.03 Lab units; std::cbrt is several times slower, and a frame caps some 100,000 samples.
float TableCbrt(float t) {
  constexpr int kSteps = 2048;
  constexpr float kTop = 1.25f;
  static const std::array<float, kSteps + 2> table = [] {
    std::array<float, kSteps + 2> a{};
    for (int i = 0; i < kSteps + 2; ++i) a[i] = static_cast<float>(std::cbrt(double(i) * kTop / kSteps));
    return a;
  }();
  const float x = std::clamp(t, 0.0f, kTop) * (kSteps / kTop);
  const int i = static_cast<int>(x);
  return table[i] + (x - i) * (table[i + 1] - table[i]);
}

// Linear light (BGR, 0..1, SrgbToLinear) to CIELab (D65), as OpenCV's cvtColor does it, for one colour.
cv::Vec3f LinearToLab(float B, float G, float R) {
  const float X = (0.412453f * R + 0.357580f * G + 0.180423f * B) / 0.950456f;
  const float Y = 0.212671f * R + 0.715160f * G + 0.072169f * B;
  const float Z = (0.019334f * R + 0.119193f * G + 0.950227f * B) / 1.088754f;
  auto f = [](float t) { return t > 0.008856f ? TableCbrt(t) : 7.787f * t + 16.0f / 116.0f; };
  const float fy = f(Y);
  return {Y > 0.008856f ? 116.0f * fy - 16.0f : 903.3f * Y, 500.0f * (f(X) - fy), 200.0f * (fy - f(Z))};
}

// A ceiling (MatchContext::ceiling) in the forms capping needs, worked out once.
struct Ceiling {
  cv::Vec3f bgr;
  float linear[3];
  cv::Vec3f lab;  // a sample that reaches it in every channel takes this colour
  float lowest;   // a sample no channel of which is brighter than this does not reach it
  explicit Ceiling(const cv::Vec3f& c)
      : bgr(c), linear{SrgbToLinear(c[0] / 255.0f), SrgbToLinear(c[1] / 255.0f), SrgbToLinear(c[2] / 255.0f)},
        lab(LinearToLab(linear[0], linear[1], linear[2])), lowest(std::min({c[0], c[1], c[2]})) {}
  // Whether any of the template's samples reaches it.
  bool Caps(const KindTemplate& t) const {
    if (bgr[0] >= 254 && bgr[1] >= 254 && bgr[2] >= 254) return false;
    return t.max_bgr[0] > bgr[0] || t.max_bgr[1] > bgr[1] || t.max_bgr[2] > bgr[2];
  }
};

// A template colour (BGR 0..255, and the same in linear light) as the camera would show it under the ceiling: its
// BGR capped, back in Lab. False when no channel reaches the ceiling (the colour is the template's own).
bool CapColour(const float bgr[3], const float linear[3], const Ceiling& ceiling, cv::Vec3f* lab) {
  // In linear light: a capped channel's is the ceiling's, the others' the template's own.
  float v[3];
  int over = 0;
  for (int c = 0; c < 3; ++c) {
    if (bgr[c] > ceiling.bgr[c]) {
      v[c] = ceiling.linear[c], ++over;
    } else {
      v[c] = linear[c];
    }
  }
  if (over == 0) return false;
  *lab = over == 3 ? ceiling.lab : LinearToLab(v[0], v[1], v[2]);
  return true;
}

// Template sample i under the ceiling (CapColour of KindTemplate::mean_bgr and mean_linear there).
bool CapSample(const KindTemplate& t, int i, const Ceiling& ceiling, cv::Vec3f* lab) {
  constexpr size_t n = kRings * kAngles;
  const float bgr[3] = {t.mean_bgr[i], t.mean_bgr[n + i], t.mean_bgr[2 * n + i]};
  const float linear[3] = {t.mean_linear[i], t.mean_linear[n + i], t.mean_linear[2 * n + i]};
  return CapColour(bgr, linear, ceiling, lab);
}

// The template's mean under a ceiling (only the samples that reach it change). False (and `out` untouched) when
// none does.
bool Capped(const KindTemplate& t, const Ceiling& ceiling, std::vector<float>* out) {
  if (!ceiling.Caps(t)) return false;
  constexpr int n = kRings * kAngles;
  bool any = false;
  cv::Vec3f lab;
  for (int i = 0; i < n; ++i) {
    if (!CapSample(t, i, ceiling, &lab)) continue;
    if (!any) out->assign(t.mean.begin(), t.mean.end()), any = true;
    for (int c = 0; c < 3; ++c) (*out)[static_cast<size_t>(c) * n + i] = lab[c];
  }
  return any;
}

// The template's ring means (KindTemplate::row_mean) under a ceiling, for the shortlist: a kind with a large white
// symbol would otherwise look far too light to be named in a frame brighter than the reference. Estimated from
// every KindTemplate::kRingStride-th angle (KindTemplate::ring_samples); a frame needs thousands of these.
void RingMeansUnder(const KindTemplate& t, const Ceiling& ceiling, float* rows) {
  double change[kPolarRows] = {};
  for (const KindTemplate::RingSample& r : t.ring_samples) {
    if (r.brightest <= ceiling.lowest) break;
    cv::Vec3f lab;
    if (!CapColour(r.bgr, r.linear, ceiling, &lab)) continue;
    for (int c = 0; c < 3; ++c) change[c * kRings + r.ring] += static_cast<double>(r.weight[c]) * (lab[c] - r.mean[c]);
  }
  for (int row = 0; row < kPolarRows; ++row)
    if (t.row_weight[row] > 0) rows[row] = static_cast<float>(t.row_mean[row] + KindTemplate::kRingStride * change[row] / t.row_weight[row]);
    else rows[row] = t.row_mean[row];
}

// The context's cache, emptied when it was made for another ceiling.
CappedTemplates& CacheFor(const MatchContext& context) {
  CappedTemplates& cache = *context.cache;
  if (cache.ceiling != context.ceiling) cache = CappedTemplates{}, cache.ceiling = context.ceiling;
  return cache;
}

// The template under the context's ceiling: its own mean, or a capped copy (in `storage`, or in the context's cache).
const std::vector<float>& MeanFor(const KindTemplate& t, const MatchContext& context, std::vector<float>* storage) {
  if (!context.cache) return Capped(t, Ceiling(context.ceiling), storage) ? *storage : t.mean;
  CappedTemplates& cache = CacheFor(context);
  if (!cache.checked[&t]) {
    cache.checked[&t] = true;
    std::vector<float> capped;
    if (Capped(t, Ceiling(context.ceiling), &capped)) cache.capped[&t] = std::move(capped);
  }
  const auto it = cache.capped.find(&t);
  return it == cache.capped.end() ? t.mean : it->second;
}

}  // namespace

// How far apart a candidate's ring colours are from a kind's (`row_mean`: KindTemplate::row_mean, or those under
// a ceiling), after the best light offset: a quick filter.
// `seen` (optional, kRings): the share of each ring's samples in view, which weighs its rows.
double RingDistance(const std::vector<float>& sample_rows, const KindTemplate& t, const float* row_mean, const float* seen) {
  auto weight = [&](int row) { return seen ? t.row_weight[row] * seen[row % kRings] : t.row_weight[row]; };
  double off[kChannels] = {0};
  for (int c = 0; c < kChannels; ++c) {
    double num = 0, den = 0;
    for (int r = 0; r < kRings; ++r) {
      const int row = c * kRings + r;
      num += weight(row) * (row_mean[row] - sample_rows[row]);
      den += weight(row);
    }
    off[c] = den > 0 ? std::clamp(num / den, -double(kMaxOffset[c]), double(kMaxOffset[c])) : 0;
  }
  double sum = 0, wsum = 0;
  for (int row = 0; row < kPolarRows; ++row) {
    const double d = sample_rows[row] + off[row / kRings] - row_mean[row];
    sum += weight(row) * d * d;
    wsum += weight(row);
  }
  return wsum > 0 ? sum / wsum : 0;
}

std::vector<TokenMatch> TokenModel::Rank(const PolarSamples& samples, int top, const MatchContext& context, int shortlist,
                                         bool with_other_side) const {
  const std::vector<uint8_t>* mask = context.mask;
  const SampleSpectra s = MakeSpectra(samples);
  // The shortlist: the kinds nearest by ring colours. With a mask, over the samples in view (the others show
  // whatever hides them), each ring weighed by its share in view.
  std::vector<float> rows(kPolarRows);
  std::array<float, kRings> seen;
  if (mask) {
    for (int r = 0; r < kRings; ++r) {
      const uint8_t* kept = mask->data() + r * kAngles;
      const int n = kAngles - static_cast<int>(std::count(kept, kept + kAngles, uint8_t{0}));
      seen[r] = static_cast<float>(n) / kAngles;
      for (int c = 0; c < kChannels; ++c) {
        const float* p = samples.data() + (c * kRings + r) * kAngles;
        float sum = 0;
        for (int a = 0; a < kAngles; ++a) sum += kept[a] ? p[a] : 0.0f;
        rows[c * kRings + r] = n > 0 ? sum / n : 0.0f;
      }
    }
  } else {
    for (int row = 0; row < kPolarRows; ++row) rows[row] = s.p[static_cast<size_t>(row) * (kAngles / 2 + 1)].real() / kAngles;
  }
  std::vector<std::pair<double, const KindTemplate*>> near;
  const Ceiling ceiling(context.ceiling);
  std::array<float, kPolarRows> capped_rows;
  for (const KindTemplate& t : kinds_) {
    const float* row_mean = t.row_mean.data();
    if (ceiling.Caps(t)) {
      if (!context.cache) {
        RingMeansUnder(t, ceiling, capped_rows.data()), row_mean = capped_rows.data();
      } else {
        auto [it, made] = CacheFor(context).ring_means.try_emplace(&t);
        if (made) RingMeansUnder(t, ceiling, it->second.data());
        row_mean = it->second.data();
      }
    }
    near.emplace_back(RingDistance(rows, t, row_mean, mask ? seen.data() : nullptr), &t);
  }
  if (static_cast<int>(near.size()) > shortlist) {
    std::nth_element(near.begin(), near.begin() + shortlist, near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    near.resize(shortlist);
  }
  std::vector<TokenMatch> all;
  std::vector<float> capped;
  auto compare = [&](const KindTemplate& t) {
    const auto e = RotationErrors(s, t.spectra);
    // The two deepest minima of the fast (plain least squares) error: with part of the token hidden the best of
    // them under the robust error is not always the first.
    int first = ArgMin(e), second = -1;
    for (int i = 0; i < kAngles; ++i) {
      const bool local = e[i] <= e[(i + 1) % kAngles] && e[i] <= e[(i + kAngles - 1) % kAngles];
      const int gap = std::abs(i - first);
      if (local && std::min(gap, kAngles - gap) > 3 && (second < 0 || e[i] < e[second])) second = i;
    }
    const std::vector<float>& mean = MeanFor(t, context, &capped);
    TokenMatch m;
    m.kind = t.kind;
    m.shift = first;
    m.offset = FitOffset(samples, mean, t.weight, first, kCap, mask);
    m.error = RobustError(samples, mean, t.weight, first, kCap, mask, nullptr, m.offset);
    if (second >= 0) {
      const double e2 = RobustError(samples, mean, t.weight, second, kCap, mask, nullptr, m.offset);
      if (e2 < m.error) {
        const LabOffset o2 = FitOffset(samples, mean, t.weight, second, kCap, mask);
        m.error = RobustError(samples, mean, t.weight, second, kCap, mask, nullptr, o2), m.shift = second, m.offset = o2;
      }
    }
    m.rotation_rad = -m.shift * 2 * CV_PI / kAngles;
    m.fit = m.error / t.typical_error;
    all.push_back(m);
  };
  for (const auto& [d, tp] : near) compare(*tp);
  auto by_error = [](const TokenMatch& a, const TokenMatch& b) { return a.error < b.error; };
  std::sort(all.begin(), all.end(), by_error);
  if (with_other_side && !all.empty()) {
    const KindTemplate* best = Find(all.front().kind);
    const KindTemplate* other = best && best->other_side >= 0 ? &kinds_[best->other_side] : nullptr;
    if (other && std::none_of(near.begin(), near.end(), [&](const auto& n) { return n.second->kind == other->kind; })) {
      compare(*other);
      std::sort(all.begin(), all.end(), by_error);
    }
  }
  if (all.size() > 1) {
    for (size_t i = 0; i < all.size(); ++i) {
      const TokenMatch& other = all[i == 0 ? 1 : 0];
      all[i].runner_up = other.kind;
      all[i].runner_up_error = other.error;
    }
    // Sure when the next kind fits clearly worse and this one fits well in absolute terms.
    const double ratio = all[1].error / std::max(all[0].error, 1e-6);
    all[0].confidence = std::clamp((1.0 - 1.0 / ratio) * 1.25, 0.0, 1.0) * AbsoluteFit(all[0].error);
  } else if (!all.empty()) {
    all[0].confidence = AbsoluteFit(all[0].error);
  }
  if (static_cast<int>(all.size()) > top) all.resize(top);
  return all;
}

std::vector<TokenMatch> TokenModel::NamePatch(const EnrollPatch& patch, int top) const {
  const PolarSpec spec;
  const double f = kPpm / patch.px_per_mm;
  cv::Mat scaled;
  cv::resize(patch.bgr, scaled, cv::Size(), f, f, f < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
  const cv::Mat lab = MatchLab(scaled);
  const cv::Point2d c0 = patch.centre_px.x < 0 ? cv::Point2d((patch.bgr.cols - 1) / 2.0, (patch.bgr.rows - 1) / 2.0) : patch.centre_px;
  const cv::Point2d c((c0.x + 0.5) * f - 0.5, (c0.y + 0.5) * f - 0.5);
  std::vector<TokenMatch> best;
  PolarSamples s;
  for (int dy = -kCentreSteps; dy <= kCentreSteps; ++dy) {
    for (int dx = -kCentreSteps; dx <= kCentreSteps; ++dx) {
      SamplePolar(lab, c + cv::Point2d(dx, dy) * (kCentreStepMm * kPpm), spec, 0, &s);
      std::vector<TokenMatch> m = Rank(s, top);
      if (best.empty() || (!m.empty() && m[0].fit < best[0].fit)) best = std::move(m);
    }
  }
  return best;
}

double TokenModel::ErrorNear(const KindTemplate& t, const PolarSamples& samples, int shift_hint, const MatchContext& context) const {
  std::vector<float> capped;
  const std::vector<float>& mean = MeanFor(t, context, &capped);
  const LabOffset offset = FitOffset(samples, mean, t.weight, shift_hint, kCap, context.mask);
  double best = 1e300;
  for (int k = shift_hint - 1; k <= shift_hint + 1; ++k) best = std::min(best, RobustError(samples, mean, t.weight, k, kCap, context.mask, nullptr, offset));
  return best;
}

const std::vector<float>& TokenModel::MeanUnder(const KindTemplate& kind, const MatchContext& context, std::vector<float>* storage) const {
  return MeanFor(kind, context, storage);
}

double TokenModel::ErrorOf(const std::string& kind, const PolarSamples& samples, int shift, const MatchContext& context,
                           double* kept_share) const {
  const KindTemplate* t = Find(kind);
  if (!t) return 1e9;
  std::vector<float> capped;
  const std::vector<float>& mean = MeanFor(*t, context, &capped);
  const LabOffset offset = FitOffset(samples, mean, t->weight, shift, kCap, context.mask);
  return RobustError(samples, mean, t->weight, shift, kCap, context.mask, kept_share, offset);
}

const KindTemplate* TokenModel::Find(const std::string& kind) const {
  for (const KindTemplate& t : kinds_)
    if (t.kind == kind) return &t;
  return nullptr;
}

std::vector<std::string> TokenModel::Kinds() const {
  std::vector<std::string> k;
  for (const KindTemplate& t : kinds_) k.push_back(t.kind);
  return k;
}

double TokenModel::max_size_mm() const {
  double m = 0;
  for (const KindTemplate& t : kinds_) m = std::max(m, t.size_mm);
  return m;
}

double TokenModel::Closeness(const std::string& a, const std::string& b) const {
  const KindTemplate* ta = Find(a);
  const KindTemplate* tb = Find(b);
  if (!ta || !tb || ta == tb) return std::numeric_limits<double>::infinity();
  // One template read as a photo of the other, at its best rotation and light offset; the error is not
  // symmetric (each weighs its own samples), so both ways round, the closer kept.
  auto error = [](const KindTemplate& seen, const KindTemplate& t) {
    const int k = ArgMin(RotationErrors(MakeSpectra(seen.mean), t.spectra));
    const LabOffset o = FitOffset(seen.mean, t.mean, t.weight, k, kCap);
    return RobustError(seen.mean, t.mean, t.weight, k, kCap, nullptr, nullptr, o);
  };
  return std::min(error(*ta, *tb), error(*tb, *ta)) / std::max(ta->typical_error, tb->typical_error);
}

std::vector<std::pair<std::string, std::string>> TokenModel::LookAlikes(double ratio) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < kinds_.size(); ++i)
    for (size_t j = i + 1; j < kinds_.size(); ++j)
      if (Closeness(kinds_[i].kind, kinds_[j].kind) < ratio)
        out.emplace_back(std::min(kinds_[i].kind, kinds_[j].kind), std::max(kinds_[i].kind, kinds_[j].kind));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace swref::calibration
