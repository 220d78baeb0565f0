// A journaled game record as `swref verify`, `swref report` and `swref referee --resume` read it
// (app/core/verify.h, journal.h): read (size, then nesting), the hash chain, the entries, the actions against the
// journal, the journal walked through the rules and the replay. A verified record must open for appending and for
// re-judging from its start entry, with the entries verify counted.
#include <cstdlib>

#include "app/core/journal.h"
#include "app/core/verify.h"
#include "engine/builtin_maps.h"
#include "engine/json_input.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  // Only built-in maps: a record may name a map file, and the fuzzer must not read files the input names.
  auto doc = engine::ParseJsonText(fuzz::Text(data, size), "record");
  if (!doc.ok() || !doc->is_object() || !doc->contains("map") || !(*doc)["map"].is_string()) return 0;
  if (engine::BuiltinMapText((*doc)["map"].get<std::string>()) == nullptr) return 0;
  const auto path = fuzz::ScratchDir() / "record.json";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto verified = core::VerifyRecordFile(path);
  if (!verified.ok() || verified->integrity != core::Integrity::kVerified) return 0;
  auto opened = core::Journal::Open(path);
  if (!opened.ok() || opened->size() != verified->entries) std::abort();  // what verify accepts, a resume accepts
  auto rejudged = core::Journal::OpenToRejudge(path, 1, "");
  if (!rejudged.ok() || rejudged->recorded() != verified->entries) std::abort();
  return 0;
}
