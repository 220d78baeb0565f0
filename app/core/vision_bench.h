// `swref bench vision`: the observer's speed on one core, on synthetic 1920x1080 photos of game states (a
// generated dataset: the table set up and the tokens enrolled from its own photos, as a user would).
//   - the per-frame path: the cheap check that the board has not moved (vision::Observer::PoseUnchanged) and the
//     stillness gate (vision::StillWindow), what every camera frame costs;
//   - a full observation of a stable frame (the pose known, as the referee observes a scene that just became
//     still), and of a frame whose board must be found first (registration included);
//   - a game's moves as the referee watches them (a random game on the map, photographed frame by frame): each scene
//     that has just become still after a move, observed incrementally (vision::ObserverOptions::incremental: tokens
//     named again only where the board changed) and, the same frame, in full;
//   - each as a ratio to a plain 1080p BGR -> Lab conversion (cv::cvtColor) timed in the same run, so that figures
//     from different machines compare;
//   - the peak memory of `swref observe` over the same photos: the child process's own high-water mark (VmHWM).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <opencv2/core.hpp>

#include "engine/result.h"
#include "vision/observer.h"

namespace swref::core {

struct VisionBenchOptions {
  std::string map = "2p";
  int frames = 30;  // photos timed (each observed cold, then warm)
  int moves = 60;   // a game's still scenes after a move timed (TimeMoves), at most
  uint64_t seed = 1;
  cv::Size frame{1920, 1080};
  std::string swref_exe;      // the swref executable for the peak-memory run ("" : not measured)
  std::string Check() const;  // "" or the first problem
};

struct VisionBenchReport {
  int frames = 0;
  double lab_ms = 0;        // median: cv::cvtColor BGR -> Lab of one frame (the yardstick)
  double per_frame_ms = 0;  // median: pose check + stillness gate
  double observe_ms = 0;    // median: full observation of a stable frame (pose known)
  double observe_p90_ms = 0;
  double cold_ms = 0;          // median: full observation with the board found anew
  int moves = 0;               // a game's still scenes after a move (TimeMoves), each observed ...
  int moves_in_full = 0;       // ... (of which every full_every-th in a row observed in full, as the referee does)
  int full_every = 0;          // vision::ObserverOptions::full_every
  double move_ms = 0;          // ... incrementally, as the referee does: median
  double move_p90_ms = 0;
  double move_full_ms = 0;     // ... and in full: median
  double move_changed_share = 0;  // median share of the board that changed (those observed incrementally)
  vision::StageTimes move_stages;  // medians of the incremental observations' stages (not those in full)
  vision::StageTimes stages;   // medians of the warm observations' stages
  double observe_peak_mb = 0;  // `swref observe` over the photos: peak resident memory (0: not measured)
  int observe_images = 0;      // ... over this many photos
};

using VisionBenchProgress = std::function<void(const std::string& stage, int done, int total)>;
engine::Result<VisionBenchReport> RunVisionBench(const VisionBenchOptions& options, const VisionBenchProgress& progress = nullptr);

}  // namespace swref::core
