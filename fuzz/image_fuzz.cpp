// The image decode path of the observer (vision/observer.h, Observer::ObserveFile): the file's bytes, the header's
// declared size checked against kMaxImageSide before decoding, cv::imdecode, the frame's validation, and then the
// whole observation (registration by the corner markers; on a frame where they are found: rectification,
// foreground, gate, instances, stacks, counting). The observer is set up once per process on a synthetic 2-player
// table photographed at 640x480 and a one-kind token model. The same bytes also go through the decode of
// reference photos and crops (IMREAD_COLOR).
#include <cstdlib>
#include <memory>

#include <opencv2/imgcodecs.hpp>

#include "calibration/image_io.h"
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
  auto colour = calibration::DecodeImage(bytes, cv::IMREAD_COLOR, "crop");
  if (colour.ok() && (colour->type() != CV_8UC3 || colour->cols > vision::kMaxImageSide || colour->rows > vision::kMaxImageSide)) std::abort();
  return 0;
}
