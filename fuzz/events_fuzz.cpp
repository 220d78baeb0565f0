// The players' events file (app/core/table_events.h), as `swref referee --events` reads it: an accepted file's
// events are in order, each correction names a region and checks against a region of any race, and every event's
// body parses again as the same event.
#include <cstdlib>

#include "app/core/table_events.h"
#include "engine/observed.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto path = fuzz::ScratchDir() / "events.jsonl";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto events = core::ReadEventsFile(path.string());
  if (!events.ok()) return 0;
  int64_t last = -1;
  for (const core::TableEvent& e : *events) {
    if (e.after_frame < last) std::abort();  // the order the referee relies on
    last = e.after_frame;
    nlohmann::json again = e.body;
    again["after_frame"] = e.after_frame;
    auto reparsed = core::ParseTableEvent(again, "again");
    if (!reparsed.ok() || reparsed->type != e.type || reparsed->corrections.size() != e.corrections.size()) std::abort();
    for (const nlohmann::json& c : e.corrections) {
      engine::ObservedRegion any;
      any.race = engine::Race::kTrolls;
      nlohmann::json fields = c;
      fields.erase("region");
      for (const char* k : {"do", "player", "regions"}) fields.erase(k);
      if (!engine::CorrectRegion(any, fields, "c").ok()) std::abort();
    }
  }
  return 0;
}
