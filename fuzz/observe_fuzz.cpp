// The whole observation of an image file (vision/observer.h, Observer::ObserveFile): read and decoded as the
// `image` target does, validated, then observed (registration by the corner markers; on a frame where they are
// found: rectification, foreground, gate, instances, stacks, counting). The observer is set up once per process
// on a synthetic 2-player table photographed at 640x480, with a one-kind token model. Slow (tens of inputs a
// second: a frame that registers takes ~0.5 s under the sanitizers), so it reaches far fewer inputs than the others.
#include <cstdlib>
#include <memory>

#include "datasets/camera.h"
#include "datasets/dataset.h"
#include "fuzz/fuzz_util.h"
#include "vision/observer.h"

namespace {

using namespace swref;

// One kind ("ratmen"): a flat grey template over a round footprint.
calibration::TokenModel OneKindModel() {
  nlohmann::json kind = {{"kind", "ratmen"}, {"size_mm", 25}, {"photos", 4}, {"typical_error", 20}};
  kind["mean"] = std::vector<float>(calibration::kPolarSize, 50.0f);
  kind["weight"] = std::vector<float>(calibration::kPolarSize, 0.01f);
  const int side = 51;
  std::string bits;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) bits += (x - 25) * (x - 25) + (y - 25) * (y - 25) <= 625 ? '1' : '0';
  kind["footprint"] = {{"side", side}, {"bits", bits}};
  const nlohmann::json doc = {{"format", calibration::kTokenModelFormat},
                              {"polar", {{"rings", calibration::kRings}, {"angles", calibration::kAngles}, {"px_per_mm", calibration::kMatchPxPerMm}}},
                              {"kinds", {kind}}};
  auto model = calibration::TokenModel::FromJson(doc, "model");
  if (!model.ok()) std::abort();
  return std::move(*model);
}

vision::Observer& TheObserver() {
  static std::unique_ptr<vision::Observer> observer = [] {
    auto table = datasets::MakeSyntheticTable({});
    if (!table.ok()) std::abort();
    const cv::Size2d board = (*table)->layout.board_mm;
    const cv::Mat reference = datasets::RenderFrame((*table)->empty, datasets::OverheadShot({640, 480}, board, 0.85));
    auto pose = calibration::RegisterByMarkers(reference, *(*table)->layout.markers, "reference");
    if (!pose.ok()) std::abort();
    calibration::BoardSetup setup;
    setup.map = "2p";
    setup.layout = (*table)->layout;
    setup.pose = *pose;
    setup.reference_size = reference.size();
    return std::make_unique<vision::Observer>(setup, (*table)->map, OneKindModel(), reference, vision::ObserverOptions{});
  }();
  return *observer;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  TheObserver();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = fuzz::Text(data, size);
  const auto path = fuzz::ScratchDir() / "frame.img";
  fuzz::WriteFile(path, bytes);
  vision::Observer& observer = TheObserver();
  const vision::Observation o = observer.ObserveFile(path.string(), "frame");
  if (o.regions.size() != 23 || (o.status != vision::Status::kOk && observer.last_reason().empty())) std::abort();
  return 0;
}
