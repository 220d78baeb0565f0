// The referee session's state as a resume point keeps it (resume_point.h, docs/referee.md "Crashes and
// resuming"): everything that decides a later verdict, so that frames re-judged after a resume give exactly the
// entries an uninterrupted run gives. Frames are kept by index (the still window's last frame, the frame the
// observer's pose was found in, those its still scene rests on) and read again on resume. When read back it is
// outside input: every field is checked against the game it resumes (regions, players, journal entries) and an error
// names the field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/journal_entry.h"
#include "app/core/table_events.h"
#include "calibration/board_setup.h"
#include "engine/explain.h"
#include "engine/observed.h"
#include "engine/record.h"
#include "engine/result.h"
#include "vision/observer.h"
#include "vision/still.h"

namespace swref::core {

// A region the players corrected: the camera's reading then, and theirs.
struct RegionCorrection {
  engine::ObservedRegion raw, corrected;
};

struct SessionState {
  int64_t last_frame = -1, frames_seen = 0, frames_observed = 0;
  size_t coins_told = 0;  // turn scores already told
  vision::StillWindow::Saved still;
  int still_state = 0;             // vision::StillWindow::State
  int64_t observed_frame = -1;     // the last frame observed
  int64_t still_frame = -1;        // the frame the still window compares the next one with (-1: none)
  int64_t pose_frame = -1;         // the frame the observer's held pose was found in (-1: none held)
  calibration::BoardPose pose;     // ... that pose
  std::vector<vision::PossibleStack> possible_stacks;  // ... and the observer's doubts under it (KeepStackDoubts)
  std::vector<int64_t> scene_frames;                   // ... and the frames its still scene rests on (incremental
                                                       // observation: since the last one observed in full)
  engine::ObservedBoard last_raw;  // the last reading before corrections (empty: none yet)
  std::string last_sha;            // ... its digest
  std::optional<engine::ObservedBoard> last_seen;
  engine::ObservedBoard committed_seen;
  std::map<int, RegionCorrection> corrections;  // by region
  int die = -1, die_player = -1, open_flag = -1, open_question = -1, flag_region = -1;
  int question_die = -1, question_die_player = -1;  // SoloPlay: the die the open question's readings roll
  std::string open_text;
  std::vector<TableEvent> deferred;      // told actions waiting for the board to be settled
  std::vector<engine::Reading> options;  // the open question's readings (actions and die_used are kept)
  std::vector<int> question_regions;     // the regions the open question names
};

// What a state must fit: the map's regions, the players, and the journal it resumes (its entries' kinds and the
// turns scored so far).
struct StateContext {
  int regions = 0;
  std::vector<std::string> players;
  bool solo = false;
  std::vector<EntryKind> kinds;
  size_t scores = 0;
};

nlohmann::json ToJson(const SessionState& state, const std::vector<std::string>& players);
engine::Result<SessionState> ParseSessionState(const nlohmann::json& doc, const StateContext& context, const std::string& where);

}  // namespace swref::core
