#include "app/core/journal.h"

#include <algorithm>

#include "app/core/journal_data.h"
#include "app/core/verify.h"

namespace swref::core {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using engine::Result;

// The header members in the documented order, then any others (sorted), one per line.
std::string RenderHeader(const json& header) {
  static const char* kOrder[] = {"format", "map", "players", "variant", "seed", "races", "powers", "solo"};
  std::string text = "{";
  auto add = [&](const std::string& key, const json& value) { text += (text.size() > 1 ? ",\n " : "\n ") + json(key).dump() + ": " + value.dump(); };
  for (const char* key : kOrder)
    if (header.contains(key)) add(key, header[key]);
  for (auto it = header.begin(); it != header.end(); ++it)
    if (std::find(std::begin(kOrder), std::end(kOrder), it.key()) == std::end(kOrder)) add(it.key(), it.value());
  return text;
}

json HeaderJson(const engine::Record& record) {
  json header = engine::ToJson(record);
  header.erase("actions");
  return header;
}

}  // namespace

std::string ObservationSha256(const json& observation) { return CanonicalHash(observation); }

Journal::Journal(std::filesystem::path path, engine::Record header, GameTimeline timeline, JournalOptions options)
    : path_(std::move(path)), header_record_(std::move(header)), options_(std::move(options)), timeline_(std::move(timeline)) {
  const json header_json = HeaderJson(header_record_);
  header_text_ = RenderHeader(header_json);
  header_hash_ = CanonicalHash(header_json);
}

Result<Journal> Journal::Create(const std::filesystem::path& path, const engine::Record& header, const json& start, JournalOptions options) {
  using R = Result<Journal>;
  if (auto problem = options.limits.Check(); !problem.empty()) return R::Error("journal limits: " + problem);
  if (!header.actions.empty()) return R::Error(path.string() + ": a new record starts with no actions; the header has " + std::to_string(header.actions.size()));
  if (!start.is_object()) return R::Error(path.string() + ": the start entry's data must be an object");
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return R::Error(path.string() + ": already exists (resume it, or choose another file)");
  engine::Record clean = header;
  for (const char* part : {"journal", "head"}) clean.extra.erase(part);
  auto timeline = GameTimeline::Start(clean, path.parent_path());
  if (!timeline) return R::Error(path.string() + ": " + timeline.error());
  Journal journal(path, std::move(clean), std::move(*timeline), std::move(options));
  auto written = journal.Write({{EntryKind::kStart, start}});
  if (!written) return R::Error(written.error());
  return journal;
}

Result<Journal> Journal::Open(const std::filesystem::path& path, JournalOptions options) {
  using R = Result<Journal>;
  if (auto problem = options.limits.Check(); !problem.empty()) return R::Error("journal limits: " + problem);
  engine::RemoveStaleTemporaries(path);
  auto doc = ReadRecordDocument(path, options.limits);
  if (!doc) return R::Error(doc.error());
  return FromDocument(path, *doc, std::move(options));
}

Result<Journal> Journal::OpenToRejudge(const std::filesystem::path& path, int keep, const std::string& keep_hash, JournalOptions options) {
  using R = Result<Journal>;
  if (auto problem = options.limits.Check(); !problem.empty()) return R::Error("journal limits: " + problem);
  engine::RemoveStaleTemporaries(path);
  auto doc = ReadRecordDocument(path, options.limits);
  if (!doc) return R::Error(doc.error());
  auto whole = FromDocument(path, *doc, options);  // the whole record verified first
  if (!whole) return whole;
  const json& entries = (*doc)["journal"];
  const int n = static_cast<int>(entries.size());
  if (keep < 1 || keep > n)
    return R::Error(path.string() + ": cannot resume after entry " + std::to_string(keep) + ": the journal has " + std::to_string(n));
  if (!keep_hash.empty() && entries[keep - 1]["hash"] != keep_hash)
    return R::Error(path.string() + ": journal entry " + std::to_string(keep - 1) +
                    " is not the one the resume point names (its hash differs)");
  // The record as it stood after `keep` entries: its actions are the standing action entries among them.
  json prefix = *doc;
  prefix["journal"] = json::array();
  prefix["actions"] = json::array();
  for (int k = 0; k < keep; ++k) {
    const json& e = entries[k];
    prefix["journal"].push_back(e);
    if (e["kind"] == "action") prefix["actions"].push_back(e["data"]["action"]);
    if (e["kind"] == "undo") prefix["actions"].erase(prefix["actions"].size() - 1);
  }
  prefix["head"] = {{"entries", keep}, {"hash", entries[keep - 1]["hash"]}};
  auto journal = FromDocument(path, prefix, std::move(options));
  if (!journal) return journal;
  for (int k = keep; k < n; ++k) {
    const json& e = entries[k];
    const std::string time = e["time"].get<std::string>();
    journal->expected_.push_back(
        {MakeLine(k, *EntryKindFromString(e["kind"].get<std::string>()), time, e["data"], e["prev"].get<std::string>()), time});
  }
  journal->recorded_ = n;
  journal->document_bytes_ = whole->document_bytes_;
  return journal;
}

Result<Journal> Journal::FromDocument(const std::filesystem::path& path, const json& doc, JournalOptions options) {
  using R = Result<Journal>;
  auto verified = VerifyRecordDocument(doc, path.parent_path(), options.limits);
  if (!verified) return R::Error(path.string() + ": " + verified.error());
  if (verified->integrity == Integrity::kNoChain) return R::Error(path.string() + ": a record without a journal cannot be resumed");
  if (verified->integrity == Integrity::kTampered) return R::Error(path.string() + ": fails verification: " + verified->problem);
  auto record = engine::ParseRecord(doc);
  record->actions.clear();
  Journal journal(path, std::move(*record), std::move(*verified->timeline), std::move(options));
  journal.header_hash_ = CanonicalHash(RecordHeader(doc));  // the file's own header, as its chain starts from it
  journal.header_text_ = RenderHeader(RecordHeader(doc));
  for (const json& a : doc["actions"]) journal.action_lines_.push_back(a.dump());
  const json& entries = doc["journal"];
  for (int k = 0; k < static_cast<int>(entries.size()); ++k) {
    const json& e = entries[k];
    const EntryKind kind = *EntryKindFromString(e["kind"].get<std::string>());
    journal.entries_.push_back(journal.MakeLine(k, kind, e["time"].get<std::string>(), e["data"], e["prev"].get<std::string>()));
    const json& data = e["data"];
    if (kind == EntryKind::kAction) journal.action_seqs_.push_back(k);
    if (kind == EntryKind::kUndo) journal.action_seqs_.pop_back();
    if (kind == EntryKind::kFlag)
      journal.flags_[k] = *engine::ParseAction(data["action"], journal.players(), "", journal.header_record_.variant == "solo");
    if (kind == EntryKind::kResolution) journal.resolved_.insert(data["flag"].get<int>());
    if (kind == EntryKind::kQuestion) journal.questions_.insert(k);
    if (kind == EntryKind::kAnswer) journal.questions_.erase(data["question"].get<int>());
  }
  std::error_code ec;
  journal.document_bytes_ = std::filesystem::file_size(path, ec);
  journal.recorded_ = static_cast<int>(entries.size());
  return journal;
}

std::vector<int> Journal::OpenFlags() const {
  std::vector<int> open;
  for (const auto& [seq, action] : flags_)
    if (!resolved_.count(seq)) open.push_back(seq);
  return open;
}

const engine::Action* Journal::FlagAttempt(int seq) const {
  const auto it = flags_.find(seq);
  return it == flags_.end() ? nullptr : &it->second;
}

int64_t Journal::LastObservedFrame() const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (it->kind != EntryKind::kObservation) continue;
    const json entry = json::parse(it->text, nullptr, false);
    if (entry.is_object() && entry["data"].is_object() && entry["data"].contains("frame") && entry["data"]["frame"].is_number_integer())
      return entry["data"]["frame"].get<int64_t>();
  }
  return -1;
}

Journal::Line Journal::MakeLine(int seq, EntryKind kind, const std::string& time, json data, const std::string& prev) {
  json entry = {{"seq", seq}, {"kind", ToString(kind)}, {"time", time}, {"data", std::move(data)}, {"prev", prev}};
  Line line{kind, "", CanonicalHash(entry)};
  const ordered_json shown = {{"seq", seq}, {"kind", entry["kind"]}, {"time", entry["time"]}, {"data", entry["data"]}, {"prev", prev}, {"hash", line.hash}};
  line.text = shown.dump();
  return line;
}

std::string Journal::Render(const std::vector<Line>& extra, size_t keep_actions, const std::vector<std::string>& extra_actions) const {
  std::string text = header_text_;
  text += ",\n \"actions\": [";
  size_t i = 0;
  for (size_t a = 0; a < keep_actions; ++a) text += (i++ ? ",\n  " : "\n  ") + action_lines_[a];
  for (const std::string& a : extra_actions) text += (i++ ? ",\n  " : "\n  ") + a;
  text += "\n ],\n \"journal\": [";
  i = 0;
  for (const auto* list : {&entries_, &extra})
    for (const Line& e : *list) text += (i++ ? ",\n  " : "\n  ") + e.text;
  const std::string& last = extra.empty() ? entries_.back().hash : extra.back().hash;
  text += "\n ],\n \"head\": " + json{{"entries", i}, {"hash", last}}.dump() + "\n}\n";
  return text;
}

std::string Journal::CanAppend() const {
  if (!failure_.empty()) return "not writing after a failed write (" + failure_ + "); call Retry() once the cause is fixed";
  if (closed()) return "the record is closed (its end entry is written)";
  return "";
}

Result<int> Journal::Write(std::vector<Pending> pending) {
  using R = Result<int>;
  if (auto why = CanAppend(); !why.empty()) return Refuse(why);
  if (entries_.size() + pending.size() > options_.limits.max_entries)
    return Refuse("the journal would exceed its limit of " + std::to_string(options_.limits.max_entries) + " entries");
  std::vector<Line> lines;
  std::vector<std::string> new_actions;
  size_t keep = action_lines_.size();
  for (Pending& p : pending) {
    const int seq = static_cast<int>(entries_.size() + lines.size());
    if (p.kind == EntryKind::kAction) new_actions.push_back(p.data["action"].dump());
    if (p.kind == EntryKind::kUndo) new_actions.empty() ? void(--keep) : new_actions.pop_back();
    const size_t expected = expected_next_ + lines.size();  // re-judging: the recorded entry this one must equal
    const std::string time = expected < expected_.size() ? expected_[expected].time : options_.clock();
    lines.push_back(
        MakeLine(seq, p.kind, time, p.data, lines.empty() ? (entries_.empty() ? header_hash_ : entries_.back().hash) : lines.back().hash));
    if (lines.back().text.size() > options_.limits.max_entry_bytes)
      return Refuse("journal entry " + std::to_string(seq) + " (" + std::string(ToString(p.kind)) + ") would be " +
                    std::to_string(lines.back().text.size()) + " bytes, more than the limit of " +
                    std::to_string(options_.limits.max_entry_bytes));
  }
  if (replaying()) {
    if (std::string why = Differs(lines, pending); !why.empty()) {
      failure_ = path_.string() + ": " + why;
      return R::Error(failure_);
    }
  }
  if (expected_next_ + lines.size() <= expected_.size()) {  // all of them in the record already: nothing to write
    expected_next_ += lines.size();
    const int first = static_cast<int>(entries_.size());
    for (Line& l : lines) entries_.push_back(std::move(l));
    action_lines_.resize(keep);
    for (std::string& a : new_actions) action_lines_.push_back(std::move(a));
    return first;
  }
  const std::string text = Render(lines, keep, new_actions);
  if (text.size() > options_.limits.max_record_bytes)
    return Refuse("the record would be " + std::to_string(text.size()) + " bytes, more than the limit of " + std::to_string(options_.limits.max_record_bytes));
  const engine::WriteOutcome outcome = options_.write(path_, text);
  if (!outcome.replaced) {
    failure_ = outcome.error;
    return R::Error(outcome.error + "; nothing was recorded and appends stop until Retry()");
  }
  const int first = static_cast<int>(entries_.size());
  for (Line& l : lines) entries_.push_back(std::move(l));
  action_lines_.resize(keep);
  for (std::string& a : new_actions) action_lines_.push_back(std::move(a));
  document_bytes_ = text.size();
  expected_next_ = expected_.size();
  if (!outcome.error.empty()) {
    failure_ = outcome.error;
    return R::Error(outcome.error + "; the entries are in the file, appends stop until Retry()");
  }
  return first;
}

std::string Journal::Differs(const std::vector<Line>& lines, const std::vector<Pending>& pending) const {
  for (size_t i = 0; i < lines.size() && expected_next_ + i < expected_.size(); ++i) {
    const Line& want = expected_[expected_next_ + i].line;
    if (lines[i].hash == want.hash) continue;
    auto brief = [](const std::string& text) { return text.size() > 300 ? text.substr(0, 300) + "..." : text; };
    return "re-judging the game differs from the record at journal entry " + std::to_string(entries_.size() + i) + ": the record has " +
           brief(want.text) + ", re-judging gives a " + std::string(ToString(pending[i].kind)) + " entry " + brief(pending[i].data.dump()) +
           " (resume with the frames and events the game was refereed from; nothing was written)";
  }
  return "";
}

std::string Journal::Retry() {
  if (replaying()) return failure_;  // the file holds more than memory: never written over from here
  const engine::WriteOutcome outcome = options_.write(path_, Render({}, action_lines_.size(), {}));
  failure_ = outcome.ok() ? "" : outcome.error;
  return failure_;
}

}  // namespace swref::core
