// Scoring an observer against a dataset's truth (`swref dataset eval`): per image, every region's observation is
// compared with the truth. A region is right when its race, side, token count, pieces and lost tribe all match;
// where the truth says a stack hides the count, an observation that says "uncertain" with a lower bound no higher
// than the truth is right, and one that claims a certain, wrong count is a *silent wrong count* (the worst error
// a referee can make: it would judge a conquest on a number it should have asked about).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/result.h"
#include "vision/observation.h"
#include "vision/observer.h"

namespace swref::datasets {

// Token by token, where the dataset lists every image's tokens (frames.jsonl "tokens") and the observer's
// instances are at hand (`swref dataset eval --setup`). A true token is found by the nearest instance within 6 mm.
struct TokenScore {
  int tokens = 0;                 // true tokens (a stack counts once: it shows one face)
  int found = 0;                  // ... found by an instance
  int kind_right = 0;             // ... found and named right
  int extra = 0;                  // instances that match no true token
  int stacks = 0;                 // true stacks (2 or more)
  int stacks_flagged = 0;         // ... flagged as possible stacks
  int singles = 0;                // true single race tokens found
  int singles_flagged = 0;        // ... flagged as possible stacks
  std::map<std::string, std::map<std::string, int>> confusion;  // truth kind -> observed kind ("missed")
  double kind_accuracy() const { return tokens ? static_cast<double>(kind_right) / tokens : 0; }
};
struct TruthToken {
  std::string kind;
  cv::Point2d centre_mm;
  int stack = 1;
};
// The tokens of one line of frames.jsonl (empty when it lists none).
std::vector<TruthToken> TruthTokens(const nlohmann::json& frame_line);
void ScoreTokens(const std::vector<TruthToken>& truth, const std::vector<vision::Instance>& seen, TokenScore* score);

struct EvalReport {
  int images = 0;                 // images scored (truth status ok and observed)
  int motion_images = 0;          // truth status motion
  int motion_detected = 0;        // ... that the observer reported as motion
  int false_motion = 0;           // still images reported as motion (not scored further)
  int no_board = 0;               // still images where the observer did not find the board
  int regions = 0;                // regions scored
  int region_errors = 0;          // regions not right
  int uncertain = 0;              // regions observed with a confidence below vision::kUncertainBelow (a question)
  int silent_errors = 0;          // regions not right and not flagged uncertain: what a referee would get wrong
  int boards_exact = 0;           // images with every region right
  int count_errors = 0;           // right kind, wrong count
  int stacks = 0;                 // regions whose truth is uncertain
  int silent_wrong_stacks = 0;    // ... observed as certain with a wrong count
  int missing = 0;                // truth images with no observation
  // confusion[truth kind][observed kind] over regions; kinds: race ids, race_decline, "empty".
  std::map<std::string, std::map<std::string, int>> confusion;
  std::vector<double> ms;         // per observed image, when the observation has "ms"
  TokenScore token;               // token by token (when known; token.tokens == 0 otherwise)
  double region_error_rate() const { return regions ? static_cast<double>(region_errors) / regions : 0; }
  double silent_error_rate() const { return regions ? static_cast<double>(silent_errors) / regions : 0; }
  double uncertain_rate() const { return regions ? static_cast<double>(uncertain) / regions : 0; }
  double exact_rate() const { return images ? static_cast<double>(boards_exact) / images : 0; }
  double median_ms() const;
};

// Adds `from`'s counts to `into` (several datasets scored as one).
void Merge(EvalReport* into, const EvalReport& from);

// Whether an observed region is right for its truth (see above).
bool RegionRight(const vision::RegionObservation& truth, const vision::RegionObservation& observed);

// Scores `observed` against `truth`, matched by image name.
EvalReport Evaluate(const std::vector<vision::Observation>& truth, const std::vector<vision::Observation>& observed);

// Reads a JSON-lines file of observations; errors name the file and line.
engine::Result<std::vector<vision::Observation>> ReadObservations(const std::string& path);

// The report as text: rates, stacks, motion, ms, and the confusion table (rows truth, columns observed).
std::string FormatReport(const EvalReport& report);

}  // namespace swref::datasets
