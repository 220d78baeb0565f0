// Journal's typed appends (journal.h): each builds its entries' data, checks what it can before writing, and
// keeps the game and the bookkeeping in step with what reached the disk.
#include "app/core/journal.h"

#include <algorithm>

#include "app/core/journal_data.h"

namespace swref::core {

using nlohmann::json;
using engine::Result;

Result<engine::Action> Journal::RecordForm(const engine::Action& action, json* form) const {
  using R = Result<engine::Action>;
  if (action.player < 0 || action.player >= static_cast<int>(players().size()))
    return R::Error(path_.string() + ": the action's player " + std::to_string(action.player) + " is not one of the record's players");
  *form = engine::ToJson(action, players());
  auto parsed = engine::ParseAction(*form, players(), "action", header_record_.variant == "solo");
  if (!parsed) return R::Error(path_.string() + ": the action cannot be recorded: " + parsed.error());
  if (engine::ToJson(*parsed, players()) != *form) return R::Error(path_.string() + ": the action does not read back as written: " + form->dump());
  return parsed;
}

TimelineStep Journal::ApplyInto(const engine::Action& parsed, const json& form, std::vector<Pending>* pending) {
  const size_t scores_before = game().scores().size();
  const bool was_finished = game().finished();
  const TimelineStep step = timeline_.Apply(parsed);
  pending->push_back({EntryKind::kAction, ActionData(static_cast<int>(actions().size()) - 1, form, step)});
  for (size_t t = scores_before; t < game().scores().size(); ++t) pending->push_back({EntryKind::kCoins, CoinsData(game(), static_cast<int>(t))});
  if (!was_finished && game().finished()) pending->push_back({EntryKind::kEnd, EndData(game(), "")});
  return step;
}

Result<Commit> Journal::CommitAction(std::vector<Pending> before, const engine::Action& action) {
  using R = Result<Commit>;
  if (auto why = CanAppend(); !why.empty()) return R::Error(path_.string() + ": " + why);
  json form;
  auto parsed = RecordForm(action, &form);
  if (!parsed) return R::Error(parsed.error());
  const size_t entries_before = entries_.size();
  std::vector<Pending> pending = std::move(before);
  const int action_at = static_cast<int>(entries_before + pending.size());
  Commit commit;
  commit.step = ApplyInto(*parsed, form, &pending);
  auto written = Write(std::move(pending));
  if (entries_.size() == entries_before) {  // nothing reached the disk: the game goes back to what the file says
    timeline_.Undo();
    return R::Error(written.error());
  }
  action_seqs_.push_back(action_at);
  commit.seq = action_at;
  if (!written) return R::Error(written.error());
  return commit;
}

Result<int> Journal::Append(EntryKind kind, json data) {
  static constexpr EntryKind kFree[] = {EntryKind::kObservation, EntryKind::kQuestion, EntryKind::kAnswer, EntryKind::kEvent, EntryKind::kCorrection};
  if (std::find(std::begin(kFree), std::end(kFree), kind) == std::end(kFree))
    return Refuse("a " + std::string(ToString(kind)) + " entry has its own call (AppendAction, AppendFlag, AppendResolution, AppendUndo, AppendEnd)");
  if (auto problem = CheckEntryData(kind, data, std::string(ToString(kind)) + ".data"); !problem.empty()) return Refuse(problem);
  if (kind == EntryKind::kAnswer && !questions_.count(data["question"].get<int>()))
    return Refuse("answer.data.question: " + data["question"].dump() + " is no open question");
  if (kind == EntryKind::kCorrection && data["entry"].get<int64_t>() >= size())
    return Refuse("correction.data.entry: " + data["entry"].dump() + " is no entry of the journal");
  const int question = kind == EntryKind::kAnswer ? data["question"].get<int>() : -1;
  auto seq = Write({{kind, std::move(data)}});
  if (seq && kind == EntryKind::kQuestion) questions_.insert(*seq);
  if (seq && kind == EntryKind::kAnswer) questions_.erase(question);
  return seq;
}

Result<Commit> Journal::AppendAction(const engine::Action& action) { return CommitAction({}, action); }

Result<int> Journal::AppendObservation(const ObservationDigest& digest) {
  json data = {{"sha256", digest.sha256}, {"changed", digest.changed}};
  if (!digest.image.empty()) data["image"] = digest.image;
  if (digest.frame >= 0) data["frame"] = digest.frame;
  return Append(EntryKind::kObservation, std::move(data));
}

Result<int> Journal::AppendFlag(const engine::Action& attempt) {
  if (auto why = CanAppend(); !why.empty()) return Refuse(why);
  const bool solo_move =
      header_record_.variant == "solo" && (attempt.type == engine::ActionType::kRedeploy || attempt.type == engine::ActionType::kErode);
  if (attempt.type != engine::ActionType::kConquer && !solo_move)
    return Refuse("a flag is an illegal conquest (in SoloPlay also a redeploy or an erosion), not a " +
                  std::string(engine::ToString(attempt.type)));
  engine::Action plain = attempt;
  plain.house_ruling = false;
  json form;
  auto parsed = RecordForm(plain, &form);
  if (!parsed) return Result<int>::Error(parsed.error());
  const TimelineStep step = timeline_.Try(*parsed);
  if (step.verdict.ok()) return Refuse("the rules accept this conquest: commit it with AppendAction");
  auto seq = Write({{EntryKind::kFlag, FlagData(form, FlagRegion(*parsed), step.verdict)}});
  if (seq) flags_[*seq] = *parsed;
  return seq;
}

Result<Commit> Journal::AppendResolution(int flag_seq, bool house_ruling, const std::string& note) {
  using R = Result<Commit>;
  const auto flag = flags_.find(flag_seq);
  if (flag == flags_.end() || resolved_.count(flag_seq))
    return R::Error(path_.string() + ": journal entry " + std::to_string(flag_seq) + " is no unresolved flag");
  json data = {{"flag", flag_seq}, {"outcome", house_ruling ? kHouseRuling : kTakenBack}, {"note", note}};
  if (!house_ruling) {
    auto seq = Write({{EntryKind::kResolution, std::move(data)}});
    if (!seq) return R::Error(seq.error());
    resolved_.insert(flag_seq);
    return Commit{-1, {}};
  }
  engine::Action ruled = flag->second;
  ruled.house_ruling = true;
  const TimelineStep step = timeline_.Try(ruled);
  if (!step.applied()) return R::Error(path_.string() + ": the conquest cannot stand as a house ruling: " + step.verdict.why);
  const size_t before = entries_.size();
  auto commit = CommitAction({{EntryKind::kResolution, std::move(data)}}, ruled);
  if (entries_.size() > before) resolved_.insert(flag_seq);
  return commit;
}

Result<int> Journal::AppendQuestion(const std::string& text, const json& options) {
  return Append(EntryKind::kQuestion, {{"text", text}, {"options", options}});
}

Result<int> Journal::AppendAnswer(int question_seq, const json& answer, bool corrected) {
  return Append(EntryKind::kAnswer, {{"question", question_seq}, {"answer", answer}, {"corrected", corrected}});
}

Result<int> Journal::AppendEvent(const json& event) { return Append(EntryKind::kEvent, event); }

Result<int> Journal::AppendCorrection(int entry_seq, const std::string& reason, const json& value) {
  json data = {{"entry", entry_seq}, {"reason", reason}};
  if (!value.is_null()) data["value"] = value;
  return Append(EntryKind::kCorrection, std::move(data));
}

Result<Commit> Journal::AppendUndo(const std::string& reason) {
  using R = Result<Commit>;
  if (auto why = CanAppend(); !why.empty()) return R::Error(path_.string() + ": " + why);
  if (actions().empty()) return R::Error(path_.string() + ": no action to undo");
  const engine::Action last = actions().back();
  const int entry = action_seqs_.back(), index = static_cast<int>(actions().size()) - 1;
  const size_t before = entries_.size();
  timeline_.Undo();
  auto seq = Write({{EntryKind::kUndo, {{"entry", entry}, {"index", index}, {"reason", reason}}}});
  if (entries_.size() == before) {
    timeline_.Apply(last);
    return R::Error(seq.error());
  }
  action_seqs_.pop_back();
  if (!seq) return R::Error(seq.error());
  return Commit{*seq, {}};
}

Result<int> Journal::AppendAmendment(int undo, const std::vector<engine::Action>& redo, const std::string& reason) {
  using R = Result<int>;
  if (auto why = CanAppend(); !why.empty()) return R::Error(path_.string() + ": " + why);
  if (undo < 0 || undo > static_cast<int>(actions().size()))
    return R::Error(path_.string() + ": cannot take back " + std::to_string(undo) + " of " + std::to_string(actions().size()) + " actions");
  // Every action made again reads back as recorded: checked before anything changes.
  std::vector<std::pair<engine::Action, json>> forms;
  for (const engine::Action& a : redo) {
    json form;
    auto parsed = RecordForm(a, &form);
    if (!parsed) return R::Error(parsed.error());
    forms.emplace_back(*parsed, std::move(form));
  }
  const size_t entries_before = entries_.size();
  std::vector<engine::Action> taken;  // the last first, with their entries
  std::vector<int> taken_seqs, made_seqs;
  std::vector<Pending> pending;
  for (int k = 0; k < undo; ++k) {
    const int entry = action_seqs_.back(), index = static_cast<int>(actions().size()) - 1;
    taken.push_back(actions().back());
    taken_seqs.push_back(entry);
    timeline_.Undo();
    action_seqs_.pop_back();
    pending.push_back({EntryKind::kUndo, {{"entry", entry}, {"index", index}, {"reason", reason}}});
  }
  for (const auto& [parsed, form] : forms) {
    made_seqs.push_back(static_cast<int>(entries_before + pending.size()));
    ApplyInto(parsed, form, &pending);
  }
  auto written = Write(std::move(pending));
  if (entries_.size() == entries_before) {  // nothing reached the disk: the game goes back to what the file says
    for (size_t i = 0; i < forms.size(); ++i) timeline_.Undo();
    for (size_t i = taken.size(); i-- > 0;) timeline_.Apply(taken[i]), action_seqs_.push_back(taken_seqs[i]);
    return R::Error(written.error());
  }
  for (int seq : made_seqs) action_seqs_.push_back(seq);
  return written;
}

Result<int> Journal::AppendEnd(const std::string& note) {
  if (auto why = CanAppend(); !why.empty()) return Refuse(why);
  return Write({{EntryKind::kEnd, EndData(game(), note)}});
}

}  // namespace swref::core
