// The entries of a game record's journal (docs/record.md, "The journal"): their kinds, the fields each kind's
// `data` must hold, and the canonical form that is hashed.
//
// An entry is {"seq", "kind", "time", "data", "prev", "hash"}. Its hash is the SHA-256 (lowercase hex) of its
// canonical form: the entry object without `hash`, serialised by nlohmann::json's dump() with no indentation
// (members sorted by key in byte order, no whitespace, strings in UTF-8 with only `"`, `\` and control
// characters escaped, numbers in their shortest form that reads back the same). The first entry's `prev` is the
// hash of the record's header: the document without `actions`, `journal` and `head`, in the same canonical form.
// Python gives the same bytes with json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/json_input.h"

namespace swref::core {

enum class EntryKind {
  kStart,        // the session began: who, where, what software
  kObservation,  // a still board committed: the image/frame, SHA-256 of its Observation JSON, the regions that changed
  kAction,       // a committed game action and its verdict; `index` is its position in the record's `actions`
  kFlag,         // an illegal conquest: the attempted action, its region, code and sentence
  kResolution,   // how a flag ended: taken back, or accepted as a house ruling (the action follows)
  kQuestion,     // an uncertain reading put to the players
  kAnswer,       // the players' answer to a question (confirmed or corrected)
  kEvent,        // an off-board fact told by the players: pick, die, decline, ally, end_turn...
  kCoins,        // a turn's tally: the scoring player's breakdown and every player's coins after it
  kCorrection,   // a correction of an earlier entry, with its reason
  kUndo,         // the last committed action taken out of `actions`, with its reason
  kEnd,          // the session closed: the game finished, or was stopped
};
inline constexpr int kEntryKindCount = 12;

std::string_view ToString(EntryKind kind);  // "start", "observation", ...
std::optional<EntryKind> EntryKindFromString(std::string_view name);

// Documented limits (docs/record.md, "Limits"); a record beyond them is refused when written and when read.
struct JournalLimits {
  size_t max_entries = 20000;                  // journal entries (a 5-player game refereed by camera: ~2,000)
  size_t max_record_bytes = engine::kMaxRecordFileBytes;  // the whole file, 8 MiB as for `swref play` (a 500-action game: ~0.5 MiB)
  size_t max_entry_bytes = 16u << 10;          // one entry's canonical form, 16 KiB
  std::string Check() const;                   // "" or the first problem (a zero limit)
};

// The outcomes of a resolution (`data.outcome`).
inline constexpr const char* kTakenBack = "taken_back";
inline constexpr const char* kHouseRuling = "house_ruling";

// SHA-256 hex of the canonical form of `value` (nlohmann::json's dump(); sorted keys). Throws nlohmann's
// type_error for a string that is not valid UTF-8 (the journal's own entries always are).
std::string CanonicalHash(const nlohmann::json& value);

// The hash an entry must carry: CanonicalHash of the entry without its `hash` member.
std::string EntryHash(const nlohmann::json& entry);

// The header of a record document: every top-level member except `actions`, `journal` and `head`.
nlohmann::json RecordHeader(const nlohmann::json& document);

// "" when `data` holds what an entry of `kind` needs (docs/record.md), else the first problem, naming the place
// under `place` (e.g. "record.journal[5].data.reason: expected a string"). References between entries (a
// resolution's flag, an answer's question) are checked by the verifier, which sees the whole journal.
std::string CheckEntryData(EntryKind kind, const nlohmann::json& data, const std::string& place);

// True for a 64-character lowercase hex string.
bool IsSha256Hex(const nlohmann::json& value);

// The current time, UTC, ISO-8601 with milliseconds: "2025-03-14T09:26:53.589Z".
std::string UtcNow();

}  // namespace swref::core
