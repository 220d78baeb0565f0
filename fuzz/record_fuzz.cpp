// A game record (engine/record.h): read and parsed; an accepted record on a built-in map is replayed through the
// rules (every action checked and applied or rejected) and its `swref play` document made; the record is written
// back and must parse again.
#include <cstdlib>

#include "engine/builtin_maps.h"
#include "engine/record.h"
#include "engine/replay.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto path = fuzz::ScratchDir() / "record.json";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto record = engine::ReadRecordFile(path);
  if (!record.ok()) return 0;
  auto again = engine::ParseRecord(engine::ToJson(*record));
  if (!again.ok() || again->actions.size() != record->actions.size()) std::abort();  // what we write, we read
  if (engine::BuiltinMapText(record->map) == nullptr) return 0;  // never reads a file the input names
  auto replay = engine::Replay(*record, "");
  if (replay.ok()) {
    if (replay->steps.size() != record->actions.size()) std::abort();
    (void)engine::PlayDocument(*replay).dump();
  }
  return 0;
}
