// Readings of a board change: the variants worth trying and each one built, simulated and fitted (explain_readings.h).
#include "engine/explain_readings.h"

#include <algorithm>
#include <numeric>

#include "engine/table_script.h"

namespace swref::engine {
namespace {

constexpr int kMaxDieTargets = 4;      // targets tried as the reinforced final conquest
constexpr int kMaxSplits = 8;          // ways to share a redeploy's hidden tokens among several stacks

// Builds one reading: every action goes through the game while the game can take it (a rejected conquest as a
// house ruling); once it cannot, the rest is laid on a plain board as the players would have laid it.
class Runner {
 public:
  // `order` (may be empty: greedy) is the order of the active race's conquests, as indices into diff.targets.
  Runner(const Game& committed, const ObservedBoard& seen, const BoardDiff& diff, const Recipe& recipe, const ExplainContext& context,
         const std::vector<int>& order)
      : seen_(seen), diff_(diff), recipe_(recipe), die_(context.die), turn_ending_(context.turn_ending), order_(order), game_(committed),
        strict_(seen.regions.size(), false) {}

  const Game& game() const { return game_; }
  const Board& board() const { return stuck_ ? board_ : game_.board(); }
  bool stuck() const { return stuck_; }

  void Do(const Action& a) {
    const int index = static_cast<int>(reading_.actions.size());
    if (stuck_) {
      reading_.actions.push_back({a, Verdict{}, false});
      LayDown(a);
      return;
    }
    const Verdict v = game_.Apply(a);
    reading_.actions.push_back({a, v, true});
    if (v.ok()) return;
    if (reading_.illegal < 0) reading_.illegal = index;
    ++illegal_;
    bool applied = false;
    if (a.type == ActionType::kConquer) game_.ApplyHouseRuling(a, &applied);
    if (applied) return;
    stuck_ = true;  // the player's own regions readied as for a conquest, then the action as the table shows it
    board_ = a.type == ActionType::kConquer ? AttemptedBoard(game_, a, diff_.race) : game_.board();
    LayDown(a);
  }

  void ConquerAll(const std::vector<int>& targets, bool ghouls);
  bool LegalNow(int i, bool ghouls, bool last);  // for ConquerTargets
  void Take(int i, bool ghouls, bool last);
  bool FailedAttempt(bool ghouls);
  std::vector<Action> Redeploys();
  void GhoulRedeploy();
  void Withdrawals();
  Simulated Finish();

 private:
  Action Conquest(int index, bool ghouls, bool last);
  std::vector<std::vector<int>> Splits(const std::vector<Placement>& placement, const std::vector<int>& hidden, int total) const;

  // The physical effect of an action the game could not take: what the observation shows there.
  void LayDown(const Action& a) {
    switch (a.type) {
      case ActionType::kConquer:
        board_[a.region] = StateOf(seen_.regions[a.region], a.player);
        break;
      case ActionType::kAbandon: board_[a.region].ClearOccupant(); break;
      case ActionType::kRedeploy:
        for (const Placement& p : a.placement) {
          if (p.count == 0) board_[p.region].ClearOccupant();
          else board_[p.region].tokens = static_cast<uint8_t>(p.count);
        }
        break;
      case ActionType::kWithdraw:
        for (const Placement& p : a.placement) board_[p.region].tokens = static_cast<uint8_t>(board_[p.region].tokens + p.count);
        break;
      default: break;
    }
  }

  const ObservedBoard& seen_;
  const BoardDiff& diff_;
  const Recipe& recipe_;
  const int die_;
  const bool turn_ending_;
  const std::vector<int>& order_;
  Game game_;
  Board board_;
  bool stuck_ = false;
  Reading reading_;
  int illegal_ = 0;
  bool die_spent_ = false;
  bool assumed_ = false;  // hidden stacks were given tokens the camera could not see (a redeploy's conservation)
  std::vector<bool> strict_;
};

Action Runner::Conquest(int index, bool ghouls, bool last) {
  const std::vector<int>& list = ghouls ? diff_.ghoul_targets : diff_.targets;
  const int region = list[index];
  const ObservedRegion& o = seen_.regions[region];
  const int race = ghouls ? static_cast<int>(Race::kGhouls) : diff_.race;
  Action a;
  a.type = ActionType::kConquer;
  a.player = diff_.player;
  a.region = region;
  if (ghouls) a.with = With::kGhouls;
  else if (recipe_.sorcery & (1u << index)) a.with = With::kSorcery;
  else if (o.dragon > 0 && board()[region].dragon == 0) a.with = With::kDragon;
  const bool berserk = !ghouls && a.with == With::kNone && IsBerserk(game_, race);
  if (ghouls == recipe_.die_ghouls && recipe_.die == Recipe::Die::kOnConquest && !die_spent_ && (a.with == With::kNone || ghouls) &&
      (berserk || (index == recipe_.die_target && last)))
    a.die = die_, die_spent_ = true;
  if (a.with == With::kSorcery || (a.die >= 0 && !berserk)) return a;  // one token; all the hand
  if (recipe_.redeploy && !ghouls) return a;                          // the cost: the redeploy sets the count
  a.tokens = o.tokens;
  if (o.tokens_certain || stuck_ || race < 0) return a;
  int cost = a.with == With::kDragon ? 1 : game_.ConquestCost(static_cast<Race>(race), region, ghouls).total;
  if (a.die >= 0) cost = std::max(cost - a.die, 1);
  if (o.tokens >= cost || recipe_.hidden_low) return a;
  // A stack seen from above: at least its cost, as the rules require, when the hand holds that many.
  const int hand = HandOnceReadied(game_, race, ghouls);
  a.tokens = std::max(o.tokens, std::min(cost, hand));
  reading_.hidden_count = reading_.hidden_count || a.tokens > o.tokens;
  return a;
}

// Conquests in an order that keeps each legal when it comes, if one exists: repeatedly the first target legal now.
// Halflings' first two conquests get the holes, so regions seen with a hole go first; a reinforced conquest last.
void Runner::ConquerAll(const std::vector<int>& targets, bool ghouls) {
  const bool holes = !ghouls && diff_.race == static_cast<int>(Race::kHalflings) && game_.civ(Race::kHalflings).holes_granted < 2;
  ConquerTargets(*this, targets, order_, ghouls, holes, IsBerserk(game_, diff_.race), recipe_, seen_);
}

bool Runner::LegalNow(int i, bool ghouls, bool last) {
  const bool keep_die = die_spent_;
  const Action a = Conquest(i, ghouls, last);
  die_spent_ = keep_die;
  return !stuck_ && game_.Check(a) == Code::kOk;
}

void Runner::Take(int i, bool ghouls, bool last) {
  Do(Conquest(i, ghouls, last));
  strict_[(ghouls ? diff_.ghoul_targets : diff_.targets)[i]] = true;
}

// A reinforcement attempt that failed puts nothing on the board; its region is the first where the attempt was
// legal and fails with the face told (every such region leaves the same game).
bool Runner::FailedAttempt(bool ghouls) {
  const int race = ghouls ? game_.DeclinedGhouls(diff_.player) : diff_.race;
  if (stuck_ || race < 0) return false;
  const int hand = HandOnceReadied(game_, race, ghouls);
  const bool berserk = !ghouls && IsBerserk(game_, race);
  Action a;
  a.type = ActionType::kConquer;
  a.player = diff_.player;
  a.die = die_;
  if (ghouls) a.with = With::kGhouls;
  for (a.region = 0; a.region < game_.map().size(); ++a.region) {
    if (game_.Check(a) != Code::kOk) continue;
    const int cost = game_.ConquestCost(static_cast<Race>(race), a.region, ghouls).total;
    if (berserk ? hand < std::max(cost - die_, 1) : hand + die_ < cost) {
      Do(a);
      die_spent_ = true;
      return true;
    }
  }
  return false;
}

// The ways to give `total` tokens to the placement: certain counts as seen, each hidden stack at least its lower
// bound, the rest shared among the stacks (at most kMaxSplits ways).
std::vector<std::vector<int>> Runner::Splits(const std::vector<Placement>& placement, const std::vector<int>& hidden, int total) const {
  std::vector<int> base;
  int sum = 0;
  for (const Placement& p : placement) base.push_back(p.count), sum += p.count;
  const int rest = total - sum;
  if (hidden.empty() || rest <= 0) return {base};
  std::vector<std::vector<int>> out;
  std::vector<int> share(hidden.size(), 0);
  auto fill = [&](auto&& self, size_t k, int left) -> void {
    if (static_cast<int>(out.size()) > kMaxSplits) return;
    if (k + 1 == hidden.size()) {
      std::vector<int> counts = base;
      share[k] = left;
      for (size_t j = 0; j < hidden.size(); ++j) counts[hidden[j]] += share[j];
      out.push_back(counts);
      return;
    }
    for (int x = left; x >= 0; --x) share[k] = x, self(self, k + 1, left - x);
  };
  fill(fill, 0, rest);
  return out;
}

// The active race's redeploys that lay its tokens as seen: one per way of sharing hidden tokens among stacks.
std::vector<Action> Runner::Redeploys() {
  const int race = game_.players()[diff_.player].active;
  if (race < 0) return {};
  const Board& b = board();
  Action a;
  a.type = ActionType::kRedeploy;
  a.player = diff_.player;
  std::vector<int> hidden;
  for (int i = 0; i < seen_.size(); ++i) {
    if (b[i].race != race) continue;
    const ObservedRegion& o = seen_.regions[i];
    const bool kept = o.race && static_cast<int>(*o.race) == race && !o.decline;
    if (kept && !o.tokens_certain) hidden.push_back(static_cast<int>(a.placement.size()));
    a.placement.push_back({i, kept ? o.tokens : 0});
  }
  SeenPieces(b, seen_, race, game_.civs()[race].power, &a);
  std::vector<Action> out;
  int seen_sum = 0;
  for (const Placement& p : a.placement) seen_sum += p.count;
  assumed_ = !hidden.empty() && seen_sum < RedeployTotal(game_, race, false);
  for (const std::vector<int>& counts : Splits(a.placement, hidden, RedeployTotal(game_, race, false))) {
    for (size_t k = 0; k < counts.size(); ++k) a.placement[k].count = counts[k];
    out.push_back(a);
  }
  return out;
}

// In-decline Ghouls whose regions show their tokens moved and every one of them placed: their redeploy.
void Runner::GhoulRedeploy() {
  const int ghouls = game_.DeclinedGhouls(diff_.player);
  if (ghouls < 0 || stuck_) return;
  Action a;
  a.type = ActionType::kRedeploy;
  a.player = diff_.player;
  a.with = With::kGhouls;
  bool moved = false;
  int sum = 0, hidden = -1;
  for (int i = 0; i < seen_.size(); ++i) {
    if (game_.board()[i].race != ghouls) continue;
    const ObservedRegion& o = seen_.regions[i];
    const bool kept = o.race == Race::kGhouls && o.decline;
    const int n = kept ? o.tokens : 0;
    if (kept && !o.tokens_certain) hidden = static_cast<int>(a.placement.size());
    moved = moved || n != game_.board()[i].tokens;
    sum += n;
    a.placement.push_back({i, n});
  }
  const int total = RedeployTotal(game_, ghouls, true);
  if (hidden >= 0 && sum < total && turn_ending_) a.placement[hidden].count += total - sum, sum = total, assumed_ = true;
  if (moved && sum == total) Do(a);
}

// Defenders placing withdrawn tokens, clockwise from the active player: what each one's regions gained.
void Runner::Withdrawals() {
  const int n = game_.player_count();
  for (int k = 1; k < n; ++k) {
    const int d = (diff_.player + k) % n;
    Action a;
    a.type = ActionType::kWithdraw;
    a.player = d;
    const Board& b = board();
    for (int i = 0; i < seen_.size(); ++i) {
      const ObservedRegion& o = seen_.regions[i];
      if (b[i].owner != d || !b[i].HasRace() || !o.race || *o.race != b[i].race_id() || o.decline != b[i].decline) continue;
      if (o.tokens > b[i].tokens) a.placement.push_back({i, o.tokens - b[i].tokens});
      if (o.encampments > b[i].encampments) a.encampments.push_back({i, o.encampments - b[i].encampments});
    }
    a.has_encampments = !a.encampments.empty();
    if (!a.placement.empty() || a.has_encampments) Do(a);
  }
}

Simulated Runner::Finish() {
  Simulated s;
  s.recipe = recipe_;
  s.illegal_count = illegal_;
  reading_.die_used = die_spent_;
  const std::vector<LooseRace> loose = LooseRaces(game_);
  s.fit = FitBoard(board(), loose, seen_, strict_, &s.misfits);
  if (s.fit == Fit::kExact && assumed_) s.fit = Fit::kLoose;  // exact only by what the rules made of hidden stacks
  if (turn_ending_ && !stuck_ && s.fit != Fit::kNone) {     // the turn ends: no token may be left in hand
    Action end;
    end.player = diff_.player;
    if (game_.Check(end) != Code::kOk) s.fit = Fit::kNone;
  }
  reading_.exact = s.fit == Fit::kExact;
  if (!stuck_) s.key = StateKey(game_);
  s.reading = reading_;
  return s;
}

}  // namespace

std::vector<Recipe> DieVariants(const ExplainContext& context, bool berserk, size_t targets, bool ghouls, size_t ghoul_targets) {
  std::vector<Recipe> dies;
  Recipe r;
  if (context.die >= 0) {
    r.die = Recipe::Die::kOnConquest;
    if (berserk) {
      if (targets > 0) dies.push_back(r);
    } else {
      for (int i = 0; i < static_cast<int>(targets) && i < kMaxDieTargets; ++i) r.die_target = i, dies.push_back(r);
    }
    r.die_target = -1;
    r.die = Recipe::Die::kFailed;
    dies.push_back(r);
    if (ghouls) {
      r.die_ghouls = true;
      r.die = Recipe::Die::kOnConquest;
      for (int i = 0; i < static_cast<int>(ghoul_targets) && i < kMaxDieTargets; ++i) r.die_target = i, dies.push_back(r);
      r.die_target = -1;
      r.die = Recipe::Die::kFailed;
      dies.push_back(r);
    }
  }
  dies.push_back(Recipe{});
  return dies;
}

void GreedyConquests(size_t count, bool prefer, const std::function<bool(int)>& preferred, const std::function<bool(int, bool)>& allowed,
                     const std::function<bool(int, bool)>& legal_now, const std::function<void(int, bool)>& conquer) {
  std::vector<int> left(count);
  for (size_t i = 0; i < left.size(); ++i) left[i] = static_cast<int>(i);
  while (!left.empty()) {
    const bool last = left.size() == 1;
    int pick = -1;
    for (int pass = prefer ? 0 : 1; pass < 2 && pick < 0; ++pass)
      for (int i : left)
        if (allowed(i, last) && (pass == 1 || preferred(i)) && legal_now(i, last)) {
          pick = i;
          break;
        }
    for (size_t k = 0; pick < 0 && k < left.size(); ++k)
      if (allowed(left[k], last)) pick = left[k];
    conquer(pick, last);
    left.erase(std::find(left.begin(), left.end(), pick));
  }
}

bool SeenPieces(const Board& b, const ObservedBoard& seen, int race, Power power, Action* a) {
  bool camps_differ = false, heroes_differ = false;
  for (int i = 0; i < seen.size(); ++i) {
    if (b[i].race != race) continue;
    const ObservedRegion& o = seen.regions[i];
    const bool kept = o.race && static_cast<int>(*o.race) == race && !o.decline;
    if (kept && o.encampments > 0) a->encampments.push_back({i, o.encampments});
    camps_differ = camps_differ || (kept ? o.encampments : 0) != b[i].encampments;
    if (kept && o.fortress > b[i].fortress && a->fortress < 0) a->fortress = i;
    if (kept && o.hero > 0) a->heroes.push_back(i);
    heroes_differ = heroes_differ || b[i].hero != o.hero;
  }
  a->has_encampments = camps_differ && power == Power::kBivouacking;
  if (!a->has_encampments) a->encampments.clear();
  if (power != Power::kHeroic || !heroes_differ || a->heroes.size() > 2) a->heroes.clear();
  return a->has_encampments || a->fortress >= 0 || !a->heroes.empty();
}

std::vector<Recipe> Recipes(const Game& game, const ObservedBoard& seen, const BoardDiff& diff, const ExplainContext& context) {
  const bool can_redeploy = diff.race >= 0 && !diff.decline && !diff.decline_turn && !game.turn().declined;
  std::vector<int> sorcery;  // targets that may be conversions: one Sorcerer where another player's race stood
  if (diff.race == static_cast<int>(Race::kSorcerers))
    for (size_t i = 0; i < diff.targets.size() && sorcery.size() < kMaxSorceryTargets; ++i) {
      const RegionState& b = game.board()[diff.targets[i]];
      const ObservedRegion& o = seen.regions[diff.targets[i]];
      const bool lone = b.tokens == 1 && !b.decline;  // a legal target, whatever count a redeploy left there since
      if (b.HasRace() && b.owner != diff.player && ((o.tokens == 1 && o.tokens_certain) || lone)) sorcery.push_back(static_cast<int>(i));
    }
  const std::vector<Recipe> dies = DieVariants(context, IsBerserk(game, diff.race), diff.targets.size(),
                                               game.DeclinedGhouls(diff.player) >= 0, diff.ghoul_targets.size());
  bool hidden = false;  // a target's count is a stack's lower bound: also read it as it is seen
  for (int i : diff.targets) hidden = hidden || !seen.regions[i].tokens_certain;
  for (int i : diff.ghoul_targets) hidden = hidden || !seen.regions[i].tokens_certain;
  std::vector<Recipe> out;
  for (bool redeploy : {false, true}) {
    if (redeploy && !can_redeploy) continue;
    for (bool zeros : {false, true}) {
      if (zeros && (!redeploy || diff.emptied.empty())) continue;
      for (const Recipe& d : dies) {
        const uint32_t full = (1u << sorcery.size()) - 1;
        for (uint32_t m = full + 1; m-- > 0;) {
          uint32_t mask = 0;
          for (size_t k = 0; k < sorcery.size(); ++k)
            if (m & (1u << k)) mask |= 1u << sorcery[k];
          for (bool low : {false, true}) {
            if (low && !hidden) continue;
            Recipe x = d;
            x.redeploy = redeploy, x.emptied_as_zeros = zeros, x.sorcery = mask, x.hidden_low = low;
            out.push_back(x);
          }
        }
      }
    }
  }
  return out;
}

namespace {

// One recipe with one order of the conquests (empty: greedy).
bool SimulateOrder(const Game& committed, const ObservedBoard& seen, const BoardDiff& diff, const Recipe& recipe, const ExplainContext& context,
                   const std::vector<int>& order, int budget, std::vector<Simulated>* out) {
  Runner run(committed, seen, diff, recipe, context, order);
  // 1. off-board actions the board implies
  if (diff.pick_slot >= 0) {
    Action a;
    a.type = ActionType::kPick, a.player = diff.player, a.slot = diff.pick_slot;
    run.Do(a);
  }
  if (diff.decline) {
    Action a;
    a.type = ActionType::kDecline, a.player = diff.player;
    run.Do(a);
  }
  // 2. in-decline Ghouls conquer first, then place their tokens
  run.ConquerAll(diff.ghoul_targets, true);
  if (recipe.die == Recipe::Die::kFailed && recipe.die_ghouls && !run.FailedAttempt(true)) return true;
  run.GhoulRedeploy();
  // 3. abandons, before the turn's first conquest
  if (!recipe.emptied_as_zeros)
    for (int region : diff.emptied) {
      Action a;
      a.type = ActionType::kAbandon, a.player = diff.player, a.region = region;
      run.Do(a);
    }
  // 4. the conquests, and a reinforcement attempt that failed
  run.ConquerAll(diff.targets, false);
  if (recipe.die == Recipe::Die::kFailed && !recipe.die_ghouls && !run.FailedAttempt(false)) return true;
  // 5. the redeploy (one reading per way to share hidden tokens), then the defenders' withdrawals
  if (!recipe.redeploy) {
    run.Withdrawals();
    out->push_back(run.Finish());
    return true;
  }
  const std::vector<Action> redeploys = run.Redeploys();
  for (size_t k = 0; k < redeploys.size() && k < kMaxSplits; ++k) {
    if (static_cast<int>(k) == budget) return false;
    Runner branch = run;
    branch.Do(redeploys[k]);
    branch.Withdrawals();
    out->push_back(branch.Finish());
  }
  return redeploys.size() <= kMaxSplits;
}

}  // namespace

bool Simulate(const Game& committed, const ObservedBoard& seen, const BoardDiff& diff, const Recipe& recipe, const ExplainContext& context,
              int budget, std::vector<Simulated>* out, int* simulated) {
  const size_t first = out->size();
  bool complete = SimulateOrder(committed, seen, diff, recipe, context, {}, budget, out);
  *simulated += static_cast<int>(out->size() - first);
  auto legal = [](const Simulated& s) { return s.fit != Fit::kNone && s.illegal_count == 0; };
  if (std::any_of(out->begin() + first, out->end(), legal) || diff.targets.size() < 2) return complete;
  if (diff.targets.size() > kMaxOrdered) return false;
  // Orders matter (a first conquest, adjacency, a Giants' discount): try every other one until one is legal.
  std::vector<int> order(diff.targets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  while (std::next_permutation(order.begin(), order.end())) {
    if (*simulated >= budget) return false;
    std::vector<Simulated> tried;
    complete = SimulateOrder(committed, seen, diff, recipe, context, order, budget - *simulated, &tried) && complete;
    *simulated += static_cast<int>(tried.size());
    for (Simulated& s : tried)
      if (legal(s)) {
        out->push_back(std::move(s));
        return complete;
      }
  }
  return complete;
}

}  // namespace swref::engine
