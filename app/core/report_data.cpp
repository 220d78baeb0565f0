#include "app/core/report_data.h"

#include <algorithm>
#include <map>

#include "app/core/game_timeline.h"

namespace swref::core {
namespace {

using nlohmann::json;
using engine::Action;
using engine::Game;

std::string Combo(const Game& game, int player) {
  const int race = game.players()[player].active;
  if (race >= 0)
    return std::string(engine::Info(static_cast<engine::Race>(race)).name) + " + " + std::string(engine::Info(game.civs()[race].power).name);
  return game.turn().declined ? "decline turn" : "-";
}

std::string Describe(const Action& a) {
  std::string s = std::string(engine::ToString(a.type));
  if (a.type != engine::ActionType::kConquer) return s;
  s += " region " + std::to_string(a.region);
  if (a.with != engine::With::kNone) s += " with " + std::string(engine::ToString(a.with));
  if (a.tokens >= 0) s += ", " + std::to_string(a.tokens) + " tokens";
  if (a.die >= 0) s += ", die " + std::to_string(a.die);
  return s;
}

// Walks the game action by action, keeping a row per ended turn.
class Walker {
 public:
  Walker(GameSummary* summary, GameTimeline* timeline) : s_(summary), t_(timeline) {}

  TimelineStep Apply(const Action& action) {
    const std::string combo = Combo(t_->game(), action.player);
    const TimelineStep step = t_->Apply(action);
    const auto& scores = t_->game().scores();
    for (size_t i = s_->turns.size(); i < scores.size(); ++i) {
      TurnRow row{scores[i].round, t_->game().players()[scores[i].player].name, combo, scores[i].coins, {}};
      for (const auto& p : t_->game().players()) row.holdings.push_back(p.coins);
      s_->turns.push_back(row);
    }
    return step;
  }
  void Undo() {
    t_->Undo();
    while (s_->turns.size() > t_->game().scores().size()) s_->turns.pop_back();
  }
  FlagRow Flag(const Action& action, const std::string& code = "", const std::string& why = "") const {
    FlagRow f;
    f.round = t_->game().round();
    f.player = t_->game().players()[action.player].name;
    f.region = action.type == engine::ActionType::kConquer ? action.region : -1;
    f.action = Describe(action);
    f.code = code;
    f.why = why;
    return f;
  }

 private:
  GameSummary* s_;
  GameTimeline* t_;
};

void WalkJournal(const json& journal, const engine::Record& record, Walker* walker, GameSummary* s) {
  std::map<int, size_t> flag_rows;  // flag entry -> its row
  const bool solo = record.variant == "solo";
  for (int k = 0; k < static_cast<int>(journal.size()); ++k) {
    const std::string kind = journal[k]["kind"].get<std::string>();
    const json& data = journal[k]["data"];
    if (kind == "action" || kind == "flag") {
      const Action action = *engine::ParseAction(data["action"], record.players, "", solo);  // verified: it parses
      if (kind == "flag") {
        FlagRow f = walker->Flag(action, data["code"].get<std::string>(), data["why"].get<std::string>());
        f.entry = k;
        f.resolution = "unresolved";
        flag_rows[k] = s->flags.size();
        s->flags.push_back(f);
        continue;
      }
      const FlagRow before = walker->Flag(action);
      const TimelineStep step = walker->Apply(action);
      if (!step.applied()) {
        FlagRow f = before;
        f.code = engine::ToString(step.verdict.code), f.why = step.verdict.why;
        f.entry = k, f.step = data["index"].get<int>(), f.resolution = "rejected";
        s->flags.push_back(f);
      }
    } else if (kind == "undo") {
      walker->Undo();
    } else if (kind == "resolution") {
      FlagRow& f = s->flags[flag_rows[data["flag"].get<int>()]];
      f.resolution = data["outcome"] == kHouseRuling ? "house ruling" : "taken back";
      f.note = data["note"].get<std::string>();
    }
  }
}

void WalkActions(const engine::Record& record, Walker* walker, GameSummary* s) {
  for (size_t i = 0; i < record.actions.size(); ++i) {
    const FlagRow before = walker->Flag(record.actions[i]);
    const TimelineStep step = walker->Apply(record.actions[i]);
    if (step.verdict.ok()) continue;
    FlagRow f = before;
    f.code = engine::ToString(step.verdict.code), f.why = step.verdict.why;
    f.step = static_cast<int>(i);
    f.resolution = step.house_ruled ? "house ruling" : "rejected";
    s->flags.push_back(f);
  }
}

void Rank(const Game& game, GameSummary* s) {
  for (int p = 0; p < game.player_count(); ++p)
    s->ranking.push_back({1, game.players()[p].name, game.players()[p].coins, game.TokensOnBoardOf(p), false});
  auto better = [](const RankRow& a, const RankRow& b) { return a.coins != b.coins ? a.coins > b.coins : a.tokens > b.tokens; };
  std::stable_sort(s->ranking.begin(), s->ranking.end(), better);
  for (size_t i = 1; i < s->ranking.size(); ++i)
    s->ranking[i].rank = better(s->ranking[i - 1], s->ranking[i]) ? static_cast<int>(i) + 1 : s->ranking[i - 1].rank;
  for (int w : game.Winners()) {
    s->winners.push_back(game.players()[w].name);
    for (RankRow& r : s->ranking) r.winner = r.winner || r.player == game.players()[w].name;
  }
}

}  // namespace

engine::Result<GameSummary> SummariseRecord(const std::filesystem::path& file, bool* tampered) {
  using R = engine::Result<GameSummary>;
  auto doc = ReadRecordDocument(file);
  if (!doc) return R::Error(doc.error());
  auto v = VerifyRecordDocument(*doc, file.parent_path());
  if (!v) return R::Error(file.string() + ": " + v.error());
  if (v->integrity == Integrity::kTampered) {
    if (tampered) *tampered = true;
    return R::Error(file.string() + ": fails verification: " + v->problem);
  }
  engine::Record record = *engine::ParseRecord(*doc);  // verification parsed it
  GameSummary s;
  s.name = file.stem().string();
  s.file = file.string();
  s.integrity = v->integrity;
  s.entries = v->entries;
  s.head_hash = v->head_hash;
  s.map = record.map, s.variant = record.variant, s.players = record.players;
  s.actions = static_cast<int>(record.actions.size());
  engine::Record header = record;
  header.actions.clear();
  auto timeline = GameTimeline::Start(header, file.parent_path());
  if (!timeline) return R::Error(file.string() + ": " + timeline.error());
  for (const auto& p : timeline->game().players()) s.start_coins.push_back(p.coins);
  Walker walker(&s, &*timeline);
  if (v->integrity == Integrity::kVerified) WalkJournal((*doc)["journal"], record, &walker, &s);
  else WalkActions(record, &walker, &s);
  const Game& game = timeline->game();
  s.round = game.round();
  s.finished = game.finished();
  Rank(game, &s);
  if (game.solo()) {
    s.solo_score = game.SoloScore();
    if (game.finished()) s.solo_rating = engine::ToString(game.SoloRating());
  }
  return s;
}

}  // namespace swref::core
