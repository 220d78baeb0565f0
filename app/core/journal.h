// The referee's game record on disk, written as the game goes (docs/record.md, "The journal"). The file is
// always a valid `smallworld-record/1` document that `swref play` replays: `actions` holds the committed game
// actions (house rulings included), and a `journal` array holds one hash-chained entry per committed event
// (journal_entry.h), closed by `head` ({"entries", "hash"}: the count and the last entry's hash).
//
// Durability: every Append* returns only once the whole new document is on the disk (FileReplacer: temporary
// file, fsync, rename, fsync of the folder), so a crash loses nothing that was acknowledged and the file is
// always either the old or the new complete document. An append that writes several entries (an action and the
// turn's coins) writes them together or not at all.
//
// Failures: when a write fails (disk full, read-only folder) the append returns an error naming the file, the
// journal's state stays exactly what is on disk (the failed entries are dropped, the game is as before), and
// every further append is refused with that error until Retry() has written the document again. Nothing already
// recorded is lost. One exception: when only the final flush of the folder fails, the new document is already in
// place, so the entries are kept (size() shows them) and the error says so. Limits (JournalLimits) are checked
// before writing, with an error naming the limit.
//
// Not thread-safe: one session owns a journal.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/durable_write.h"
#include "app/core/game_timeline.h"
#include "app/core/journal_entry.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::core {


struct JournalOptions {
  JournalLimits limits;
  engine::FileReplacer write = engine::ReplaceFileDurably;     // how the document is put on disk
  std::function<std::string()> clock = UtcNow;  // each entry's `time` (UTC ISO-8601)
};

// What a committed action became.
struct Commit {
  int seq = -1;               // the action entry (-1: none was written)
  TimelineStep step;          // the verdict, and whether it stands as a house ruling
};

// A still board the referee committed: what the `observation` entry records (the observation itself is not
// stored, only its hash).
struct ObservationDigest {
  std::string image;          // the image's name ("" when from a camera)
  int64_t frame = -1;         // the frame index (-1 when unknown)
  std::string sha256;         // ObservationSha256 of the Observation JSON
  std::vector<int> changed;   // regions that differ from the last committed board
};
// The SHA-256 of an Observation JSON document in canonical form (journal_entry.h).
std::string ObservationSha256(const nlohmann::json& observation);

class Journal {
 public:
  // A new record at `path` (which must not exist) for the game `header` describes (map, players, variant, seed,
  // stacks, solo options; its `actions` must be empty), with a `start` entry holding `start` (an object: who
  // referees, the setup, the camera...). The map is resolved relative to the record's folder.
  static engine::Result<Journal> Create(const std::filesystem::path& path, const engine::Record& header,
                                        const nlohmann::json& start = nlohmann::json::object(), JournalOptions options = {});
  // Resume: reads and verifies the record (verify.h: the whole hash chain, actions against the journal, the
  // replay against the recorded verdicts and coins) and continues from its last entry. A record without a
  // journal, or one that fails verification, is an error naming the file and the first bad entry.
  static engine::Result<Journal> Open(const std::filesystem::path& path, JournalOptions options = {});
  // Resume by re-judging (docs/referee.md, "Crashes and resuming"): the record, verified whole, as it stood after
  // its first `keep` entries (at least 1: the start entry), the last of which must have the hash `keep_hash`
  // ("": not checked). The entries after them are expected again: while they last, an append that gives the next
  // one exactly (kind, data and chain; the time is the record's) is taken from the record, not written; an append
  // that differs is refused (failure() says where, and nothing is ever written over the record). Appends after
  // the last recorded entry are written as usual. Both also remove temporary files a crashed write left behind.
  static engine::Result<Journal> OpenToRejudge(const std::filesystem::path& path, int keep, const std::string& keep_hash,
                                               JournalOptions options = {});

  // The entry kinds without a game effect: observation, question, answer, event, correction. `data` is checked
  // as verify checks it (CheckEntryData; an answer's question, a correction's entry must
  // exist). The kinds that change the game or close the record have their own calls and are refused here.
  engine::Result<int> Append(EntryKind kind, nlohmann::json data);

  // Applies `action` through the rules (`house_ruling` as engine::Replay does) and records it with its verdict,
  // whatever the verdict (a rejected action is recorded as `swref play` shows it; the referee flags illegal
  // conquests with AppendFlag instead). An accepted end of turn also writes the turn's `coins` entry, and the
  // action that ends the game the `end` entry, in the same write.
  engine::Result<Commit> AppendAction(const engine::Action& action);
  engine::Result<int> AppendObservation(const ObservationDigest& digest);
  // An illegal conquest seen on the table; refused when the rules accept it. Returns the flag's seq.
  engine::Result<int> AppendFlag(const engine::Action& attempt);
  // How the flag `flag_seq` ended. Taken back: nothing changes (the Commit has seq -1). House ruling: the flagged
  // conquest is committed with `"ruling": "house"` in the same write; refused when it cannot stand as one
  // (docs/record.md).
  engine::Result<Commit> AppendResolution(int flag_seq, bool house_ruling, const std::string& note);
  engine::Result<int> AppendQuestion(const std::string& text, const nlohmann::json& options);
  engine::Result<int> AppendAnswer(int question_seq, const nlohmann::json& answer, bool corrected);
  // An off-board event as told (`{"player", "do", ...}`, the events.jsonl form).
  engine::Result<int> AppendEvent(const nlohmann::json& event);
  engine::Result<int> AppendCorrection(int entry_seq, const std::string& reason, const nlohmann::json& value = nullptr);
  // Takes the last committed action out of `actions` (its entry stays in the journal).
  engine::Result<Commit> AppendUndo(const std::string& reason);
  // Takes the last `undo` actions out (an `undo` entry each, with `reason`) and makes `redo` (their action entries,
  // the coins of each turn they end), all in one write: on a failed write nothing changes (hidden_arrangement.h).
  // The seq of the first entry written.
  engine::Result<int> AppendAmendment(int undo, const std::vector<engine::Action>& redo, const std::string& reason);
  // Closes an unfinished game ("stopped"); afterwards every append is refused.
  engine::Result<int> AppendEnd(const std::string& note);

  // After a failed write: writes the document as it is in memory (= the last complete one on disk). "" when it
  // is on disk again and appends are accepted; else the error.
  std::string Retry();

  const std::filesystem::path& path() const { return path_; }
  const engine::Game& game() const { return timeline_.game(); }
  const std::vector<engine::Action>& actions() const { return timeline_.actions(); }
  const GameTimeline& timeline() const { return timeline_; }
  const std::vector<std::string>& players() const { return header_record_.players; }
  int size() const { return static_cast<int>(entries_.size()); }
  EntryKind kind(int seq) const { return entries_[seq].kind; }
  const std::string& head_hash() const { return entries_.back().hash; }
  bool closed() const { return !entries_.empty() && entries_.back().kind == EntryKind::kEnd; }
  const std::string& failure() const { return failure_; }               // "" unless a write failed and Retry has not succeeded
  std::vector<int> OpenFlags() const;                                   // flags not resolved yet, by seq
  const engine::Action* FlagAttempt(int seq) const;                      // the attempt flag `seq` holds, or null
  // The frame of the last still board committed (its `observation` entry), -1 when no entry names one: where a
  // resumed session's video or image folder goes on.
  int64_t LastObservedFrame() const;
  size_t document_bytes() const { return document_bytes_; }             // size of the record on disk
  bool replaying() const { return expected_next_ < expected_.size(); }  // OpenToRejudge: recorded entries still expected
  int recorded() const { return recorded_; }                            // entries in the file when it was opened

 private:
  struct Line {
    EntryKind kind;
    std::string text;   // the entry as written in the file (one line)
    std::string hash;
  };
  struct Pending {
    EntryKind kind;
    nlohmann::json data;
  };
  struct Expected {
    Line line;
    std::string time;
  };

  Journal(std::filesystem::path path, engine::Record header, GameTimeline timeline, JournalOptions options);
  // A verified journaled document (Open's work once the file is read).
  static engine::Result<Journal> FromDocument(const std::filesystem::path& path, const nlohmann::json& doc, JournalOptions options);
  // Re-judging: "" when `lines` are the next expected entries (or come after them all), else why not.
  std::string Differs(const std::vector<Line>& lines, const std::vector<Pending>& pending) const;
  engine::Result<int> Write(std::vector<Pending> pending);  // seq of the first new entry
  engine::Result<Commit> CommitAction(std::vector<Pending> before, const engine::Action& action);
  // Applies a recorded action to the game and appends its entries (the action, the coins of a turn it ends, the end
  // of a game it finishes) to `pending`, not yet written.
  TimelineStep ApplyInto(const engine::Action& parsed, const nlohmann::json& form, std::vector<Pending>* pending);
  std::string CanAppend() const;
  // The whole document: the header, the first `keep_actions` actions + `extra_actions`, the entries + `extra`.
  std::string Render(const std::vector<Line>& extra, size_t keep_actions, const std::vector<std::string>& extra_actions) const;
  static Line MakeLine(int seq, EntryKind kind, const std::string& time, nlohmann::json data, const std::string& prev);
  // The action in its record form, read back as `swref play` reads it; an error when the two differ.
  engine::Result<engine::Action> RecordForm(const engine::Action& action, nlohmann::json* form) const;
  engine::Result<int> Refuse(const std::string& why) const { return engine::Result<int>::Error(path_.string() + ": " + why); }

  std::filesystem::path path_;
  engine::Record header_record_;
  std::string header_text_;                  // the header members, rendered once
  std::string header_hash_;
  JournalOptions options_;
  GameTimeline timeline_;
  std::vector<Line> entries_;
  std::vector<std::string> action_lines_;    // record.actions as written
  std::vector<int> action_seqs_;             // the action entry of each kept action
  std::map<int, engine::Action> flags_;      // flag seq -> attempted conquest
  std::set<int> resolved_, questions_;
  std::string failure_;
  size_t document_bytes_ = 0;
  std::vector<Expected> expected_;  // re-judging: the recorded entries not yet given again, in order
  size_t expected_next_ = 0;        // ... the next one
  int recorded_ = 0;
};

}  // namespace swref::core
