// What the token model's two files share (token_model.cpp builds the templates from the enrollment photos,
// token_match.cpp names a candidate with them): not part of the calibration library's interface.
#pragma once

#include <algorithm>
#include <array>

#include "calibration/token_model.h"

namespace swref::calibration::token_model_internal {

inline constexpr double kPpm = kMatchPxPerMm;
inline constexpr double kCentreStepMm = 0.5;  // the centre search's grid step ...
inline constexpr int kCentreSteps = 3;        // ... and reach: +-1.5 mm

// 1 for an error a clean view gives (a few Lab units RMS), falling to 0 at kMaxError.
inline double AbsoluteFit(double error) { return std::clamp((TokenModel::kMaxError - error) / (TokenModel::kMaxError - TokenModel::kGoodError), 0.0, 1.0); }

inline int ArgMin(const std::array<float, kAngles>& e) { return static_cast<int>(std::min_element(e.begin(), e.end()) - e.begin()); }

}  // namespace swref::calibration::token_model_internal
