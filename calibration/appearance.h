// The token appearance model made at enrollment and used by the observer to name each token it sees.
//
// A token is described from a *token patch*: a square image centred on the token, the token spanning about 2/3 of
// its side (the convention of `swref dataset` crops and of the mat reader; the observer cuts the same from the
// rectified board). The descriptor does not depend on the token's rotation or on the patch's scale:
//   - colour: the mean and spread of CIELab inside the token's inner disc, and a coarse a*b* histogram there,
//     with L* normalised by the patch's own brightness so that a lamp's ±1 EV changes little;
//   - symbol: the magnitudes of the angular Fourier harmonics of the grey image on rings around the centre
//     (a polar transform turns a rotation into a circular shift, which leaves those magnitudes unchanged).
// The model keeps every enrolled descriptor (a few per kind) and names a new one by its nearest neighbours, after
// scaling each feature by its spread over the whole enrollment set.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kAppearanceFormat = "swref-tokens/1";

// The descriptor of one token patch (BGR, any size >= 16 px).
std::vector<float> DescribeToken(const cv::Mat& patch_bgr);

struct KindQuality {
  std::string kind;
  int samples = 0;
  double loo_accuracy = 0;               // leave-one-out: share of its samples named right by the others
  std::string most_confused_with;        // "" when none
};

struct Classification {
  std::string kind;
  double confidence = 0;                 // 0..1: share of the neighbours' weight that voted for `kind`
  std::string runner_up;
  double distance = 0;                   // to the nearest sample of `kind`, in scaled units
};

class AppearanceModel {
 public:
  // `group`: samples made from one photo share a group (the leave-one-out test leaves the whole group out);
  // -1 gives the sample a group of its own.
  void Add(const std::string& kind, const std::vector<float>& descriptor, int group = -1);
  // One enrollment crop and its light variants (AddLightVariants below), as one group.
  void AddCrop(const std::string& kind, const cv::Mat& crop_bgr);
  // Freezes the feature scaling; call after the last Add and before Classify.
  void Finish();

  Classification Classify(const std::vector<float>& descriptor, int k = 3) const;
  std::vector<KindQuality> LeaveOneOut(int k = 3) const;
  // Pairs of kinds that the leave-one-out test confused, or whose nearest samples are closer than `margin` times
  // the typical distance between samples of one kind: "look-alike" warnings for the user.
  std::vector<std::pair<std::string, std::string>> LookAlikes(double margin = 1.5) const;

  std::vector<std::string> Kinds() const;
  int size() const { return static_cast<int>(labels_.size()); }

  nlohmann::json ToJson() const;
  static engine::Result<AppearanceModel> FromJson(const nlohmann::json& doc, const std::string& where);

 private:
  double Distance(const std::vector<float>& a, const std::vector<float>& b) const;
  Classification Vote(const std::vector<float>& d, int k, int skip_group) const;
  std::vector<std::string> labels_;
  std::vector<int> groups_;
  int next_group_ = 0;
  std::vector<std::vector<float>> samples_;
  std::vector<float> scale_;             // per feature: 1 / spread over all samples
};

// The crop as a frame might show it after the observer matched the frame's light to the reference's: the same
// token photographed brighter (up to +1 EV, highlights clipped), darker (-1 EV, coarser levels) or under a
// warmer or cooler lamp, then brought back, plus softer focus. Enrollment adds these so that a clipped or
// noisy token is still nearer its own kind than a look-alike.
std::vector<cv::Mat> LightVariants(const cv::Mat& crop_bgr);

// Builds a model from a folder of crops `dir/<kind>/*.png|jpg`; `known_kinds` (if not empty) lists the kinds a
// folder may be named after. Errors name the folder or file.
engine::Result<AppearanceModel> EnrollFromCrops(const std::string& dir, const std::vector<std::string>& known_kinds);

}  // namespace swref::calibration
