// Explain: the top level (explain.h). The readings are built and simulated in explain_readings.cpp, compared with
// the observation in explain_match.cpp.
#include "engine/explain.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "engine/explain_readings.h"
#include "engine/explain_solo.h"
#include "engine/map.h"
#include "engine/record.h"

namespace swref::engine {
namespace {

const Verdict kOkVerdict{};

std::string ReadingText(const Reading& reading, const Game& game) {
  std::string s;
  for (const ExplainedAction& a : reading.actions) s += (s.empty() ? "" : "; ") + DescribeAction(a.action, game.players());
  return s.empty() ? "nothing" : s;
}

std::vector<int> Differing(const Game& game, const ObservedBoard& seen) {
  std::vector<int> regions;
  for (int i = 0; i < seen.size(); ++i)
    if (!ReadsAs(game.board()[i], seen.regions[i])) regions.push_back(i);
  return regions;
}

// The end of a turn moves tokens the board may not show moved: the Amazons' 4 conquest-only tokens leave the board
// (with no redeploy committed, Game::SetAmazonsAside takes what is not in hand from their fullest regions), and
// defenders place the tokens they withdrew (left in hand, they wait for the defender's next turn). When the board
// reads as unchanged only because those races' counts are lower bounds (stacks seen from above), the camera cannot
// tell whether or where the tokens moved: those regions, for the players to settle. Never a silent choice: a wrong
// one leaves the game with tokens where the table has none, and every later reading of those regions is then
// impossible.
std::vector<int> MovesHiddenAtTurnEnd(const Game& game, const ObservedBoard& seen) {
  std::vector<bool> hidden_race(kRaceCount, false);
  const int active = game.players()[game.current_player()].active;
  if (active == static_cast<int>(Race::kAmazons) && !game.turn().redeployed)
    hidden_race[active] = game.AmazonsToSetAside() > game.civ(Race::kAmazons).hand;  // some leave the board
  for (int r = 0; r < kRaceCount; ++r) {
    const CivState& c = game.civ(static_cast<Race>(r));
    if (c.owner >= 0 && c.owner != game.current_player() && c.hand > 0 && (game.turn().withdrawn & (1u << c.owner))) hidden_race[r] = true;
  }
  std::vector<int> regions;
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = game.board()[i];
    if (b.HasRace() && hidden_race[b.race] && !seen.regions[i].tokens_certain) regions.push_back(i);
  }
  return regions;
}

// SoloPlay setup: the placement of an opposition race ends with its balancing (setup 6.c.iv), which moves tokens
// among its regions. When the board reads as unchanged only because some of those regions' counts are lower bounds
// below what the game holds there (stacks seen from above), the camera cannot tell whether or how the balancing
// moved them: those regions, for the players to settle. Read as nothing moved, the game balanced them its own way
// and every later reading of them was impossible (SoloPlay bench, 3p seed 6: the game stalled in its setup).
std::vector<int> BalancingHiddenAtPlacementEnd(const Game& game, const ObservedBoard& seen) {
  std::vector<int> regions;
  if (!game.solo() || game.solo()->phase != SoloPhase::kSetup || game.turn().redeployed) return regions;
  const int race = game.SoloRace();
  for (int i = 0; i < seen.size() && race >= 0; ++i) {
    const RegionState& b = game.board()[i];
    const ObservedRegion& o = seen.regions[i];
    if (b.race == race && !b.decline && !o.tokens_certain && o.tokens < b.tokens) regions.push_back(i);
  }
  return regions;
}

// Preferences (smaller is better): legal readings by the told die used, an exact fit, the fewest actions;
// illegal ones by the fewest rejections first.
std::tuple<int, int, int> LegalRank(const Simulated& s, const ExplainContext& context) {
  return {context.die >= 0 && !s.reading.die_used, s.fit != Fit::kExact, static_cast<int>(s.reading.actions.size())};
}
std::tuple<int, int, int, int> IllegalRank(const Simulated& s, const ExplainContext& context) {
  return {s.illegal_count, context.die >= 0 && !s.reading.die_used, static_cast<int>(s.reading.actions.size()), s.fit != Fit::kExact};
}

// The smallest illegal reading that fits exactly and has fewer actions than `legal` (a conquest with too few
// tokens looks like a legal conquest followed by a redeploy that moved tokens out of the region), or null. When
// `legal` uses the die the players told, a reading without it is not one: the roll was made, so was its attempt.
const Simulated* SmallerIllegal(const Simulated& legal, const std::vector<Simulated>& sims, const ExplainContext& context) {
  const bool die_told_and_used = context.die >= 0 && legal.reading.die_used;
  const Simulated* smaller = nullptr;
  for (const Simulated& s : sims)
    if (s.fit == Fit::kExact && s.illegal_count > 0 && s.reading.actions.size() < legal.reading.actions.size() &&
        !(die_told_and_used && !s.reading.die_used) && (!smaller || s.reading.actions.size() < smaller->reading.actions.size()))
      smaller = &s;
  return smaller;
}

// Several equally good legal readings that leave different games, or a smaller illegal one the board cannot tell
// from them: a question listing each once.
bool AskBetween(const std::vector<const Simulated*>& group, const std::vector<Simulated>& sims, const Game& game, const ExplainContext& context,
                Explanation* e) {
  std::set<std::string> keys;
  std::vector<const Simulated*> distinct;
  for (const Simulated* s : group)
    if (keys.insert(s->key).second) distinct.push_back(s);
  const Simulated* smaller = SmallerIllegal(*group.front(), sims, context);
  if (distinct.size() < 2 && !smaller) return false;
  if (smaller) distinct.push_back(smaller);
  e->kind = ExplainKind::kQuestion;
  e->text = "The board cannot tell these apart; which happened?";
  for (size_t k = 0; k < distinct.size(); ++k) {
    const Reading& r = distinct[k]->reading;
    e->options.push_back(r);
    e->text += " (" + std::to_string(k + 1) + ") " + ReadingText(r, game);
    if (r.illegal >= 0) e->text += " [rejected: " + r.actions[r.illegal].verdict.why + "]";
  }
  return true;
}

// A legal reading that needed a stack's hidden count to reach a conquest's cost: ask, with the reading at the
// seen lower bound beside it.
void AskHiddenCount(const Simulated& chosen, const std::vector<Simulated>& sims, const BoardDiff& diff, const ObservedBoard& seen,
                    const Game& game, Explanation* e) {
  const Simulated* low = nullptr;  // the same variant with the stacks read at their lower bounds
  for (const Simulated& s : sims) {
    const Recipe& a = s.recipe;
    const Recipe& b = chosen.recipe;
    if (s.fit != Fit::kNone && a.hidden_low && a.redeploy == b.redeploy && a.die == b.die && a.die_target == b.die_target && a.die_ghouls == b.die_ghouls &&
        a.sorcery == b.sorcery && a.emptied_as_zeros == b.emptied_as_zeros) {
      low = &s;
      break;
    }
  }
  e->kind = ExplainKind::kQuestion;
  e->options.push_back(chosen.reading);
  if (low) e->options.push_back(low->reading);
  for (const std::vector<int>* list : {&diff.ghoul_targets, &diff.targets})
    for (int r : *list)
      if (!seen.regions[r].tokens_certain) e->regions.push_back(r);
  e->text = std::string("A stack hides how many tokens were placed in region") + (e->regions.size() == 1 ? " " : "s ") + IdList(e->regions);
  e->text += ": is it (1) " + ReadingText(chosen.reading, game);
  if (low) {
    e->text += ", or (2) " + ReadingText(low->reading, game);
    if (low->reading.illegal >= 0) e->text += " [rejected: " + low->reading.actions[low->reading.illegal].verdict.why + "]";
  }
  e->text += "?";
}

// SoloPlay reads the counts it sees (a move's size, a balancing's counts): a region the reading changes whose count
// a stack may hide is a question with the reading as its option, never a lower bound taken silently.
bool AskSoloHiddenCount(const Simulated& chosen, const ObservedBoard& seen, const Game& game, Explanation* e) {
  std::vector<int> hidden;
  for (int r : Differing(game, seen))
    if (!seen.regions[r].tokens_certain) hidden.push_back(r);
  if (hidden.empty()) return false;
  e->kind = ExplainKind::kQuestion;
  e->options.push_back(chosen.reading);
  e->regions = hidden;
  e->text = std::string("A stack may hide tokens in region") + (hidden.size() == 1 ? " " : "s ") + IdList(hidden);
  e->text += ": is it (1) " + ReadingText(chosen.reading, game) + "? If not, correct the count";
  return true;
}

// A conquest with more tokens than the game has in hand, while the board shows fewer tokens than the game holds in
// the conquering race's own regions (fewer for certain, or a stack's lower bound below the game's count): an earlier
// count may have been read too high (a conquest's region read as 5 when it held 4 leaves the hand one token short
// ever after). A lower-bound reading never contradicts the game's count, and a right reading of the region later is
// not a misreading the players would correct, so nothing would mend it: the players confirm those counts first (a
// count the camera misread is then amended where it was made; when they confirm the game's, the flag follows).
bool AskHiddenHand(const Reading& reading, const ObservedBoard& seen, const Game& game, Explanation* e) {
  if (reading.illegal < 0 || reading.actions[reading.illegal].verdict.code != Code::kNotEnoughTokens) return false;
  const Action& a = reading.actions[reading.illegal].action;
  if (a.type != ActionType::kConquer || a.with == With::kGhouls || a.player < 0 || a.player >= static_cast<int>(game.players().size()))
    return false;
  Game before = game;  // the game as the rejected conquest found it
  for (int k = 0; k < reading.illegal; ++k)
    if (!before.Apply(reading.actions[k].action).ok()) return false;
  const int race = before.players()[a.player].active;
  if (race < 0 || !before.turn().readied) return false;  // before readying, the hand counts what the regions can give
  const int needed = a.with == With::kDragon ? 1 : before.ConquestCost(static_cast<Race>(race), a.region).total;
  const int placed = a.tokens >= 0 ? a.tokens : needed;
  const int hand = before.civ(static_cast<Race>(race)).hand;
  if (placed < needed || placed <= hand) return false;  // too few for the region: not a question of the hand
  std::vector<int> hidden;
  std::string counts;
  int excess = 0;
  for (int r = 0; r < seen.size(); ++r) {
    const RegionState& b = before.board()[r];
    const ObservedRegion& o = seen.regions[r];
    if (r == a.region || !b.HasRace() || b.race != race || b.decline || !o.race || static_cast<int>(*o.race) != race || o.decline ||
        b.tokens <= o.tokens)
      continue;
    hidden.push_back(r);
    excess += b.tokens - o.tokens;
    counts += std::string(counts.empty() ? "" : "; ") + "region " + std::to_string(r) + ": the game holds " + std::to_string(b.tokens) +
              ", " + (o.tokens_certain ? "" : "at least ") + std::to_string(o.tokens) + " seen";
  }
  if (excess < placed - hand) return false;
  e->kind = ExplainKind::kQuestion;
  e->regions = hidden;
  e->regions.push_back(a.region);
  std::sort(e->regions.begin(), e->regions.end());
  e->text = "The conquest of region " + std::to_string(a.region) + " places " + std::to_string(placed) + " tokens, but the game has " +
            std::to_string(hand) + " in hand, and the board shows fewer tokens than the game holds (" + counts +
            "): an earlier count may have been misread; please confirm these counts (if the game's are right, the conquest breaks the rules: " +
            reading.actions[reading.illegal].verdict.why + ")";
  return true;
}

void Choose(const Game& game, const ObservedBoard& seen, const BoardDiff& diff, const std::vector<Simulated>& sims,
            const ExplainContext& context, Explanation* e) {
  // 1. the best legal readings
  std::vector<const Simulated*> legal;
  for (const Simulated& s : sims)
    if (s.fit != Fit::kNone && s.illegal_count == 0 && !s.key.empty()) legal.push_back(&s);
  if (!legal.empty()) {
    const auto best = LegalRank(**std::min_element(legal.begin(), legal.end(), [&](auto* a, auto* b) {
      return LegalRank(*a, context) < LegalRank(*b, context);
    }), context);
    std::vector<const Simulated*> group;
    for (const Simulated* s : legal)
      if (LegalRank(*s, context) == best) group.push_back(s);
    const auto awaiting = std::find_if(group.begin(), group.end(), [](const Simulated* s) { return s->awaiting; });
    if (awaiting != group.end()) {  // SoloPlay: a failed attack whose tokens are still in hand
      e->kind = ExplainKind::kPending;
      e->regions = Differing(game, seen);
      e->text = "an attack failed: its tokens come back next to the region attacked (the redeploy)";
      return;
    }
    if (AskBetween(group, sims, game, context, e)) return;
    const Simulated& chosen = *group.front();
    if (chosen.reading.hidden_count && context.ask_hidden_counts) {
      AskHiddenCount(chosen, sims, diff, seen, game, e);
      return;
    }
    if (game.solo() && context.ask_hidden_counts && !chosen.reading.actions.empty() && AskSoloHiddenCount(chosen, seen, game, e)) return;
    e->reading = chosen.reading;
    if (chosen.reading.actions.empty()) {
      e->kind = ExplainKind::kPending;
      e->regions = Differing(game, seen);
      const std::string& who = game.players()[game.current_player()].name;
      e->text = game.solo()                                         ? who + " has lifted tokens (an attack or a move is under way)"
                : game.turn().readied || game.turn().ghouls_readied ? who + " is placing tokens from hand (no redeploy yet)"
                                                                    : who + " is readying: tokens lifted into hand";
      return;
    }
    e->kind = ExplainKind::kExplained;
    e->text = ReadingText(chosen.reading, game);
    return;
  }
  // 2. no legal reading: the most plausible illegal one
  const Simulated* worst = nullptr;
  for (const Simulated& s : sims)
    if (s.fit != Fit::kNone && (!worst || IllegalRank(s, context) < IllegalRank(*worst, context))) worst = &s;
  if (worst) {
    if (context.ask_hidden_counts && AskHiddenHand(worst->reading, seen, game, e)) return;
    e->kind = ExplainKind::kIllegal;
    e->reading = worst->reading;
    e->text = e->verdict().why;
    return;
  }
  // 3. nothing fits: ask about the regions the closest reading gets wrong
  e->kind = ExplainKind::kQuestion;
  const Simulated* closest = nullptr;
  for (const Simulated& s : sims)
    if (!closest || s.misfits.size() < closest->misfits.size()) closest = &s;
  e->regions = closest ? closest->misfits : Differing(game, seen);
  if (e->regions.empty()) e->regions = Differing(game, seen);
  e->text = "No sequence of actions explains the board; please check region";
  e->text += e->regions.size() == 1 ? " " : "s ";
  for (size_t k = 0; k < e->regions.size(); ++k) e->text += (k ? ", " : "") + std::to_string(e->regions[k]);
  if (closest) e->text += " (closest reading: " + ReadingText(closest->reading, game) + ")";
}

}  // namespace

std::string_view ToString(ExplainKind kind) {
  switch (kind) {
    case ExplainKind::kNoChange: return "no_change";
    case ExplainKind::kExplained: return "explained";
    case ExplainKind::kIllegal: return "illegal";
    case ExplainKind::kQuestion: return "question";
    case ExplainKind::kPending: return "pending";
  }
  return "";
}

const Verdict& Explanation::verdict() const {
  if (kind == ExplainKind::kIllegal && reading.illegal >= 0) return reading.actions[reading.illegal].verdict;
  return kOkVerdict;
}

namespace {

// A SoloPlay game, steps 3-5 (explain_solo.h). The active race shown on its decline side before the end_turn that
// declines it is told is read as it was (pending until the end of the turn is told).
void ExplainSoloChange(const Game& committed, const ObservedBoard& observed, const ExplainContext& context, Explanation* e) {
  bool turned = false;
  const ObservedBoard seen = UndeclinedSeen(committed, observed, &turned);
  if (turned && Differing(committed, seen).empty()) {  // only the decline: nothing to judge before the end_turn
    if (!context.turn_ending) {
      e->kind = ExplainKind::kPending;
      e->regions = Differing(committed, observed);
      e->text = "the " + std::string(Info(static_cast<Race>(committed.players()[0].active)).name) +
                " are turned to their decline side: say end_turn with decline";
    }
    return;
  }
  const SoloDiff diff = DiffSoloBoard(committed, seen);
  if (!diff.suspects.empty()) {
    e->kind = ExplainKind::kQuestion;
    e->regions = diff.suspects;
    e->text = "The board shows what no action allows now; please check: " + diff.suspect_text;
    return;
  }
  std::vector<Simulated> sims;
  e->bounded = !SimulateSolo(committed, seen, diff, context, context.max_readings, &sims, &e->simulated);
  Choose(committed, seen, BoardDiff{}, sims, context, e);
}

}  // namespace

Explanation Explain(const Game& committed, const ObservedBoard& seen, const ExplainContext& context) {
  Explanation e;
  // 1. the observation covers the map
  if (seen.size() != committed.map().size()) {
    e.kind = ExplainKind::kQuestion;
    e.text = "the observation lists " + std::to_string(seen.size()) + " regions; the map has " + std::to_string(committed.map().size());
    return e;
  }
  // 2. nothing changed
  const std::vector<int> changed = Differing(committed, seen);
  Action end;
  end.player = committed.current_player();
  if (changed.empty() && (!context.turn_ending || committed.Check(end) == Code::kOk)) {
    if (context.turn_ending && !committed.solo()) {
      e.regions = MovesHiddenAtTurnEnd(committed, seen);
      if (!e.regions.empty()) {
        e.kind = ExplainKind::kQuestion;
        e.text = "The turn ends: the Amazons' conquest-only tokens leave the board and defenders place the tokens they "
                 "withdrew, but stacks hide whether and where; please confirm the counts of these regions";
      }
    } else if (context.turn_ending) {
      e.regions = BalancingHiddenAtPlacementEnd(committed, seen);
      if (!e.regions.empty()) {
        e.kind = ExplainKind::kQuestion;
        e.text = "The placement of the " + std::string(Info(static_cast<Race>(committed.SoloRace())).name) +
                 " ends with their balancing, but stacks hide whether it moved tokens in region" +
                 (e.regions.size() == 1 ? " " : "s ") + IdList(e.regions) + "; please confirm the counts";
      }
    }
    return e;
  }
  if (committed.finished()) {
    e.kind = ExplainKind::kQuestion;
    e.regions = changed;
    e.text = "the game is over, but the board changed";
    return e;
  }
  if (committed.solo()) {
    ExplainSoloChange(committed, seen, context, &e);
    return e;
  }
  // 3. what changed; readings no action can make are questions
  const BoardDiff diff = DiffBoard(committed, seen);
  if (!diff.suspects.empty()) {
    e.kind = ExplainKind::kQuestion;
    e.regions = diff.suspects;
    e.text = "The board shows what no action allows now; please check: " + diff.suspect_text;
    return e;
  }
  // 4. every reading worth trying, simulated and fitted, within the bound
  std::vector<Simulated> sims;
  for (const Recipe& recipe : Recipes(committed, seen, diff, context)) {
    const int budget = context.max_readings - e.simulated;
    if (budget <= 0) {
      e.bounded = true;
      break;
    }
    int simulated = 0;
    if (!Simulate(committed, seen, diff, recipe, context, budget, &sims, &simulated)) e.bounded = true;
    e.simulated += simulated;
  }
  // 5. the choice
  Choose(committed, seen, diff, sims, context, &e);
  return e;
}

Verdict ApplyReading(Game* game, const Reading& reading, bool house, std::vector<Action>* applied) {
  for (const ExplainedAction& step : reading.actions) {
    Action a = step.action;
    Verdict v = game->Apply(a);
    if (!v.ok() && house && a.type == ActionType::kConquer) {
      bool ruled = false;
      v = game->ApplyHouseRuling(a, &ruled);
      if (!ruled) return v;
      a.house_ruling = true;
    } else if (!v.ok()) {
      return v;
    }
    if (applied) applied->push_back(a);
  }
  return Verdict{};
}

nlohmann::ordered_json ToJson(const Explanation& e, const std::vector<std::string>& players) {
  auto actions = [&](const Reading& r) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const ExplainedAction& a : r.actions) {
      const nlohmann::json action = ToJson(a.action, players);
      nlohmann::ordered_json j;
      j["player"] = action["player"];  // the record's key order: player, do, the rest
      j["do"] = action["do"];
      for (const auto& [k, v] : action.items()) j[k] = v;
      if (!a.judged) {
        j["judged"] = false;
      } else {
        j["ok"] = a.verdict.ok();
        if (!a.verdict.ok()) j["code"] = ToString(a.verdict.code), j["why"] = a.verdict.why;
      }
      list.push_back(j);
    }
    return list;
  };
  nlohmann::ordered_json j;
  j["kind"] = ToString(e.kind);
  j["text"] = e.text;
  j["actions"] = actions(e.reading);
  j["options"] = nlohmann::ordered_json::array();
  for (const Reading& r : e.options) j["options"].push_back(actions(r));
  j["regions"] = e.regions;
  return j;
}

}  // namespace swref::engine
