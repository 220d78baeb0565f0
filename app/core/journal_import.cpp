#include "app/core/journal_import.h"

namespace swref::core {
namespace {

using engine::Action;
using engine::ActionType;

// The off-board events told before `a` (docs/referee.md, the table script): {"player", "do", ...}.
std::vector<nlohmann::json> EventsBefore(const Action& a, const std::vector<std::string>& players) {
  std::vector<nlohmann::json> events;
  if (a.type == ActionType::kConquer && a.die >= 0) events.push_back({{"player", players[a.player]}, {"do", "die"}, {"face", a.die}});
  if (a.type == ActionType::kPick || a.type == ActionType::kDecline || a.type == ActionType::kAlly || a.type == ActionType::kEndTurn)
    events.push_back(engine::ToJson(a, players));
  return events;
}

std::string CommitOne(Journal& journal, const Action& a) {
  const bool conquest = a.type == ActionType::kConquer;
  Action attempt = a;
  attempt.house_ruling = false;
  if (!conquest || journal.game().Check(attempt) == engine::Code::kOk) {
    auto c = journal.AppendAction(a);
    return c ? "" : c.error();
  }
  auto flag = journal.AppendFlag(attempt);
  if (!flag) return flag.error();
  if (a.house_ruling) {
    auto ruled = journal.AppendResolution(*flag, true, "accepted by the players");
    if (ruled) return "";
  }
  auto back = journal.AppendResolution(*flag, false, "taken back");
  return back ? "" : back.error();
}

}  // namespace

engine::Result<Journal> JournalRecord(const engine::Record& record, const std::filesystem::path& out, const nlohmann::json& start, JournalOptions options) {
  using R = engine::Result<Journal>;
  engine::Record header = record;
  header.actions.clear();
  auto journal = Journal::Create(out, header, start, std::move(options));
  if (!journal) return R::Error(journal.error());
  for (const Action& a : record.actions) {
    for (const nlohmann::json& event : EventsBefore(a, record.players))
      if (auto e = journal->AppendEvent(event); !e) return R::Error(e.error());
    if (auto e = CommitOne(*journal, a); !e.empty()) return R::Error(e);
  }
  return journal;
}

}  // namespace swref::core
