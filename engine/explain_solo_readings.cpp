// Readings of a SoloPlay board change: each built in the turn's order (SoloRunner, explain_solo_runner.h), simulated
// on a copy of the game and fitted to the observation (explain_solo.h); here the variants tried and the search.
#include <algorithm>

#include "engine/explain_solo.h"
#include "engine/explain_solo_runner.h"

namespace swref::engine {
namespace {

// The variants: the die's uses, the Sorcerers' conversions (one Sorcerer where one opposition token, or at setup a
// lost tribe, stood), and whether attacks took every token their neighbouring regions lost (a move out of the
// conquered region follows; at setup: conquests at their cost, a balancing sets the counts).
std::vector<Recipe> SoloRecipes(const Game& game, const ObservedBoard& seen, const SoloDiff& diff, const ExplainContext& context) {
  std::vector<int> sorcery;
  if (diff.race == static_cast<int>(Race::kSorcerers))
    for (size_t i = 0; i < diff.targets.size() && sorcery.size() < kMaxSorceryTargets; ++i) {
      const RegionState& b = game.board()[diff.targets[i]];
      const bool lone = b.HasRace() ? b.owner == kOpposition && b.tokens == 1 : diff.setup && b.lost_tribe > 0;
      if (lone && seen.regions[diff.targets[i]].tokens == 1) sorcery.push_back(static_cast<int>(i));
    }
  std::vector<Recipe> out;
  for (bool redeploy : {false, true}) {
    if (redeploy && diff.targets.empty()) continue;
    const bool ghouls = !diff.setup && game.DeclinedGhouls(0) >= 0;
    for (const Recipe& d : DieVariants(context, IsBerserk(game, diff.race), diff.targets.size(), ghouls, diff.ghoul_targets.size())) {
      for (uint32_t m = (1u << sorcery.size()); m-- > 0;) {
        Recipe x = d;
        x.redeploy = redeploy;
        for (size_t k = 0; k < sorcery.size(); ++k)
          if (m & (1u << k)) x.sorcery |= 1u << sorcery[k];
        out.push_back(x);
      }
    }
  }
  return out;
}

// One recipe with one order of the conquests (empty: greedy) and one region for a failed attempt. Returns the number
// of regions the failed attempt could have been on (0 when the recipe has none).
int SimulateOrder(const Game& committed, const ObservedBoard& seen, const SoloDiff& diff, const Recipe& recipe,
                  const ExplainContext& context, const std::vector<int>& order, int failed_choice, std::vector<Simulated>* out) {
  SoloRunner run(committed, seen, diff, recipe, context, order, failed_choice);
  const bool failed = recipe.die == Recipe::Die::kFailed;
  if (diff.setup) {
    run.ConquerAll(false);
    if (failed && !run.FailedAttempt(false)) return run.failed_candidates();
    run.Balancing();
    out->push_back(run.Finish());
    return run.failed_candidates();
  }
  run.Pick();
  // A failed attempt whose tokens have not come back is read when they do; until then the best reading is to wait.
  // The in-decline Ghouls' attackers wait in hand while the active race goes on conquering: its conquests are read
  // meanwhile (else the board, changed by them, would fit only readings that explain the missing Ghouls otherwise,
  // as eroded).
  bool awaiting = false;
  for (bool ghouls : {true, false}) {
    run.ConquerAll(ghouls);
    if (failed && recipe.die_ghouls == ghouls) {
      if (!run.FailedAttempt(ghouls)) return run.failed_candidates();
      awaiting = run.AwaitsReturn(ghouls);
      if (awaiting) continue;
    }
    run.Redeploy(ghouls);
  }
  if (awaiting) {
    Simulated wait = run.Finish();
    wait.awaiting = true;
    out->push_back(wait);
    return 0;
  }
  run.Erosions();
  out->push_back(run.Finish());
  return run.failed_candidates();
}

// One recipe: the greedy order, and for a failed attempt each region it could have been on until one gives a legal
// reading; when none is legal, every other order of up to kMaxOrdered targets.
bool SimulateRecipe(const Game& committed, const ObservedBoard& seen, const SoloDiff& diff, const Recipe& recipe,
                    const ExplainContext& context, int budget, std::vector<Simulated>* out, int* simulated) {
  auto legal = [](const Simulated& s) { return s.fit != Fit::kNone && s.illegal_count == 0; };
  auto run = [&](const std::vector<int>& order) {
    std::vector<Simulated> tried;
    for (int choice = 0;; ++choice) {
      if (*simulated >= budget) return false;
      const size_t before = tried.size();
      const int regions = SimulateOrder(committed, seen, diff, recipe, context, order, choice, &tried);
      *simulated += static_cast<int>(tried.size() - before);
      // Another region for the failed attempt cannot mend a conquest the rules reject (the order's fault): the
      // next order is tried instead, within the same bound.
      const Reading* last = tried.size() > before ? &tried.back().reading : nullptr;
      const Action* refused = last && last->illegal >= 0 ? &last->actions[last->illegal].action : nullptr;
      const bool order_refused = refused && refused->type == ActionType::kConquer && refused->die < 0;
      const bool done =
          std::any_of(tried.begin(), tried.end(), legal) || recipe.die != Recipe::Die::kFailed || choice + 1 >= regions || order_refused;
      if (done) break;
    }
    const auto found = std::find_if(tried.begin(), tried.end(), legal);
    if (found != tried.end()) {
      out->push_back(std::move(*found));
      return true;
    }
    if (order.empty() && !tried.empty()) out->push_back(std::move(tried.front()));
    return false;
  };
  if (run({}) || diff.targets.size() < 2) return *simulated < budget;
  if (diff.targets.size() > kMaxOrdered) return false;
  std::vector<int> order(diff.targets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  while (std::next_permutation(order.begin(), order.end()))
    if (run(order) || *simulated >= budget) break;
  return *simulated < budget;
}

}  // namespace

bool SimulateSolo(const Game& committed, const ObservedBoard& seen, const SoloDiff& diff, const ExplainContext& context, int budget,
                  std::vector<Simulated>* out, int* simulated) {
  bool complete = true;
  for (const Recipe& recipe : SoloRecipes(committed, seen, diff, context)) {
    if (*simulated >= budget) return false;
    complete = SimulateRecipe(committed, seen, diff, recipe, context, budget, out, simulated) && complete;
  }
  return complete;
}

}  // namespace swref::engine
