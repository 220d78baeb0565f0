// `swref observe` and `swref dataset eval --setup`: the observer run over image files.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "datasets/eval.h"
#include "engine/result.h"
#include "vision/observer.h"

namespace swref::core {

struct ObserveRequest {
  std::string setup;
  std::vector<std::string> images;
  std::string debug_dir;             // when set: DIR/<image stem>/<stage>.png
};

// Observes each image in order and hands each observation to `emit` as soon as it is made (one JSON line each on
// the command line). Errors only for an unusable setup; a bad image is an observation with status bad_image.
engine::Result<int> ObserveImages(const ObserveRequest& request, const std::function<void(const vision::Observation&)>& emit);

// Runs the observer over a dataset folder (its truth.jsonl lists the images) and scores it.
engine::Result<datasets::EvalReport> EvaluateWithObserver(const std::string& setup, const std::string& dataset_dir,
                                                          const std::string& observations_out,
                                                          const std::function<void(int, int)>& progress);

}  // namespace swref::core
