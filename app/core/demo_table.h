// The demo's table, made ready to be refereed (`swref demo`, and the GUI's demo, which plays it frame by frame):
// a scripted game photographed by the synthetic table camera (datasets/game_frames.h), the board set up and the
// tokens enrolled from the camera's own photos (setup.h), the players' events and the truth of every frame. Also
// what the players at this table answer when the referee asks: the true reading of the regions read wrong.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "app/core/demo.h"
#include "app/core/referee_session.h"
#include "app/core/table_events.h"
#include "engine/result.h"
#include "vision/observation.h"

namespace swref::core {

// `stage` names the step ("frames", "setup", "referee"); progress(done, total) within it.
using DemoProgress = std::function<void(const std::string& stage, int64_t done, int64_t total)>;

struct DemoTable {
  std::filesystem::path dir;               // the work folder
  std::string setup;                       // dir/setup: the setup folder, enrolled
  std::string frames;                      // dir/table/frames: the camera's frames, in order
  std::vector<TableEvent> events;          // what the players tell (dir/table/events.jsonl)
  std::vector<vision::Observation> truth;  // what really lies on the board, by frame index

  // The players' answer to the session's open question after `frame`: one correction of every region the
  // session reads differently from the frame's truth, and of the regions the question names; none when no question
  // is open, or it reads every region right and names none.
  std::optional<TableEvent> Answer(const RefereeSession& session, int64_t frame) const;
};

// Photographs `script` (seed: the table, the camera and the hands) into `dir` (which must be absent or empty),
// sets the table up and enrolls the tokens. Errors name the step's file. `cancel` (optional, set from any thread):
// the preparation stops at its next frame or setup step with the error kDemoCancelled, and `dir` is removed.
inline constexpr const char* kDemoCancelled = "the demo table's preparation was cancelled";
engine::Result<DemoTable> PrepareDemoTable(const engine::Record& script, const std::filesystem::path& dir, uint64_t seed, cv::Size frame,
                                           const DemoProgress& progress = nullptr, const std::atomic<bool>* cancel = nullptr);
// A folder PrepareDemoTable made complete before (its last file written is dir/demo-ready.json); an error when
// it is not one, or was made for another seed or frame size.
engine::Result<DemoTable> OpenDemoTable(const std::filesystem::path& dir, uint64_t seed, cv::Size frame);

// The true reading of every region `seen` reads wrong (or reads as a possible stack), and of every region in
// `confirm` (those the referee's question names: read right, the players confirm them), as a correction's region
// list ([] when it reads every region right and there is nothing to confirm). `misread` (optional): how many of
// them `seen` reads wrong or as a possible stack (the others are only confirmed).
nlohmann::json TruthCorrections(const engine::ObservedBoard& seen, const engine::ObservedBoard& real, const std::vector<int>& confirm = {},
                                int* misread = nullptr);

}  // namespace swref::core
