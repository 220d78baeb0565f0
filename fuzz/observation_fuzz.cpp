// Observation lines (vision/observation.h ParseObservation, through datasets/eval.h ReadObservations: truth.jsonl
// and `swref dataset eval --observations`), and the same JSON as the engine's observed board
// (engine/observed.h ParseObservedBoard, on the 2-player map's 23 regions).
#include <cstdlib>

#include "datasets/eval.h"
#include "engine/json_input.h"
#include "engine/observed.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const std::string_view text = fuzz::Text(data, size);
  const auto path = fuzz::ScratchDir() / "observations.jsonl";
  fuzz::WriteFile(path, text);
  auto lines = datasets::ReadObservations(path.string());
  if (lines.ok()) {
    for (const vision::Observation& o : *lines) {
      auto again = vision::ParseObservation(nlohmann::json::parse(vision::ToJson(o).dump()), "again");
      if (!again.ok() || again->regions != o.regions) std::abort();  // what we write, we read
    }
    (void)datasets::Evaluate(*lines, *lines);
  }
  auto doc = engine::ParseJsonText(fuzz::SplitAt(text, "\n").first, "line");
  if (doc.ok()) {
    auto board = engine::ParseObservedBoard(*doc, 23, "observation");
    if (board.ok()) {
      auto again = engine::ParseObservedBoard(nlohmann::json::parse(engine::ToJson(*board).dump()), 23, "again");
      if (!again.ok()) std::abort();
    }
  }
  return 0;
}
