// `swref referee` and `swref demo` (the camera demo): call app/core (referee_run.h, camera_demo.h) and print.
// The options themselves are parsed in commands.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "app/core/camera_demo.h"
#include "app/core/referee_bench.h"
#include "app/core/referee_session.h"

namespace swref::cli {

struct RefereeCommand {
  core::RefereeOptions options;
  std::string game;                   // the game's header (a record file), for a new record
  std::string camera, video, images;  // exactly one: where the frames come from
  std::string events;                 // the players' events (JSON lines), optional
  std::string truth;                  // a synthetic game's truth.jsonl: players who answer from it (truth_players.h)
  bool quiet = false;                 // only the flags, questions, coins and the end
};
// Exit codes: 0 the frames were refereed to their end (the record written), or a resumed record is closed
// already; 1 the session stopped (the record could not be written, or re-judging differs from it) or the setup
// failed; 2 bad options or input (named).
int RunReferee(const RefereeCommand& command);

// The camera demo. Exit codes: 0 refereed and equal to the script; 1 a difference or a failure.
int RunCameraDemo(core::CameraDemoOptions options, bool verbose);
// One notice of a refereed game, prefixed with its name.
void PrintRefereeNotice(const std::string& game, const core::Notice& n);
// `swref bench referee`.
int RunRefereeBench(const core::RefereeBenchOptions& options, bool json);

}  // namespace swref::cli
