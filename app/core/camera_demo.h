// `swref demo`: the built-in demo, through the whole pipeline. The scripted game (demo.h: a seeded 2-player game
// with two illegal conquests slipped in) is photographed by the synthetic table camera (datasets/game_frames.h:
// hands over the board, a bump, the attempts put down and taken back), the table is set up and the tokens
// enrolled from the camera's own photos (as a user would, calibration/ and setup.h), and the referee session
// watches the frames and hears the players' events (referee_session.h). The players at this table answer the
// referee's questions from what really lies on the board (the frames' truth), as people would; the report counts
// them. The refereed coins, flags and final scores are compared with the script's own.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "app/core/demo.h"
#include "app/core/demo_table.h"
#include "app/core/referee_run.h"
#include "engine/result.h"

namespace swref::core {

struct CameraDemoOptions {
  uint64_t seed = 7;                 // the game and the table
  std::string work_dir;              // where the frames, the setup and the record go; empty: a temporary folder,
                                     // removed afterwards
  std::string record_out;            // the referee's record (journaled); empty: inside work_dir
  cv::Size frame{1920, 1080};
  bool incremental = true;           // RefereeOptions::incremental (false: every still scene observed in full)
  std::function<void(const Notice&)> on_notice;  // every notice of the session as it comes (`swref demo --verbose`)
};

struct CameraDemoReport {
  DemoReport script;                 // the game as scripted (the rules engine alone)
  std::vector<DemoTurn> turns;       // as refereed from the frames
  int turns_exact = 0;               // ... whose tally (regions, race, power) equals the script's
  std::vector<DemoFlag> flags;       // illegal conquests the referee flagged (and did not withdraw)
  int flags_withdrawn = 0;           // flags raised on a misreading, withdrawn when the players corrected it
  int flags_matched = 0;             // ... that are the script's (same turn, player and region)
  int flags_same_code = 0;           // ... with the script's rule too
  std::vector<std::pair<std::string, int>> final_coins;
  std::vector<std::string> winners;
  std::string solo_result;           // SoloPlay: the refereed game's score, the opposition's and the rating
  RefereeRunSummary run;
  int questions = 0;                 // questions the players answered (with a correction)
  int answered = 0;                  // regions they corrected in those answers
  int taken_back = 0;                // flagged conquests they said were taken back (the camera had not read it)
  std::vector<std::string> differences;  // against the script (empty: the referee agreed everywhere)
  std::string record;                // the refereed record's path (when kept)
};

engine::Result<CameraDemoReport> RunCameraDemo(const CameraDemoOptions& options, const DemoProgress& progress = nullptr);
// Any scripted game (ScriptReport: a record whose rejected conquests are the illegal attempts), photographed on a
// table of `options.seed` and refereed from its frames, against the script.
engine::Result<CameraDemoReport> RefereeScript(const DemoReport& script, const CameraDemoOptions& options, const DemoProgress& progress = nullptr);

}  // namespace swref::core
