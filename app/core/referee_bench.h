// `swref bench referee`: the referee measured end to end on seeded full games with illegal conquests of every kind
// slipped in (engine/inject.h), each photographed by the synthetic table camera (datasets/game_frames.h: hands,
// a bump, each attempt put down and taken back), the table set up and the tokens enrolled from the camera's own
// photos, and refereed from the frames (camera_demo.h: the players answer questions from what truly lies on the
// board). Against each game's script: flag precision and recall (by kind), exact coin tallies, questions, and the
// latency from a still frame to its verdict. SoloPlay games (engine::PlayInjectedSoloGame: illegal attacks, retreats,
// redeployments and erosions) are refereed the same way, their end scoring and rating included.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "app/core/referee_session.h"
#include "engine/inject.h"

namespace swref::core {

struct RefereeBenchOptions {
  int games = 20;                                        // injected games (game i: seed + i, map maps[i % size])
  int solo_games = 4;                                    // injected SoloPlay games, after them (the same seeds and maps)
  uint64_t seed = 1;
  std::vector<std::string> maps = {"2p", "3p", "4p", "5p"};
  cv::Size frame{1920, 1080};
  engine::InjectOptions inject;                          // how many illegal conquests of each kind
  bool demo = true;                                      // also the built-in demo game (seed 7), first
  bool incremental = true;                               // RefereeOptions::incremental (false: every scene in full)
  std::string keep_dir;                                  // keep each game's frames, setup and record in keep_dir/<game>
                                                         // ("solo-2p-seed-1"); empty: temporary folders
  std::function<void(const std::string& game, const Notice&)> on_notice;  // every notice (--verbose)
  std::string Check() const;                             // "" or the first problem
};

struct RefereeBenchGame {
  std::string name;                // "demo", "2p seed 3" or "solo 2p seed 1"
  bool solo = false;               // a SoloPlay game
  int frames = 0, observed = 0;
  int flags_expected = 0, flags_raised = 0, flags_matched = 0, flags_same_code = 0;
  int turns = 0, turns_exact = 0;
  int questions = 0, corrections = 0;
  int taken_back = 0;              // flags the players said were taken back (the alert's button; camera_demo.h)
  int flags_withdrawn = 0;         // flags raised on a misreading and withdrawn by the players' correction (not in
                                   // flags_raised)
  bool final_coins_equal = false;
  std::vector<std::string> differences;
  double seconds = 0;              // photographing, setup and refereeing
};

struct RefereeBenchReport {
  std::vector<RefereeBenchGame> games;
  std::array<int, engine::kIllegalKindCount> expected_by_kind{}, found_by_kind{};
  int flags_expected = 0, flags_raised = 0, flags_matched = 0, flags_same_code = 0;
  int turns = 0, turns_exact = 0, questions = 0, corrections = 0, frames = 0, taken_back = 0, flags_withdrawn = 0;
  double latency_median_ms = 0, latency_p90_ms = 0;   // a still frame to its verdict (commit, flag or question)
  int latency_samples = 0;
  double precision() const { return flags_raised ? static_cast<double>(flags_matched) / flags_raised : 1.0; }
  double recall() const { return flags_expected ? static_cast<double>(flags_matched) / flags_expected : 1.0; }
};

// progress(game, games, stage): which game and which step of it.
using RefereeBenchProgress = std::function<void(int game, int games, const std::string& stage, int64_t done, int64_t total)>;
engine::Result<RefereeBenchReport> RunRefereeBench(const RefereeBenchOptions& options, const RefereeBenchProgress& progress = nullptr);

}  // namespace swref::core
