// `swref observe` and `swref dataset eval --setup`: the observer run over image files.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "datasets/eval.h"
#include "engine/result.h"
#include "vision/observer.h"

#include <opencv2/core.hpp>

namespace swref::core {

struct ObserveRequest {
  std::string setup;
  std::vector<std::string> images;
  std::string debug_dir;  // when set: DIR/<image stem>/<stage>.png
  bool incremental = false;  // the images are a fixed camera's frames in order: each names tokens again only where
                             // it changed since the last still one (vision::ObserverOptions::incremental)
};

// Observes each image in order and hands each observation to `emit` as soon as it is made (one JSON line each on
// the command line), with the observer's reason for a status other than ok (bad_image: what is wrong with the file;
// empty for ok). Errors only for an unusable setup; a bad image is an observation with status bad_image.
engine::Result<int> ObserveImages(const ObserveRequest& request,
                                  const std::function<void(const vision::Observation&, const std::string& reason)>& emit);

// Runs the observer over a dataset folder (its truth.jsonl lists the images) and scores it.
engine::Result<datasets::EvalReport> EvaluateWithObserver(const std::string& setup, const std::string& dataset_dir,
                                                          const std::string& observations_out,
                                                          const std::function<void(int, int)>& progress);

// The observer's accuracy suite: for each map, a synthetic dataset (`scenes` photos from seed + map's index; tilt
// up to 10 degrees, lamp and daylight, glare, overlaps, stacks, 10 % arms), its table set up and its tokens
// enrolled from its own material as a user would, and the observer run over it. Made in `dir` (kept: the datasets,
// setups and observations), or reused when `dir` already holds a suite of the same scenes and seed.
struct SuiteOptions {
  std::string dir;
  std::vector<std::string> maps = {"2p", "3p", "4p", "5p"};
  int scenes = 80;  // per map
  uint64_t seed = 1;
  cv::Size frame{1920, 1080};
  std::string Check() const;
};
struct SuiteReport {
  std::vector<std::pair<std::string, datasets::EvalReport>> maps;
  datasets::EvalReport all;
};
// progress(map, stage, done, total)
engine::Result<SuiteReport> RunVisionSuite(const SuiteOptions& options,
                                           const std::function<void(const std::string&, const std::string&, int, int)>& progress = nullptr);

}  // namespace swref::core
