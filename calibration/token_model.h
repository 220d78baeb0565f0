// The token model made at enrollment (`swref enroll`, SETUP/tokens/model.json, format swref-tokens/2) and used
// by the observer to name every token it sees, with its rotation and how sure it is.
//
// Each kind gets a template: the token's colours (CIELab) on polar rings around its centre (polar.h), in one
// orientation, averaged over its enrollment photos after turning each onto the others (the rotation search of
// polar.h, then a small search of the centre), with a weight per sample: 1 / (noise^2 + the photos' variance
// there), and 0 outside the token's footprint. The footprint, the token's outline in that orientation, is
// where the photos agree with each other and differ from what lies around the token (the board under it changes
// from photo to photo; on the mat, the plain paper).
//
// A photo of a token (an "enrollment patch") is any BGR image with the token near its centre and its scale
// known: the mat reader gives cells at 6 px/mm; a crop folder's images follow the crop convention (the token
// centred and spanning 2/3 of the crop's side), their scale taken from the board's scale in the setup's reference
// photo (the crops come from the table camera).
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/polar.h"
#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kTokenModelFormat = "swref-tokens/2";
inline constexpr size_t kMaxKinds = 256;                 // kinds in a model (the game has 36)
inline constexpr size_t kMaxCrops = 10000;               // crops in a crop folder (a good enrollment: ~10 a kind)
inline constexpr int kMaxCropSide = 1024;                // px, either side of a crop
inline constexpr size_t kMaxCropPixels = 128000000;      // all crops of a folder together (384 MB decoded)

struct KindTemplate {
  std::string kind;
  double size_mm = 25;                 // the footprint's larger extent
  std::vector<float> mean;             // kPolarSize samples, Lab
  std::vector<float> weight;           // kPolarSize, 1 / Lab^2; 0 outside the footprint
  cv::Mat footprint;                   // CV_8U at kMatchPxPerMm, square, odd side, the centre at the centre pixel
  int photos = 0;
  double typical_error = 1;            // median robust error of its own photos, each left out of the template
  TemplateSpectra spectra;             // derived from mean and weight (not stored)
  std::vector<float> mean_bgr;         // derived: `mean` as BGR 0..255 (for the camera's saturation, below)
  std::vector<float> mean_linear;      // derived: `mean_bgr` in linear light (SrgbToLinear of it / 255)
  cv::Vec3f max_bgr{0, 0, 0};          // derived: its brightest value per channel (nothing to cap below it)
  // derived: its samples at every kRingStride-th angle, brightest channel first, each with what capping it needs
  // side by side: for its ring means under a ceiling (TokenModel::Rank's shortlist)
  static constexpr int kRingStride = 4;
  struct RingSample {
    float brightest;  // its brightest channel (BGR 0..255)
    int ring;
    float bgr[3], linear[3], mean[3], weight[3];  // per channel, as in mean_bgr, mean_linear, mean and weight
  };
  std::vector<RingSample> ring_samples;
  std::vector<float> row_weight;       // derived: per polar row (channel x ring), the sum of its weights
  std::vector<float> row_mean;         // derived: ... and its weighted mean
  int other_side = -1;                 // derived: the index of the same race's other side ("x" / "x_decline"), or -1
};

// What a candidate is judged with, besides its samples.
// Templates capped under one ceiling, kept while a candidate is named (capping converts colours: not cheap).
struct CappedTemplates {
  cv::Vec3f ceiling{-1, -1, -1};
  std::map<const KindTemplate*, std::vector<float>> capped;  // kinds that reach the ceiling
  std::map<const KindTemplate*, bool> checked;
  std::map<const KindTemplate*, std::array<float, kPolarRows>> ring_means;  // their KindTemplate::row_mean capped
};

struct MatchContext {
  const std::vector<uint8_t>* mask = nullptr;  // kRings * kAngles: samples to ignore (hidden by another token)
  // The brightest value the camera could record there, per channel (B, G, R), in the light-matched image's units:
  // 255 / the light's gain. Where a frame is brighter than the reference, a white symbol saturates below 255 once
  // matched; the templates are capped the same way before they are compared. 255: no cap.
  cv::Vec3f ceiling{255, 255, 255};
  CappedTemplates* cache = nullptr;  // optional: capped templates made once for this ceiling
};

// How one candidate was named.
struct TokenMatch {
  std::string kind;
  double rotation_rad = 0;             // the token seen is the template turned by this (towards +y)
  int shift = 0;                       // the rotation as a template shift (polar.h)
  LabOffset offset = kNoOffset;        // the light offset that fits best (polar.h)
  double error = 0;                    // robust error at that rotation and offset, Lab^2 (weighted mean)
  double fit = 0;                      // error / the kind's typical error: ~1 for a clean view of that kind
  std::string runner_up;               // the next kind
  double runner_up_error = 0;
  double confidence = 0;               // 0..1: how much better than the next kind, and how well in absolute terms
};

struct KindQuality {
  std::string kind;
  int samples = 0;                     // photos
  int compared = 0;                    // photos that could be left out: those of a kind with photos of another shot
  double loo_accuracy = 0;             // share of the compared photos named right by a model made without them;
                                       // 1 when none could be compared (one photo: its quality is not measured)
  std::string most_confused_with;
  double off_centre_mm = 0;            // > 0: the middle of the outline its photos agree on lies this far (more than
                                       // 4 mm) from their centre, and the photos were not moved there: the outline
                                       // missed part of the token (a washed-out or cluttered photo), or the crops are
                                       // not cut around the token. Its template may be poor: check its photos.
  double outline_from_other_side = 0;  // > 0: the outline its photos agree on measured this share of its other
                                       // side's (across, under 0.65 or over 1 / 0.65), the farther of the two from the
                                       // median race token: it hardly differs from the ground it was photographed on,
                                       // or the ground around it was taken in. A disc of the other side's area
                                       // stands in. Check its photos.
};

struct EnrollPatch {
  std::string kind;
  cv::Mat bgr;                         // the photo of the token (CV_8UC3)
  double px_per_mm = 0;                // its scale
  cv::Point2d centre_px{-1, -1};       // the token's centre; (-1, -1): the image's centre
  int group = -1;                      // photos of one physical shot share a group (left out together)
  std::string where;                   // names it in errors ("crops/hero/00003.png")
};

class TokenModel {
 public:
  // Builds every kind's template from its patches. Errors name the patch or kind.
  static engine::Result<TokenModel> Build(const std::vector<EnrollPatch>& patches);

  // The best kinds for a candidate's samples, best first (at most `top`), each at its best rotation and light
  // offset, errors capped at kCap per sample. Only the `shortlist` kinds nearest in ring colours (rotation does
  // not change a ring's mean colour) are compared in full. `with_other_side`: the best kind's other side (a race's
  // active or decline side: the same symbol on another ground) is compared in full too when the shortlist left it
  // out, so that the confidence says how far the side is known. A light that washes a token's colour out moves its
  // ring colours nearer the other side's: on the accuracy suite, a purple sorcerers token in a lamp's light was
  // nearer six grey decline sides than its own, and was named the decline side with confidence 0.89.
  std::vector<TokenMatch> Rank(const PolarSamples& samples, int top = 3, const MatchContext& context = {}, int shortlist = 12,
                               bool with_other_side = false) const;
  // One kind's error with the rotation known to within a shift (the best of shift_hint - 1 .. + 1).
  double ErrorNear(const KindTemplate& kind, const PolarSamples& samples, int shift_hint, const MatchContext& context) const;
  // The template a candidate is compared with under `context`'s ceiling (the kind's own mean when nothing is
  // capped); `storage` holds a capped copy.
  const std::vector<float>& MeanUnder(const KindTemplate& kind, const MatchContext& context, std::vector<float>* storage) const;
  // Names a photo of a single token (an enrollment patch: its scale and rough centre known), its centre searched
  // within 1.5 mm first. For checking enrollment photos and another table's crops.
  std::vector<TokenMatch> NamePatch(const EnrollPatch& patch, int top = 3) const;
  // One kind at one rotation shift (for refining a candidate's centre).
  double ErrorOf(const std::string& kind, const PolarSamples& samples, int shift, const MatchContext& context = {},
                 double* kept_share = nullptr) const;

  const std::vector<KindTemplate>& kinds() const { return kinds_; }
  const KindTemplate* Find(const std::string& kind) const;
  std::vector<std::string> Kinds() const;
  double max_size_mm() const;

  // Leave-one-out over the enrollment photos (kept from Build; empty after FromJson).
  const std::vector<KindQuality>& quality() const { return quality_; }
  // How close two kinds' templates come: the error of one read as a photo of the other at the best rotation and
  // light offset (the closer way round), over the larger typical error of the two. Infinity for an unknown kind.
  double Closeness(const std::string& a, const std::string& b) const;
  // Pairs of kinds (each in name order, sorted) closer than `ratio`: their templates come close at some rotation
  // and light offset, compared with how much their own photos vary. Measured on a generated table, 8 crops a
  // kind (TokenModel.WarnsAboutLookAlikeKinds): one design enrolled under two names (4 crops each) 4.1, a design
  // and a copy in a bluer light 3.9 (the former ratio, 4, missed the first); the closest distinct kinds, two grey
  // decline sides, 7.7, then 8.8 and more. With 5 crops a kind on another table, a race and its own decline
  // side (skeletons) came to 4.8 and is named: a warning to look at, not an error. On the mat (one photo of each
  // race side: the typical error a guess) the measure does not separate: distinct decline sides 4.4 and more,
  // one design photographed in both photos under two names 2.9 to 8.9 (two generated tables).
  std::vector<std::pair<std::string, std::string>> LookAlikes(double ratio = 6.0) const;

  nlohmann::json ToJson() const;
  static engine::Result<TokenModel> FromJson(const nlohmann::json& doc, const std::string& where);

  static constexpr double kCap = 900;         // Lab^2: a sample 30 units off (another token's colour, glare) costs no more
  static constexpr double kGoodError = 40;    // Lab^2 (about 6 units RMS): a clean view of the right kind
  static constexpr double kMaxError = 140;    // Lab^2 (about 12 units RMS): no view of that kind fits this badly

 private:
  void Derive();                       // spectra and BGR of every template
  static void DeriveOne(KindTemplate& t);
  std::vector<KindTemplate> kinds_;
  std::vector<KindQuality> quality_;
};

// An 8-bit BGR image as the matcher wants it: Lab float (L 0..100, a and b about -128..127), smoothed by
// kMatchBlurPx. Frames and enrollment photos both go through it, so that their polar samples compare alike.
// (`blur_px`: another smoothing, for an image at another scale.)
cv::Mat MatchLab(const cv::Mat& bgr, double blur_px = kMatchBlurPx);

// An sRGB channel value (0..1) in linear light, as OpenCV's Lab conversion decodes it.
inline float SrgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

// The token patches of a crop folder `dir/<kind>/*.png|jpg`, scaled by `board_px_per_mm` (the board's scale in
// the table camera's reference photo). `known_kinds` (if not empty) lists the kinds a folder may be named after.
engine::Result<std::vector<EnrollPatch>> ReadCropFolder(const std::string& dir, const std::vector<std::string>& known_kinds,
                                                        double board_px_per_mm);

}  // namespace swref::calibration
