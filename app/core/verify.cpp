#include "app/core/verify.h"

#include "app/core/journal_data.h"
#include "app/core/verify_chain.h"
#include "engine/json_input.h"

namespace swref::core {
namespace {

using nlohmann::json;
using Part = BadPlace::Part;

Verification Tampered(BadPlace bad, std::string problem) {
  Verification v;
  v.integrity = Integrity::kTampered;
  v.bad = bad;
  v.problem = std::move(problem);
  return v;
}

std::string Brief(const json& verdict) {
  std::string s = verdict.value("ok", false) ? "ok" : "rejected";
  if (verdict.contains("ruling")) s += " as a house ruling";
  if (verdict.contains("code")) s += " (" + verdict["code"].get<std::string>() + ")";
  return s;
}

// Step 5: the journal walked through the rules. Returns a problem (kTampered) or nothing, and the timeline.
std::optional<Verification> WalkJournal(const json& journal, const engine::Record& record, GameTimeline* timeline) {
  const bool solo = record.variant == "solo";
  for (int k = 0; k < static_cast<int>(journal.size()); ++k) {
    const EntryKind kind = *EntryKindFromString(journal[k]["kind"].get<std::string>());
    const json& data = journal[k]["data"];
    auto bad = [&](const std::string& text) { return Tampered({Part::kJournal, k}, JournalAt(k) + text); };
    if (kind == EntryKind::kAction || kind == EntryKind::kFlag) {
      auto action = engine::ParseAction(data["action"], record.players, JournalAt(k) + ".data.action", solo);
      if (!action) return Tampered({Part::kJournal, k}, action.error());
      if (kind == EntryKind::kFlag) {
        const TimelineStep step = timeline->Try(*action);
        if (step.verdict.ok() || engine::ToString(step.verdict.code) != data["code"].get<std::string>())
          return bad(": the flagged conquest (" + data["code"].get<std::string>() + ") is " + Brief(StepJson(step)) + " in the replay");
        continue;
      }
      const json replayed = StepJson(timeline->Apply(*action));
      if (!SameVerdict(replayed, data["verdict"]))
        return bad(": the recorded verdict (" + Brief(data["verdict"]) + ") differs from the replay's (" + Brief(replayed) + ")");
    } else if (kind == EntryKind::kUndo) {
      timeline->Undo();
    } else if (kind == EntryKind::kCoins) {
      const int64_t turn = data["turn"].get<int64_t>();
      const auto& scores = timeline->game().scores();
      if (turn < 0 || turn + 1 != static_cast<int64_t>(scores.size()))
        return bad(".data.turn: " + std::to_string(turn) + ", but the replay has ended " + std::to_string(scores.size()) + " turns here");
      if (CoinsData(timeline->game(), static_cast<int>(turn)) != data) return bad(": the coins recorded differ from the replay's");
    } else if (kind == EntryKind::kEnd) {
      const json replayed = EndData(timeline->game(), "");
      for (const char* key : {"reason", "coins", "winners", "solo"})
        if (replayed.contains(key) != data.contains(key) || (replayed.contains(key) && replayed[key] != data[key]))
          return bad(".data." + std::string(key) + ": " + data[key].dump() + ", the replay gives " + replayed[key].dump());
    }
  }
  return std::nullopt;
}

engine::Result<Verification> NoChain(const json& document, const std::filesystem::path& base_dir) {
  auto record = engine::ParseRecord(document);
  if (!record) return engine::Result<Verification>::Error(record.error());
  auto replay = engine::Replay(*record, base_dir);
  if (!replay) return engine::Result<Verification>::Error(replay.error());
  Verification v;
  v.integrity = Integrity::kNoChain;
  v.replay = std::move(*replay);
  return v;
}

}  // namespace

engine::Result<json> ReadRecordDocument(const std::filesystem::path& path, const JournalLimits& limits) {
  // The size before reading, the nesting before parsing (a hash or an error message walks a value recursively).
  return engine::ReadJsonFile(path, limits.max_record_bytes, "record");
}

engine::Result<Verification> VerifyRecordDocument(const json& document, const std::filesystem::path& base_dir, const JournalLimits& limits) {
  using R = engine::Result<Verification>;
  if (!document.is_object()) return R::Error("record: expected a JSON object");
  if (!document.contains("journal")) return NoChain(document, base_dir);
  if (document["journal"].is_array() && document["journal"].size() > limits.max_entries)
    return R::Error("record.journal: " + std::to_string(document["journal"].size()) + " entries, more than the limit of " +
                    std::to_string(limits.max_entries));
  // steps 1-3: the chain, the entries, the actions against the journal
  if (auto p = CheckChain(document); p.found()) return Tampered(p.bad, p.problem);
  std::vector<int> standing;
  const json& journal = document["journal"];
  if (auto p = CheckEntries(journal, &standing); p.found()) return Tampered(p.bad, p.problem);
  if (auto p = CheckActions(document, standing); p.found()) return Tampered(p.bad, p.problem);
  // step 4: the record itself
  auto record = engine::ParseRecord(document);
  if (!record) return R::Error(record.error());
  engine::Record header = *record;
  header.actions.clear();
  auto timeline = GameTimeline::Start(header, base_dir);
  if (!timeline) return R::Error(timeline.error());
  // step 5: the journal through the rules
  if (auto problem = WalkJournal(journal, *record, &*timeline)) return std::move(*problem);
  // step 6: the replay, as `swref play`
  auto replay = engine::Replay(*record, base_dir);
  if (!replay) return R::Error(replay.error());
  Verification v;
  v.integrity = Integrity::kVerified;
  v.entries = static_cast<int>(journal.size());
  v.head_hash = journal.back()["hash"].get<std::string>();
  v.replay = std::move(*replay);
  v.timeline = std::move(*timeline);
  return v;
}

engine::Result<Verification> VerifyRecordFile(const std::filesystem::path& path, const JournalLimits& limits) {
  auto doc = ReadRecordDocument(path, limits);
  if (!doc) return engine::Result<Verification>::Error(doc.error());
  auto v = VerifyRecordDocument(*doc, path.parent_path(), limits);
  if (!v) return engine::Result<Verification>::Error(path.string() + ": " + v.error());
  return v;
}

}  // namespace swref::core
