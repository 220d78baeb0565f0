// `swref verify RECORD` (docs/record.md, "swref verify"): proves that a journaled record is what the referee
// wrote, and replays it.
//
// In order, stopping at the first problem:
//   1. the hash chain: every entry's hash matches its content, the first entry's prev is the hash of the
//      record's header, every other prev the hash of the entry before it, and `head` names the last entry;
//   2. every entry's kind and fields, and the references between entries (a resolution's flag, an answer's
//      question, an undo's action);
//   3. record.actions equals the action entries still standing (those not undone), in order;
//   4. the record parses (docs/record.md);
//   5. the journal walked through the rules: every action's recorded verdict (ok, ruling, code), every flag
//      still rejected, every turn's coins and the end's scores are what the replay gives;
//   6. the replay of record.actions, as `swref play` does it.
// A record without a journal skips 1-3 and 5: it replays, but nothing proves it was not edited.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/core/game_timeline.h"
#include "app/core/journal_entry.h"
#include "engine/replay.h"
#include "engine/result.h"

namespace swref::core {

enum class Integrity {
  kVerified,   // chain intact, actions and replay consistent with the journal
  kNoChain,    // a record without a journal: replayed, integrity not provable
  kTampered,   // edited, deleted, inserted or reordered, or inconsistent: `problem` says where
};

// Where the first problem is.
struct BadPlace {
  enum class Part { kNone, kHeader, kJournal, kHead, kActions };
  Part part = Part::kNone;
  int index = -1;   // kJournal: position in record.journal (for a deletion at the end: where the entry is missing);
                    // kActions: position in record.actions
  bool operator==(const BadPlace& o) const { return part == o.part && index == o.index; }
};

struct Verification {
  Integrity integrity = Integrity::kNoChain;
  std::string problem;                          // kTampered: one line, e.g. "record.journal[17]: hash does not match its content (edited)"
  BadPlace bad;
  int entries = 0;                              // journal entries
  std::string head_hash;                        // the last entry's hash (kVerified)
  std::optional<engine::ReplayResult> replay;   // kVerified, kNoChain: the replay of record.actions (as `swref play`)
  std::optional<GameTimeline> timeline;         // kVerified: the journal walked (the game a resumed session continues)
};

// The record file as JSON: an error naming the file when it cannot be read, is larger than
// `limits.max_record_bytes` (checked before reading), nests deeper than engine::kMaxJsonDepth, or is not JSON.
engine::Result<nlohmann::json> ReadRecordDocument(const std::filesystem::path& path, const JournalLimits& limits = {});

// Verifies a record document (maps relative to base_dir). An error (not a Verification) when it is not a
// readable record: not an object, malformed where no journal covers it, a game that cannot start, or beyond
// the limits.
engine::Result<Verification> VerifyRecordDocument(const nlohmann::json& document, const std::filesystem::path& base_dir,
                                                  const JournalLimits& limits = {});

// The file: ReadRecordDocument then VerifyRecordDocument; errors are prefixed with the path, `problem` is not
// (it starts with "record.").
engine::Result<Verification> VerifyRecordFile(const std::filesystem::path& path, const JournalLimits& limits = {});

}  // namespace swref::core
