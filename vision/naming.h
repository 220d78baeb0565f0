// Naming one seed (instances.cpp's step 2): the token model ranks every kind at a few starts, the kinds that come
// close have their centre refined, a poor fit is named again on a grid, and the winner is named once more at its
// centre against the others, for the confidence. All within one token's local view (local_light.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calibration/token_model.h"
#include "vision/observer.h"

namespace swref::vision {

// A seed named (Name): where its local view was made, the centre where its best kind fits best, and each kind
// refined with its error at its own centre.
struct Naming {
  cv::Point2d seed;
  cv::Point2d centre;
  double best = 1e300;
  std::string kind;
  std::vector<std::pair<double, std::string>> refined;
  bool regridded = false;
};

struct Candidate {
  cv::Point2d centre_px;
  calibration::TokenMatch match;
  calibration::PolarSamples samples;  // at centre_px
  std::vector<uint8_t> mask;        // samples hidden by taken tokens (empty: none)
  double visible = 1;
  float outline_votes = 0;          // > 0: seeded by its outline (OutlineSeeds), which may show no foreground
  Naming naming;                    // how it was named (Fit)
  cv::Vec3f clip{255, 255, 255};    // the brightest reference value the camera could record there (LocalView::clip)
  cv::Vec3f gain{1, 1, 1};          // the light there (LocalView::gain)
};

// Names a seed: the kinds that fit it best there each get their centre refined, and the best after that wins.
// `spread_mm` > 0: the seed is only known to within that (an outline seed); Starts::kCross: the best of five starts
// (the seed and `spread_mm` to each side), stopping at the first that fits well; Starts::kRing: the best of nine,
// the seed and eight around it at `spread_mm`, every one ranked. `explained` (optional): pixels hidden under taken
// tokens, whose samples are not looked at.
enum class Starts { kCross, kRing };
Naming Name(const calibration::TokenModel& model, const LocalView& view, cv::Point2d seed, const cv::Mat& explained, double spread_mm,
            Starts starts = Starts::kCross);
// A poor fit (kRegridFit times its kind's typical error): the seed may lie too far off the token's centre.
bool Poor(const calibration::TokenModel& model, const Naming& n);
// The kinds named again on a grid around the winner's centre (naming.cpp says when one takes the token).
void Regrid(const calibration::TokenModel& model, const LocalView& view, const cv::Mat& explained, Naming* n);
// The candidate a naming gives: named once more at its centre, its confidence bounded by the other kinds' fits at
// their own centres.
Candidate Finish(const calibration::TokenModel& model, const LocalView& view, const cv::Mat& explained, Naming n);

// The empty board's samples at a candidate, as the camera would have recorded it there. Under strong glare the
// frame is clipped (Candidate::clip), and the board would be clipped with it: a patch of saturated white fits a
// template capped the same way (calibration::MatchContext::ceiling) far better than the board left bright. On the
// three accuracy suites: region errors 40, 48 and 48 -> 36, 41 and 43 (16 glare phantoms of sorcerers, heroes and
// fortresses gone), wrong and not flagged 1, 0 and 0 as before, regions flagged 527, 423 and 432 -> 528, 419 and 423.
void BoardSamples(const cv::Mat& reference_bgr, const cv::Mat& reference_lab, const Candidate& c, calibration::PolarSamples* out);
// The least error of the candidate's samples against the empty board under more glare (instances.cpp
// kGlareNearMm): the reference with the glare's colour added at a few strengths (in the reference's light: over the
// gain), clipped as the camera.
double WashedBoardError(const cv::Mat& reference_bgr, const Candidate& c, cv::Vec3f glare_colour, const std::vector<float>& weight);

}  // namespace swref::vision
