// A recorded game as camera frames: what a table camera would have seen while the game was played, with the
// off-board events the players tell the referee, and the truth of every frame. This is the input of the built-in
// demo (`swref dataset demo` writes it; the referee reads it) and a way to turn any game record into a video test.
//
// For every action that changes the board: one or two frames with an arm over the board (the move being made;
// truth status "motion"), then two still frames of the new board. A conquest the rules reject is still
// photographed as the player made it (the region taken with the tokens the player put down), followed by the
// player taking it back after the referee's flag: the board returns to where it was. Picks, die rolls,
// declines, alliances and ends of turn are events. Once in the game the board is bumped: every later frame sees it
// shifted and turned a little. Folder format: docs/datasets.md.
#pragma once

#include <cstdint>
#include <string>

#include <opencv2/core.hpp>

#include "datasets/dataset.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::datasets {

struct GameFramesOptions {
  std::string out;                    // folder to write (created; must be empty or absent)
  cv::Size frame{1920, 1080};
  uint64_t seed = 1;                  // table art, camera, hands
  int crops_per_kind = 4;             // enrollment crops in the setup material
  int bump_at_step = -1;              // the record step after which the board is bumped; -1: halfway
};

struct GameFramesSummary {
  int frames = 0;
  int motion_frames = 0;
  int events = 0;
  int flagged = 0;                    // rejected actions photographed and taken back
  double median_frame_ms = 0;
};

engine::Result<GameFramesSummary> WriteGameFrames(const engine::Record& record, const GameFramesOptions& options,
                                                  const ProgressFn& progress = nullptr);

}  // namespace swref::datasets
