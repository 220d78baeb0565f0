#include "engine/explain_measure.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>

#include "engine/explain_match.h"
#include "engine/replay.h"
#include "engine/rng.h"
#include "engine/table_script.h"

namespace swref::engine {
namespace {

template <typename T>
void PutKey(std::string* key, T value) {
  key->append(reinterpret_cast<const char*>(&value), sizeof value);
}

// What the referee's game and the truth must agree on after every scene: the board, hands, banners, coins and the
// column (not the turn's flags: an action that leaves the board as it was, such as a redeploy that moves nothing,
// reaches the referee only with the next change).
std::string TableKey(const Game& game) {
  std::string key(reinterpret_cast<const char*>(game.board().data()), game.board().size() * sizeof(RegionState));
  for (const CivState& c : game.civs()) PutKey(&key, c.owner), PutKey(&key, c.decline), PutKey(&key, c.hand), PutKey(&key, c.aside), PutKey(&key, c.power);
  for (const PlayerState& p : game.players()) PutKey(&key, p.coins), PutKey(&key, p.active), PutKey(&key, p.peace_with);
  for (const Combo& c : game.column()) PutKey(&key, c.race), PutKey(&key, c.power), PutKey(&key, c.coins);
  PutKey(&key, game.current_player()), PutKey(&key, game.round()), PutKey(&key, game.finished());
  AppendSoloKey(game, &key);
  return key;
}

// The same without token counts: who holds what, the pieces, hands excluded (TableKey's part a camera pins
// even when stacks hide counts).
std::string ShapeKey(const Game& game) {
  std::string key;
  for (const RegionState& r : game.board()) {
    RegionState shape = r;
    shape.tokens = r.tokens > 0;
    key.append(reinterpret_cast<const char*>(&shape), sizeof shape);
  }
  for (const CivState& c : game.civs()) PutKey(&key, c.owner), PutKey(&key, c.decline), PutKey(&key, c.power);
  for (const PlayerState& p : game.players()) PutKey(&key, p.coins), PutKey(&key, p.active), PutKey(&key, p.peace_with);
  for (const Combo& c : game.column()) PutKey(&key, c.race), PutKey(&key, c.power), PutKey(&key, c.coins);
  PutKey(&key, game.current_player()), PutKey(&key, game.round()), PutKey(&key, game.finished());
  AppendSoloKey(game, &key);
  return key;
}

// The game's result: every player's coins and, in SoloPlay, the end items, the opposition's total and the rating.
std::string ResultKey(const Game& game) {
  std::string key;
  for (const PlayerState& p : game.players()) PutKey(&key, p.coins);
  if (game.solo()) key += SoloDocument(game).dump();
  return key;
}

uint64_t RegionHash(uint64_t seed, int region, const RegionState& r) {
  uint64_t h = 1469598103934665603ULL ^ seed ^ (static_cast<uint64_t>(region) << 32);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&r);
  for (size_t i = 0; i < sizeof r; ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  return h;
}

class Referee {
 public:
  Referee(const Record& record, const TableScript& script, const std::vector<InjectedFlag>& injected, const MeasureOptions& options,
          Game start)
      : record_(record), script_(script), options_(options), committed_(start), truth_(std::move(start)) {
    context_ = options.context;
    context_.die = -1;
    for (const InjectedFlag& f : injected) kinds_[f.step] = f.kind;
    for (const TableScene& s : script.scenes)
      if (s.kind == SceneKind::kAttempt) expected_[s.step] = script.verdicts[s.step].code;
    figures_.flags.expected = static_cast<int>(expected_.size());
    for (const auto& [step, code] : expected_)
      if (kinds_.count(step)) ++figures_.by_kind[static_cast<int>(kinds_[step])].expected;
  }

  ExplainFigures Run() {
    size_t ev = 0;
    Rng merge(options_.seed ^ 0x3e59eULL);
    for (size_t si = 0; si < script_.scenes.size(); ++si) {
      for (; ev < script_.events.size() && script_.events[ev].after_scene < static_cast<int>(si); ++ev) Event(script_.events[ev]);
      if (Missed(si, ev, merge)) {
        ++figures_.merged;
        continue;
      }
      Scene(script_.scenes[si]);
    }
    for (; ev < script_.events.size(); ++ev) Event(script_.events[ev]);
    Advance(static_cast<int>(record_.actions.size()) - 1);
    if (truth_.finished()) {
      ++figures_.games_ended;
      const bool same = committed_.finished() && ResultKey(committed_) == ResultKey(truth_);
      figures_.results_exact += same;
      if (!same) Note("the game's result differs from the replay's");
    }
    return figures_;
  }

 private:
  // A move the camera never sees still: the next scene is another move, with no event told in between.
  bool Missed(size_t si, size_t ev, Rng& rng) const {
    if (options_.merge_rate <= 0 || si + 1 >= script_.scenes.size()) return false;
    if (script_.scenes[si].kind != SceneKind::kMove || script_.scenes[si + 1].kind != SceneKind::kMove) return false;
    if (ev < script_.events.size() && script_.events[ev].after_scene <= static_cast<int>(si)) return false;
    return rng.Below(1000) < static_cast<uint32_t>(options_.merge_rate * 1000);
  }

  void Advance(int step) {
    while (truth_step_ < step) {
      const Action& a = record_.actions[++truth_step_];
      bool ruled = false;
      if (a.house_ruling) truth_.ApplyHouseRuling(a, &ruled);
      else truth_.Apply(a);
    }
  }

  void Note(const std::string& s) {
    if (figures_.notes.size() < 24) figures_.notes.push_back(s);
  }

  // After a scene only what the camera pins must agree (a count hidden by a stack may lag until the turn ends);
  // after an end_turn, everything.
  void Reset(const std::string& where, bool turn_end) {
    if (turn_end ? TableKey(committed_) == TableKey(truth_) : ShapeKey(committed_) == ShapeKey(truth_)) return;
    ++figures_.resets;
    tainted_ = true;
    std::string diff;
    for (int i = 0; i < committed_.map().size(); ++i) {
      const RegionState &a = committed_.board()[i], &b = truth_.board()[i];
      if (std::memcmp(&a, &b, sizeof a) != 0)
        diff += " r" + std::to_string(i) + ":" + std::to_string(a.race) + "/" + std::to_string(a.tokens) + "≠" + std::to_string(b.race) + "/" + std::to_string(b.tokens);
    }
    for (int r = 0; r < kRaceCount; ++r)
      if (committed_.civs()[r].hand != truth_.civs()[r].hand)
        diff += " hand" + std::to_string(r) + ":" + std::to_string(committed_.civs()[r].hand) + "≠" + std::to_string(truth_.civs()[r].hand);
    Note(where + ": the referee's game differs from the truth (" + diff + " ); reset");
    committed_ = truth_;
  }

  void Flag(const TableScene& scene, Code code, const std::string& why = "") {
    ++figures_.flags_raised;
    auto it = expected_.find(scene.step);
    if (scene.kind != SceneKind::kAttempt || it == expected_.end()) {
      Note("step " + std::to_string(scene.step) + ": a flag (" + std::string(ToString(code)) + ": " + why +
           ") where the table shows a legal move");
      return;
    }
    ++figures_.flags_right;
    if (!found_.insert(scene.step).second) return;
    const bool same = code == it->second;
    ++figures_.flags.found;
    figures_.flags.same_code += same;
    if (auto k = kinds_.find(scene.step); k != kinds_.end()) {
      FlagCount& c = figures_.by_kind[static_cast<int>(k->second)];
      ++c.found;
      c.same_code += same;
    }
    if (!same) Note("step " + std::to_string(scene.step) + ": flagged " + std::string(ToString(code)) + ", the rules say " + std::string(ToString(it->second)));
  }

  void Event(const TableEvent& e) {
    if (e.die) {
      if (context_.die >= 0 && last_scene_ && committed_.solo()) {  // SoloPlay: the unused die's failed attempt is read now
        ExplainContext settle = context_;
        settle.die_final = true;
        Handle(*last_scene_, Timed(last_seen_, settle), false);
      }
      context_.die = e.action.die;
      return;
    }
    Advance(e.step);
    if (e.action.type == ActionType::kEndTurn) TurnEnding();
    const Verdict v = committed_.Apply(e.action);
    const bool ok = script_.verdicts[e.step].ok();
    if (v.ok() != ok) Note("step " + std::to_string(e.step) + " (" + std::string(ToString(e.action.type)) + "): the referee's game says " + (v.ok() ? "ok" : v.why));
    if (e.action.type != ActionType::kEndTurn || !ok) return;
    context_.die = -1;
    if (truth_.scores().size() == turn_) {  // a SoloPlay setup race's end: its score is the opposition's
      Reset("after the end_turn of step " + std::to_string(e.step), true);
      return;
    }
    const TurnScore& want = script_.turns[turn_++];
    const bool same = v.ok() && committed_.scores().back().coins.regions == want.coins.regions &&
                      committed_.scores().back().coins.race == want.coins.race && committed_.scores().back().coins.power == want.coins.power;
    ++figures_.turns;
    figures_.turns_exact += same;
    figures_.turns_clean += same && !tainted_;
    if (!same) Note("turn " + std::to_string(turn_) + " (step " + std::to_string(e.step) + "): the coins differ from the replay's");
    tainted_ = false;
    Reset("after the end_turn of step " + std::to_string(e.step), true);
    tainted_ = false;  // the next turn starts from the truth
  }

  // A question: answered as the players would, with the option that is the truth (on an attempt scene an illegal
  // option, which is then a flag). When no option is the truth, the players spread the stacks so that the camera
  // counts them: the same board, perfectly seen, is explained again.
  void Answer(const TableScene& scene, const Explanation& e, bool recounted) {
    for (const Reading& option : e.options) {
      if (option.illegal >= 0) continue;
      Game g = committed_;
      if (ApplyReading(&g, option).ok() && TableKey(g) == TableKey(truth_)) {
        committed_ = std::move(g);
        if (option.die_used) context_.die = -1;
        ++figures_.answered;
        return;
      }
    }
    for (const Reading& option : e.options) {
      if (option.illegal < 0 || scene.kind != SceneKind::kAttempt) continue;
      ++figures_.answered;
      Flag(scene, option.actions[option.illegal].verdict.code);
      return;
    }
    if (!recounted) {
      ++figures_.recounted;
      Handle(scene, Explain(committed_, ObserveBoard(scene.board), context_), true);
      return;
    }
    ++figures_.unanswerable;
    Note("step " + std::to_string(scene.step) + ": a question without the truth among its options: " + e.text);
  }

  void Handle(const TableScene& scene, const Explanation& e, bool recounted) {
    switch (e.kind) {
      case ExplainKind::kNoChange:
      case ExplainKind::kPending: break;
      case ExplainKind::kExplained:
        if (Verdict v = ApplyReading(&committed_, e.reading); !v.ok()) Note("step " + std::to_string(scene.step) + ": the reading did not apply: " + v.why);
        if (e.reading.die_used) context_.die = -1;
        break;
      case ExplainKind::kIllegal:
        Flag(scene, e.verdict().code, e.text);
        break;
      case ExplainKind::kQuestion: Answer(scene, e, recounted); break;
    }
  }

  Explanation Timed(const ObservedBoard& seen, const ExplainContext& context) {
    const auto t0 = std::chrono::steady_clock::now();
    Explanation e = Explain(committed_, seen, context);
    figures_.us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    ++figures_.results[static_cast<int>(e.kind)];
    return e;
  }

  void Scene(const TableScene& scene) {
    Advance(scene.step);
    last_scene_ = &scene;
    last_seen_ = options_.hide_stacks ? HideStacks(scene.board, options_.stack_rate, options_.seed) : ObserveBoard(scene.board);
    ++figures_.scenes;
    const Explanation e = Timed(last_seen_, context_);
    Handle(scene, e, false);
    if (scene.kind == SceneKind::kAttempt && expected_.count(scene.step) && !found_.count(scene.step))
      Note("step " + std::to_string(scene.step) + ": the illegal conquest (" + std::string(ToString(expected_[scene.step])) + ") was read as " +
           std::string(ToString(e.kind)) + ": " + e.text);
    Reset("scene of step " + std::to_string(scene.step) + " (" + std::string(ToString(e.kind)) + ": " + e.text + ")", false);
  }

  // The players say the turn ends while the referee's game still has tokens in hand: the last board is read again
  // knowing that every token is on it now.
  void TurnEnding() {
    Action end;
    end.player = committed_.current_player();
    if (!last_scene_ || committed_.Check(end) == Code::kOk) return;
    ExplainContext ending = context_;
    ending.turn_ending = true;
    ++figures_.turn_end_reads;
    const Explanation e = Timed(last_seen_, ending);
    Handle(*last_scene_, e, false);
  }

  const TableScene* last_scene_ = nullptr;
  ObservedBoard last_seen_;
  const Record& record_;
  const TableScript& script_;
  const MeasureOptions& options_;
  Game committed_, truth_;
  int truth_step_ = -1;
  ExplainContext context_;
  std::map<int, IllegalKind> kinds_;
  std::map<int, Code> expected_;  // the record steps shown as attempts, and their codes
  std::set<int> found_;
  size_t turn_ = 0;
  bool tainted_ = false;
  ExplainFigures figures_;
};

}  // namespace

void ExplainFigures::Add(const ExplainFigures& o) {
  scenes += o.scenes, merged += o.merged;
  for (size_t k = 0; k < results.size(); ++k) results[k] += o.results[k];
  answered += o.answered, unanswerable += o.unanswerable;
  flags_raised += o.flags_raised, flags_right += o.flags_right;
  auto add = [](FlagCount& a, const FlagCount& b) { a.expected += b.expected, a.found += b.found, a.same_code += b.same_code; };
  add(flags, o.flags);
  for (size_t k = 0; k < by_kind.size(); ++k) add(by_kind[k], o.by_kind[k]);
  turns += o.turns, turns_exact += o.turns_exact, turns_clean += o.turns_clean, resets += o.resets;
  games_ended += o.games_ended, results_exact += o.results_exact;
  recounted += o.recounted, turn_end_reads += o.turn_end_reads;
  us.insert(us.end(), o.us.begin(), o.us.end());
  for (const std::string& n : o.notes)
    if (notes.size() < 60) notes.push_back(n);
}

ObservedBoard HideStacks(const Board& board, double stack_rate, uint64_t seed) {
  ObservedBoard seen = ObserveBoard(board);
  for (int r = 0; r < seen.size(); ++r) {
    const int tokens = board[r].HasRace() ? board[r].tokens : 0;
    if (tokens < 2) continue;
    Rng rng(RegionHash(seed, r, board[r]));
    if (rng.Below(1000) >= static_cast<uint32_t>(stack_rate * 1000)) continue;
    const int stack = 2 + static_cast<int>(rng.Below(static_cast<uint32_t>(std::min(tokens, 4) - 1)));
    seen.regions[r].tokens = tokens - stack + 1;
    seen.regions[r].tokens_certain = false;
  }
  return seen;
}

Result<ExplainFigures> MeasureExplain(const Record& record, const std::vector<InjectedFlag>& injected, const MeasureOptions& options) {
  auto script = ScriptTable(record, ".");
  if (!script) return Result<ExplainFigures>::Error(script.error());
  auto start = StartGame(record, ".");
  if (!start) return Result<ExplainFigures>::Error(start.error());
  Referee referee(record, *script, injected, options, std::move(*start));
  return referee.Run();
}

}  // namespace swref::engine
