#include "calibration/appearance.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace {

constexpr int kPatch = 72;          // the patch is resampled to this many pixels a side
constexpr int kRings = 8;           // rings of the symbol descriptor
constexpr int kAngles = 64;         // samples around each ring
constexpr int kHarmonics = 8;       // angular harmonics kept per ring (1..8; 0 is the ring's mean)
constexpr int kAbBins = 4;          // a*b* histogram bins per axis
constexpr int kLBins = 6;           // histogram of contrast-stretched L*

// Group weights: each group of features should weigh about the same in a distance, whatever its length.
// The descriptor's feature groups in order (size, share of the distance): Lab mean and spread, a*b* histogram,
// chroma quantiles, L* histogram, symbol harmonics.
constexpr std::pair<size_t, double> kFeatureGroups[] = {
    {6, 0.27}, {kAbBins * kAbBins, 0.18}, {3, 0.27}, {kLBins, 0.10}, {kRings * kHarmonics, 0.18}};
constexpr size_t kDescriptorSize = 6 + kAbBins * kAbBins + 3 + kLBins + kRings * kHarmonics;
constexpr float kColourWeight = 2.0f, kHistWeight = 1.0f, kLWeight = 1.0f, kShapeWeight = 0.6f, kChromaWeight = 4.0f;

}  // namespace

std::vector<float> DescribeToken(const cv::Mat& patch_bgr) {
  cv::Mat patch;
  cv::resize(patch_bgr, patch, cv::Size(kPatch, kPatch), 0, 0, patch_bgr.cols > kPatch ? cv::INTER_AREA : cv::INTER_LINEAR);
  cv::Mat f;
  patch.convertTo(f, CV_32FC3, 1.0 / 255);
  cv::Mat lab;
  cv::cvtColor(f, lab, cv::COLOR_BGR2Lab);
  const cv::Point2f centre((kPatch - 1) / 2.0f, (kPatch - 1) / 2.0f);
  const float token_radius = kPatch / 3.0f;
  cv::Mat disc(kPatch, kPatch, CV_8U, cv::Scalar(0));
  cv::circle(disc, cv::Point(kPatch / 2, kPatch / 2), cvRound(token_radius * 0.85f), cv::Scalar(255), cv::FILLED);

  std::vector<float> d;
  d.reserve(6 + kAbBins * kAbBins + kLBins + kRings * kHarmonics);
  cv::Scalar mean, stddev;
  cv::meanStdDev(lab, mean, stddev, disc);
  for (double v : {mean[0] / 100, stddev[0] / 100, mean[1] / 50, mean[2] / 50, stddev[1] / 50, stddev[2] / 50}) {
    d.push_back(static_cast<float>(v) * kColourWeight);
  }

  // a*b* histogram and the histogram of L* stretched between its own extremes (symbol against background).
  std::vector<cv::Mat> ch;
  cv::split(lab, ch);
  double lmin, lmax;
  cv::minMaxLoc(ch[0], &lmin, &lmax, nullptr, nullptr, disc);
  std::vector<float> ab(kAbBins * kAbBins, 0), lh(kLBins, 0);
  int n = 0;
  for (int y = 0; y < kPatch; ++y) {
    for (int x = 0; x < kPatch; ++x) {
      if (!disc.at<uchar>(y, x)) continue;
      const float a = ch[1].at<float>(y, x), b = ch[2].at<float>(y, x), l = ch[0].at<float>(y, x);
      const int ia = std::clamp(static_cast<int>((a + 64) / 128 * kAbBins), 0, kAbBins - 1);
      const int ib = std::clamp(static_cast<int>((b + 64) / 128 * kAbBins), 0, kAbBins - 1);
      ab[ia * kAbBins + ib] += 1;
      const double t = lmax > lmin ? (l - lmin) / (lmax - lmin) : 0.5;
      lh[std::clamp(static_cast<int>(t * kLBins), 0, kLBins - 1)] += 1;
      ++n;
    }
  }
  for (float v : ab) d.push_back(v / std::max(n, 1) * kHistWeight);
  // Chroma: what tells a race's coloured side from its grey decline side, whatever the hue.
  std::vector<float> chroma;
  chroma.reserve(n);
  for (int y = 0; y < kPatch; ++y) {
    for (int x = 0; x < kPatch; ++x) {
      if (disc.at<uchar>(y, x)) chroma.push_back(std::hypot(ch[1].at<float>(y, x), ch[2].at<float>(y, x)));
    }
  }
  std::sort(chroma.begin(), chroma.end());
  for (double q : {0.5, 0.8, 0.95}) {
    const float v = chroma.empty() ? 0 : chroma[static_cast<size_t>(q * (chroma.size() - 1))];
    d.push_back(v / 50 * kChromaWeight);
  }
  for (float v : lh) d.push_back(v / std::max(n, 1) * kLWeight);

  // Symbol: rings of the grey image in polar form; |DFT| over the angle of each ring, harmonics 1..8, divided by
  // the patch's contrast so that brightness and exposure cancel.
  cv::Mat grey = ch[0];
  cv::Mat polar;
  cv::warpPolar(grey, polar, cv::Size(kRings * 4, kAngles), centre, token_radius * 0.95, static_cast<int>(cv::INTER_LINEAR) + static_cast<int>(cv::WARP_POLAR_LINEAR));
  const double contrast = std::max(1.0, stddev[0]);
  for (int r = 0; r < kRings; ++r) {
    cv::Mat ring;
    cv::reduce(polar.colRange(r * 4, r * 4 + 4), ring, 1, cv::REDUCE_AVG);  // kAngles x 1
    cv::Mat spectrum;
    cv::dft(ring.t(), spectrum, cv::DFT_COMPLEX_OUTPUT);
    for (int h = 1; h <= kHarmonics; ++h) {
      const cv::Vec2f c = spectrum.at<cv::Vec2f>(0, h);
      d.push_back(static_cast<float>(std::hypot(c[0], c[1]) / kAngles / contrast) * kShapeWeight);
    }
  }
  return d;
}

void AppearanceModel::Add(const std::string& kind, const std::vector<float>& descriptor, int group) {
  if (group < 0) group = next_group_;
  next_group_ = std::max(next_group_, group + 1);
  labels_.push_back(kind);
  samples_.push_back(descriptor);
  groups_.push_back(group);
}

void AppearanceModel::AddCrop(const std::string& kind, const cv::Mat& crop_bgr) {
  const int group = next_group_;
  Add(kind, DescribeToken(crop_bgr), group);
  for (const cv::Mat& v : LightVariants(crop_bgr)) Add(kind, DescribeToken(v), group);
}

std::vector<cv::Mat> LightVariants(const cv::Mat& crop_bgr) {
  // (exposure in EV, blue gain, red gain, blur sigma in px): the frame's light relative to the reference's.
  struct Light {
    double ev, blue, red, blur;
  };
  static constexpr Light kLights[] = {{0.5, 1.0, 1.0, 0}, {1.0, 1.0, 1.0, 0}, {0.8, 1.15, 0.85, 0}, {0.8, 0.85, 1.15, 0},
                                      {-1.0, 1.0, 1.0, 0}, {0.0, 1.0, 1.0, 1.2}};
  cv::Mat f;
  crop_bgr.convertTo(f, CV_32FC3);
  std::vector<cv::Mat> out;
  for (const Light& l : kLights) {
    const double g = std::pow(2.0, l.ev);
    const cv::Scalar gain(g * l.blue, g, g * l.red);
    cv::Mat seen;
    cv::multiply(f, gain, seen);
    seen.convertTo(seen, CV_8UC3);  // the camera's 8 bits: clipped highlights, coarse shadows
    cv::Mat back;
    seen.convertTo(back, CV_32FC3);
    cv::divide(back, gain, back);
    if (l.blur > 0) cv::GaussianBlur(back, back, cv::Size(), l.blur);
    cv::Mat v;
    back.convertTo(v, CV_8UC3);
    out.push_back(v);
  }
  return out;
}

void AppearanceModel::Finish() {
  if (samples_.empty()) return;
  const size_t dims = samples_[0].size();
  scale_.assign(dims, 1.0f);
  for (size_t j = 0; j < dims; ++j) {
    double sum = 0, sq = 0;
    for (const auto& s : samples_) sum += s[j], sq += static_cast<double>(s[j]) * s[j];
    const double m = sum / samples_.size();
    const double sd = std::sqrt(std::max(0.0, sq / samples_.size() - m * m));
    // Scaling by the spread over all kinds puts features on a par; a floor keeps near-constant ones from blowing up.
    scale_[j] = static_cast<float>(1.0 / std::max(sd, 0.02));
  }
  // Then each group of features gets its share of the distance, whatever its size: without this the 64 symbol
  // harmonics outvote the colour, and a race's two sides (one symbol, coloured or grey) look alike.
  if (dims == kDescriptorSize) {
    size_t j = 0;
    for (const auto& [count, share] : kFeatureGroups) {
      const float w = static_cast<float>(std::sqrt(share * kDescriptorSize / count));
      for (size_t e = j + count; j < e; ++j) scale_[j] *= w;
    }
  }
}

double AppearanceModel::Distance(const std::vector<float>& a, const std::vector<float>& b) const {
  double s = 0;
  const size_t n = std::min({a.size(), b.size(), scale_.size()});
  for (size_t j = 0; j < n; ++j) {
    const double t = (a[j] - b[j]) * scale_[j];
    s += t * t;
  }
  return std::sqrt(s / std::max<size_t>(n, 1));
}

Classification AppearanceModel::Vote(const std::vector<float>& d, int k, int skip_group) const {
  std::vector<std::pair<double, int>> near;
  near.reserve(samples_.size());
  for (size_t i = 0; i < samples_.size(); ++i) {
    if (groups_[i] != skip_group) near.emplace_back(Distance(d, samples_[i]), static_cast<int>(i));
  }
  Classification c;
  if (near.empty()) return c;
  const size_t kk = std::min<size_t>(std::max(k, 1), near.size());
  std::partial_sort(near.begin(), near.begin() + kk, near.end());
  std::map<std::string, double> votes;
  double total = 0;
  for (size_t i = 0; i < kk; ++i) {
    const double w = 1.0 / (near[i].first + 1e-3);
    votes[labels_[near[i].second]] += w;
    total += w;
  }
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& [kind, w] : votes) ranked.emplace_back(w, kind);
  std::sort(ranked.rbegin(), ranked.rend());
  c.kind = ranked[0].second;
  c.confidence = ranked[0].first / total;
  c.runner_up = ranked.size() > 1 ? ranked[1].second : "";
  for (size_t i = 0; i < kk; ++i) {
    if (labels_[near[i].second] == c.kind) {
      c.distance = near[i].first;
      break;
    }
  }
  return c;
}

Classification AppearanceModel::Classify(const std::vector<float>& descriptor, int k) const { return Vote(descriptor, k, -1); }

std::vector<KindQuality> AppearanceModel::LeaveOneOut(int k) const {
  std::map<std::string, KindQuality> q;
  std::map<std::string, std::map<std::string, int>> wrong;
  std::set<int> seen_groups;
  for (size_t i = 0; i < samples_.size(); ++i) {
    // One test per photo: its first sample, with every sample made from that photo left out.
    if (!seen_groups.insert(groups_[i]).second) continue;
    KindQuality& kq = q[labels_[i]];
    kq.kind = labels_[i];
    ++kq.samples;
    const Classification c = Vote(samples_[i], k, groups_[i]);
    if (c.kind == labels_[i]) kq.loo_accuracy += 1;
    else wrong[labels_[i]][c.kind]++;
  }
  std::vector<KindQuality> out;
  for (auto& [kind, kq] : q) {
    kq.loo_accuracy /= std::max(kq.samples, 1);
    int most = 0;
    for (const auto& [other, n] : wrong[kind]) {
      if (n > most) most = n, kq.most_confused_with = other;
    }
    out.push_back(kq);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> AppearanceModel::LookAlikes(double margin) const {
  // Photos, not their light variants: the first sample of each group.
  std::vector<size_t> photos;
  std::set<int> seen_groups;
  for (size_t i = 0; i < samples_.size(); ++i) {
    if (seen_groups.insert(groups_[i]).second) photos.push_back(i);
  }
  // The typical distance between two photos of one kind.
  std::vector<double> within;
  for (size_t a = 0; a < photos.size(); ++a) {
    for (size_t b = a + 1; b < photos.size(); ++b) {
      const size_t i = photos[a], j = photos[b];
      if (labels_[i] == labels_[j]) within.push_back(Distance(samples_[i], samples_[j]));
    }
  }
  double typical = 1;
  if (!within.empty()) {
    std::nth_element(within.begin(), within.begin() + within.size() / 2, within.end());
    typical = within[within.size() / 2];
  }
  std::set<std::pair<std::string, std::string>> pairs;
  for (size_t a = 0; a < photos.size(); ++a) {
    for (size_t b = a + 1; b < photos.size(); ++b) {
      const size_t i = photos[a], j = photos[b];
      if (labels_[i] != labels_[j] && Distance(samples_[i], samples_[j]) < typical / margin) {
        pairs.insert(std::minmax(labels_[i], labels_[j]));
      }
    }
  }
  for (const KindQuality& kq : LeaveOneOut()) {
    if (!kq.most_confused_with.empty()) pairs.insert(std::minmax(kq.kind, kq.most_confused_with));
  }
  return {pairs.begin(), pairs.end()};
}

std::vector<std::string> AppearanceModel::Kinds() const {
  std::set<std::string> s(labels_.begin(), labels_.end());
  return {s.begin(), s.end()};
}

nlohmann::json AppearanceModel::ToJson() const {
  nlohmann::json doc;
  doc["format"] = kAppearanceFormat;
  doc["scale"] = scale_;
  doc["samples"] = nlohmann::json::array();
  for (size_t i = 0; i < samples_.size(); ++i) doc["samples"].push_back({{"kind", labels_[i]}, {"group", groups_[i]}, {"d", samples_[i]}});
  return doc;
}

engine::Result<AppearanceModel> AppearanceModel::FromJson(const nlohmann::json& doc, const std::string& where) {
  using R = engine::Result<AppearanceModel>;
  if (!doc.is_object() || doc.value("format", "") != kAppearanceFormat) {
    return R::Error(where + ".format: expected \"" + std::string(kAppearanceFormat) + "\"");
  }
  AppearanceModel m;
  try {
    m.scale_ = doc.at("scale").get<std::vector<float>>();
    const auto& samples = doc.at("samples");
    for (size_t i = 0; i < samples.size(); ++i) {
      auto d = samples[i].at("d").get<std::vector<float>>();
      if (d.size() != m.scale_.size()) {
        return R::Error(where + ".samples[" + std::to_string(i) + "].d: " + std::to_string(d.size()) + " features, expected " +
                        std::to_string(m.scale_.size()));
      }
      const int group = samples[i].value("group", -1);
      if (group < -1) return R::Error(where + ".samples[" + std::to_string(i) + "].group: expected a number >= 0");
      m.Add(samples[i].at("kind").get<std::string>(), d, group);
    }
  } catch (const nlohmann::json::exception& e) {
    return R::Error(where + ": " + e.what());
  }
  if (m.samples_.empty()) return R::Error(where + ".samples: the model has no samples");
  return m;
}

engine::Result<AppearanceModel> EnrollFromCrops(const std::string& dir, const std::vector<std::string>& known_kinds) {
  using R = engine::Result<AppearanceModel>;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return R::Error(dir + ": not a folder (expected DIR/<token kind>/*.png)");
  AppearanceModel model;
  std::vector<fs::path> kinds;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory()) kinds.push_back(e.path());
  }
  std::sort(kinds.begin(), kinds.end());
  for (const fs::path& k : kinds) {
    const std::string kind = k.filename().string();
    if (!known_kinds.empty() && std::find(known_kinds.begin(), known_kinds.end(), kind) == known_kinds.end()) {
      return R::Error(k.string() + ": \"" + kind + "\" is not a token kind (a race id, race_decline, lost_tribe or a piece id)");
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(k, ec)) {
      std::string ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
      if (e.is_regular_file() && (ext == ".png" || ext == ".jpg" || ext == ".jpeg")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) return R::Error(k.string() + ": no crops (.png or .jpg) of \"" + kind + "\"");
    for (const fs::path& f : files) {
      const cv::Mat img = cv::imread(f.string(), cv::IMREAD_COLOR);
      if (img.empty()) return R::Error(f.string() + ": cannot read the image");
      if (img.cols < 16 || img.rows < 16) return R::Error(f.string() + ": the crop is too small (" + std::to_string(img.cols) + "x" +
                                                          std::to_string(img.rows) + "; at least 16x16)");
      model.AddCrop(kind, img);
    }
  }
  if (model.size() == 0) return R::Error(dir + ": no kind folders (expected DIR/<token kind>/*.png)");
  model.Finish();
  return model;
}

}  // namespace swref::calibration
