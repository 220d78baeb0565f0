// A still board judged (referee_session.h: Judge): explained and committed action by action, an illegal conquest
// flagged, a question asked, the told die spent by the action that rolled it, each turn's coins told.
#include <algorithm>

#include "app/core/demo.h"
#include "app/core/referee_session.h"
#include "engine/components.h"
#include "engine/replay.h"

namespace swref::core {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The readings of a question, as the players see them: one line of actions each.
nlohmann::json OptionsJson(const engine::Explanation& e, const std::vector<std::string>& players) {
  nlohmann::json options = nlohmann::json::array();
  for (const engine::Reading& r : e.options) {
    nlohmann::json actions = nlohmann::json::array();
    for (const engine::ExplainedAction& a : r.actions) actions.push_back(engine::ToJson(a.action, players));
    options.push_back(actions);
  }
  return options;
}

// "conquered region 5", "redeployed", "eroded the Ratmen": what a flagged action did on the table.
std::string Attempted(const engine::Action& a) {
  if (a.type == engine::ActionType::kRedeploy) return "redeployed";
  if (a.type == engine::ActionType::kErode) return "eroded the " + std::string(engine::Info(static_cast<engine::Race>(a.race)).name);
  return "conquered region " + std::to_string(a.region);
}

}  // namespace

bool RefereeSession::CommitAction(const engine::Action& action, int64_t frame, std::vector<Notice>* out) {
  auto commit = journal_.AppendAction(action);
  if (!commit) return Written(commit.error(), out);
  Notice n;
  n.kind = NoticeKind::kCommitted;
  n.frame = frame;
  n.seq = commit->seq;
  n.data = engine::ToJson(action, players());
  n.text = players()[action.player] + ": " + n.data.value("do", "") +
           (action.region >= 0 ? " region " + std::to_string(action.region) : "") + (commit->step.verdict.ok() ? "" : " (" + commit->step.verdict.why + ")");
  if (frame >= 0) n.ms = MsSince(frame_time_);
  out->push_back(n);
  // A die told and never used (its attempt failed and changed nothing on the board) ends with its player's turn:
  // else the next player's first conquest would be read as reinforced by it, and as that turn's last.
  if (action.type == engine::ActionType::kEndTurn && DieIsFor(action.player)) die_ = -1, die_player_ = -1;
  TellCoins(out);
  return true;
}

void RefereeSession::TellCoins(std::vector<Notice>* out) {
  const engine::Game& g = game();
  for (; coins_told_ < g.scores().size(); ++coins_told_) {
    const engine::TurnScore& t = g.scores()[coins_told_];
    Notice n;
    n.kind = NoticeKind::kCoins;
    n.data = {{"turn", coins_told_},  // the index of the turn scored: a turn amended is told again
              {"round", t.round},
              {"player", players()[t.player]},
              {"coins", {{"regions", t.coins.regions}, {"race", t.coins.race}, {"power", t.coins.power}, {"total", t.coins.total()}}},
              {"after", g.players()[t.player].coins}};
    n.text = "round " + std::to_string(t.round) + ", " + players()[t.player] + " scores " + std::to_string(t.coins.total()) + " coins";
    out->push_back(n);
  }
  if (g.finished()) {
    Notice n;
    n.kind = NoticeKind::kEnded;
    nlohmann::json coins = nlohmann::json::object();
    for (const auto& p : g.players()) coins[p.name] = p.coins;
    nlohmann::json winners = nlohmann::json::array();
    for (int w : g.Winners()) winners.push_back(players()[w]);
    n.data = {{"coins", coins}, {"winners", winners}};
    n.text = "the game is over";
    if (g.solo()) {  // the end items, the opposition's total and the rating (docs/solo.md)
      n.data["solo"] = engine::SoloResult(g);
      n.text += ": " + SoloResultLine(g);
    }
    out->push_back(n);
  }
}

std::vector<int> RegionsNamed(const engine::Action& a) {
  std::vector<int> out;
  auto add = [&](int r) {
    if (r >= 0 && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  add(a.region);
  for (const engine::Placement& p : a.from) add(p.region);
  add(a.hero);
  for (int r : a.retreat) add(r);
  for (const auto* list : {&a.placement, &a.add, &a.encampments})
    for (const engine::Placement& p : *list) add(p.region);
  add(a.move.from), add(a.move.to);
  for (const engine::Move& m : a.hole_moves) add(m.from), add(m.to);
  for (int r : a.heroes) add(r);
  add(a.fortress);
  for (int r : a.regions) add(r);
  return out;
}

std::vector<int> RefereeSession::flag_regions() const {
  const engine::Action* attempt = open_flag_ >= 0 ? journal_.FlagAttempt(open_flag_) : nullptr;
  return attempt ? RegionsNamed(*attempt) : std::vector<int>{};
}

void RefereeSession::JudgeFinalDie(int die, int player, std::vector<Notice>* out) {
  const int told = die_, told_player = die_player_;
  die_ = die, die_player_ = player, question_die_ = -1, question_die_player_ = -1;
  die_final_ = true;
  Judge(*last_seen_, -1, "", false, out);
  die_final_ = false;
  // A question that reading raised is answered with that die: its readings roll it (not the one told since).
  if (open_question_ >= 0 && die_ >= 0) question_die_ = die_, question_die_player_ = die_player_;
  die_ = told, die_player_ = told_player;
}

void RefereeSession::CommitReading(const engine::Reading& reading, size_t count, int64_t frame, std::vector<Notice>* out) {
  // The told die is spent by the committed action that rolled it (or by a flagged attempt: Judge), not by what a
  // reading holds after the actions committed.
  bool die_spent = false;
  for (size_t i = 0; i < count && i < reading.actions.size(); ++i) {
    if (!CommitAction(reading.actions[i].action, frame, out)) return;
    die_spent = die_spent || reading.actions[i].action.die >= 0;
  }
  if (die_spent) die_ = -1, die_player_ = -1;
}

bool RefereeSession::Flaggable(engine::ActionType type) const {
  return type == engine::ActionType::kConquer || (game().solo() && (type == engine::ActionType::kRedeploy || type == engine::ActionType::kErode));
}

void RefereeSession::Judge(const engine::ObservedBoard& seen, int64_t frame, const std::string& image, bool turn_ending, std::vector<Notice>* out) {
  // 5. An open flag: the players take the conquest back (the board reads as committed again) or accept it.
  if (open_flag_ >= 0) {
    // Taken back: the board reads as committed, or at least the flagged region reads as it was before the attempt
    // (then whatever else changed is judged as usual, below).
    const engine::Explanation back = engine::Explain(game(), seen, Context(false));
    const bool region_back = flag_region_ >= 0 && flag_region_ < seen.size() && flag_region_ < static_cast<int>(game().board().size()) &&
                             engine::ReadsAs(game().board()[flag_region_], seen.regions[flag_region_]);
    if (back.kind != engine::ExplainKind::kNoChange && !region_back) {
      // Nothing else is judged while a flag is open; the players are reminded when the board moves on without them.
      if (frame >= 0) out->push_back({NoticeKind::kPending, frame, "the board changed while a flagged conquest is open: nothing is judged until it is taken back or accepted (" + open_text_ + ")"});
      return;
    }
    auto r = journal_.AppendResolution(open_flag_, false, "taken back");
    if (!r) return void(Written(r.error(), out));
    out->push_back({NoticeKind::kResolved, frame, "the flagged conquest was taken back", r->seq});
    open_flag_ = -1, flag_region_ = -1, open_text_.clear();
    if (back.kind == engine::ExplainKind::kNoChange) {
      committed_seen_ = seen;
      return;
    }
  }
  engine::Explanation e = engine::Explain(game(), seen, Context(turn_ending));
  if (e.kind == engine::ExplainKind::kPending && turn_ending && !e.regions.empty()) {
    // The turn ends but the board still differs from the game: a reading to settle, never a silent pass.
    e.kind = engine::ExplainKind::kQuestion;
    e.text = "The turn ends but the board differs from the game (" + e.text + "); please check the reading or finish the redeployment";
    e.options.clear();
  }
  if (e.kind == engine::ExplainKind::kIllegal && e.reading.illegal >= 0 && !Flaggable(e.reading.actions[e.reading.illegal].action.type)) {
    // Only a conquest is flagged (a player can take it back), and in SoloPlay a redeployment or an erosion too
    // (docs/solo.md); any other action the rules refuse (a withdrawal, a standard game's redeployment) means the
    // board was misread or moved wrongly: the players must settle the reading.
    const engine::Verdict& v = e.verdict();
    e.kind = engine::ExplainKind::kQuestion;
    e.text = "The board shows what the rules do not allow (" + std::string(engine::ToString(v.code)) + ": " + v.why +
             "); please check the reading";
    e.options.clear();
  }
  if (open_question_ >= 0 && e.kind != engine::ExplainKind::kQuestion) {
    auto a = journal_.Append(EntryKind::kAnswer, {{"question", open_question_}, {"answer", {{"by", "board"}}}, {"corrected", false}});
    if (!a) return void(Written(a.error(), out));
    out->push_back({NoticeKind::kAnswered, frame, "the board settled the question", *a});
    open_question_ = -1, open_text_.clear(), question_options_.clear(), question_regions_.clear();
    question_die_ = -1, question_die_player_ = -1;  // the board moved on: that die's attempt is read no more
  }
  switch (e.kind) {
    case engine::ExplainKind::kNoChange:
      return;
    case engine::ExplainKind::kPending:
      out->push_back({NoticeKind::kPending, frame, e.text});
      return;
    case engine::ExplainKind::kExplained:
      CommitObservation(seen, frame, image, out);
      CommitReading(e.reading, e.reading.actions.size(), frame, out);
      return;
    case engine::ExplainKind::kIllegal: {
      // 6. The legal actions before the illegal conquest stand; the conquest is flagged.
      CommitObservation(seen, frame, image, out);
      CommitReading(e.reading, static_cast<size_t>(std::max(0, e.reading.illegal)), frame, out);
      const engine::Action& attempt = e.reading.actions[e.reading.illegal].action;
      if (attempt.die >= 0) die_ = -1, die_player_ = -1;  // the roll was made (given back if the flag is withdrawn)
      auto flag = journal_.AppendFlag(attempt);
      if (!flag) return void(Written(flag.error(), out));
      open_flag_ = *flag;
      flag_region_ = attempt.region;
      const engine::Verdict& v = e.verdict();
      open_text_ = std::string(engine::ToString(v.code)) + ": " + v.why;
      Notice n{NoticeKind::kFlag, frame, players()[attempt.player] + " " + Attempted(attempt) + " against the rules: " + open_text_, *flag};
      n.data = {{"region", attempt.region}, {"regions", RegionsNamed(attempt)}, {"code", engine::ToString(v.code)}, {"why", v.why},
                {"player", players()[attempt.player]}};
      if (frame >= 0) n.ms = MsSince(frame_time_);
      out->push_back(n);
      return;
    }
    case engine::ExplainKind::kQuestion: {
      if (open_question_ >= 0) return;  // still the same question
      const nlohmann::json options = OptionsJson(e, players());
      auto q = journal_.AppendQuestion(e.text + (e.regions.empty() ? "" : " (regions " + engine::IdList(e.regions) + ")"), options);
      if (!q) return void(Written(q.error(), out));
      open_question_ = *q;
      open_text_ = e.text;
      question_options_ = e.options;
      question_regions_ = e.regions;
      Notice n{NoticeKind::kQuestion, frame, e.text, *q};
      n.data = {{"options", options}, {"regions", e.regions}};
      if (frame >= 0) n.ms = MsSince(frame_time_);
      out->push_back(n);
      return;
    }
  }
}

}  // namespace swref::core
