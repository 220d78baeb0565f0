// The synthetic world, as the CLI and the GUI offer it: datasets of photographed game states, the demo game as
// camera frames, the printable token set, and the scene benchmark (`swref dataset`, `swref print tokens`,
// `swref bench scene`).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "datasets/dataset.h"
#include "datasets/game_frames.h"
#include "datasets/token_pdf.h"
#include "engine/result.h"

namespace swref::core {

using ProgressFn = std::function<void(int done, int total)>;

engine::Result<datasets::DatasetSummary> GenerateDataset(const datasets::DatasetOptions& options, const ProgressFn& progress);

// The built-in demo game (core::RunDemo: a complete 2-player game with two illegal conquests) as camera frames.
engine::Result<datasets::GameFramesSummary> GenerateDemoFrames(uint64_t seed, const datasets::GameFramesOptions& options,
                                                               const ProgressFn& progress);

// Any game record, standard or SoloPlay (`swref dataset demo --record`), as camera frames. The record's map is a
// built-in key or a map file relative to the record's folder. Actions the rules reject must be conquests (or a
// SoloPlay redeployment or erosion): the table photographs them as made and taken back.
engine::Result<datasets::GameFramesSummary> GenerateRecordFrames(const std::string& record_path, const datasets::GameFramesOptions& options,
                                                                 const ProgressFn& progress);

engine::Result<int> PrintTokens(const std::string& path, const datasets::TokenSheetOptions& options);

struct SceneBenchOptions {
  std::string map = "2p";
  int scenes = 40;
  uint64_t seed = 1;
  int width = 1920, height = 1080;
  std::string Check() const;
};

struct SceneBenchReport {
  int scenes = 0;
  double median_ms = 0, p90_ms = 0;             // one scene: place + compose + photograph + JPEG encode
  double place_ms = 0, compose_ms = 0, camera_ms = 0, encode_ms = 0;  // medians of the parts
  double table_ms = 0;                           // making the table once (layout, board art, table)
  double peak_rss_mb = 0;
  std::string signature;                         // SHA-256 prefix over the truth of every scene (deterministic)
};

// Times scene generation on one thread (cv::setNumThreads(1)).
engine::Result<SceneBenchReport> RunSceneBench(const SceneBenchOptions& options, const ProgressFn& progress);

}  // namespace swref::core
