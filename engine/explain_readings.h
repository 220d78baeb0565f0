// The readings of a board change (a part of Explain, explain.h): what the difference between the committed board
// and the observation says (DiffBoard), the variants worth trying (Recipes), and each variant built into a
// sequence of actions, simulated on a copy of the game and fitted to the observation (Simulate).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/explain.h"
#include "engine/explain_match.h"
#include "engine/game.h"
#include "engine/observed.h"

namespace swref::engine {

struct BoardDiff {
  int player = 0;                  // the current player, the only one who conquers
  int race = -1;                   // the race seen conquering: the active race, or one the board implies
  int pick_slot = -1;              // a pick the board implies: the race seen is in the column at this slot
  bool decline = false;            // the active race shows its in-decline side
  bool decline_turn = false;       // a decline turn: the targets are conquests the rules forbid
  std::vector<int> targets;        // regions newly showing the conquering race
  std::vector<int> ghoul_targets;  // regions newly showing the player's in-decline Ghouls
  std::vector<int> emptied;        // regions of the active race now empty
  std::vector<int> suspects;       // readings no action of this turn can make
  std::string suspect_text;        // what is wrong with the first suspects, for the question
};

BoardDiff DiffBoard(const Game& game, const ObservedBoard& seen);

// One variant of the reading.
struct Recipe {
  enum class Die : uint8_t { kUnused, kOnConquest, kFailed };
  bool redeploy = false;          // the active race's tokens are placed as seen (this ends its conquests)
  bool emptied_as_zeros = false;  // emptied regions are the redeploy's zeros (Amazons), not abandons
  Die die = Die::kUnused;         // the told die: a conquest's roll, a failed attempt, or not in this change
  int die_target = -1;            // kOnConquest, not Berserk: index in targets of the final, reinforced conquest
  bool die_ghouls = false;        // the die is the in-decline Ghouls' (die_target indexes ghoul_targets)
  uint32_t sorcery = 0;           // bit i: targets[i] converted by the Sorcerers rather than conquered
  bool hidden_low = false;        // stacks read at their seen lower bound, not filled up to the cost
};

// The variants in order of plausibility (the first ones survive the search bound).
std::vector<Recipe> Recipes(const Game& game, const ObservedBoard& seen, const BoardDiff& diff, const ExplainContext& context);

struct Simulated {
  Reading reading;
  Recipe recipe;
  Fit fit = Fit::kNone;
  int illegal_count = 0;     // rejected actions in the reading
  std::string key;           // StateKey of the resulting game; empty when the game could not follow
  std::vector<int> misfits;  // regions that do not read as seen
  bool awaiting = false;     // SoloPlay: a failed attempt whose tokens have not come back: not to commit yet
};

// Builds, simulates and fits the readings of one recipe (several when the redeploy's split among stacks is open),
// appending them to `out` and counting every simulation in `*simulated` (at most `budget` in all). Conquests come
// in the greedy order; when that gives no legal reading, every other order of up to 4 targets is tried until one
// does (kept alone). Returns false when a bound cut some off. A reading that needed
// hidden stacks to hold tokens the camera could not see fits at best loosely; with context.turn_ending, a reading
// after which the turn could not end (tokens left in hand) does not fit.
bool Simulate(const Game& committed, const ObservedBoard& seen, const BoardDiff& diff, const Recipe& recipe, const ExplainContext& context,
              int budget, std::vector<Simulated>* out, int* simulated);

// The pieces the race's redeploy places as `seen` shows them on the race's regions of `b`: the encampments when they
// differ (Bivouacking), a new fortress (Fortified), the heroes when they moved (Heroic, at most 2). Whether any.
bool SeenPieces(const Board& b, const ObservedBoard& seen, int race, Power power, Action* a);

// "3 Trolls", "2+ Elves in decline" (a stack), "a lost tribe", "no race": a region as seen, and as the game has it.
std::string SeenText(const ObservedRegion& seen);
std::string WasText(const RegionState& state);
// The regions whose readings no action can make now, each with why (the questions of DiffBoard and DiffSoloBoard).
class SuspectList {
 public:
  void Add(int region, const std::string& why);
  // Whether the region needs no more looking at: it reads as the board, or its reading is one no action ever makes (a
  // low-confidence reading, a mountain moving, a lost tribe coming back; then added).
  bool Settled(int region, const RegionState& state, const ObservedRegion& seen);
  // The regions, sorted once each, and the first three reasons.
  void Into(std::vector<int>* regions, std::string* text) const;

 private:
  std::vector<int> regions_;
  std::vector<std::string> notes_;
};
// Who holds a race on the board: a player's name, or in a SoloPlay game "the opposition" (owner kOpposition, which
// is no index into the game's players).
std::string OwnerName(const Game& game, int owner);

// Limits both readings share (explain_readings.cpp; explain_solo_readings.cpp and explain_solo_runner.cpp).
constexpr int kMaxSorceryTargets = 3;  // targets tried both as conversions and as conquests (2^3 masks)
constexpr int kMaxOrdered = 4;         // targets whose every order is tried when the greedy order is not legal (4! = 24)

inline bool IsBerserk(const Game& game, int race) { return race >= 0 && game.civs()[race].power == Power::kBerserk; }

// The uses of a told die face: each of the first targets as the reinforced final conquest (Berserk: the roll of the
// first conquest), an attempt that failed, the same for in-decline Ghouls when `ghouls`, or not in this change at all
// (always last).
std::vector<Recipe> DieVariants(const ExplainContext& context, bool berserk, size_t targets, bool ghouls, size_t ghoul_targets);

// The order of conquests that keeps each legal when it comes, if one exists: repeatedly the first target left whose
// conquest `legal_now(i, last)` accepts (in a first pass only those `preferred`, when `prefer`: regions seen with a
// Halflings' hole), else the first one `allowed(i, last)` (a reinforced conquest comes last); `conquer(i, last)` makes
// it.
void GreedyConquests(size_t count, bool prefer, const std::function<bool(int)>& preferred, const std::function<bool(int, bool)>& allowed,
                     const std::function<bool(int, bool)>& legal_now, const std::function<void(int, bool)>& conquer);

// Both readings' conquests of `targets` (explain_readings.cpp, explain_solo_runner.cpp): in the order given
// (indices into `targets`, when the greedy order was not legal), else by GreedyConquests, with the regions seen with a
// hole first when `holes` and the reinforced conquest of the recipe last (not for a Berserk roll). `run` provides
// LegalNow(i, ghouls, last), whether the i-th target's conquest is legal now, and Take(i, ghouls, last), which makes it.
template <typename Run>
void ConquerTargets(Run& run, const std::vector<int>& targets, const std::vector<int>& order, bool ghouls, bool holes, bool berserk,
                    const Recipe& recipe, const ObservedBoard& seen) {
  if (!ghouls && !order.empty()) {
    for (size_t k = 0; k < order.size(); ++k) run.Take(order[k], false, k + 1 == order.size());
    return;
  }
  GreedyConquests(
      targets.size(), holes, [&](int i) { return seen.regions[targets[i]].hole > 0; },
      [&](int i, bool last) {
        return last || ghouls != recipe.die_ghouls || recipe.die != Recipe::Die::kOnConquest || (!ghouls && berserk) ||
               i != recipe.die_target;
      },
      [&](int i, bool last) { return run.LegalNow(i, ghouls, last); }, [&](int i, bool last) { run.Take(i, ghouls, last); });
}

// "conquer 13 (4 tokens, die 2)", "redeploy", "withdraw (Bob)": a short name of an action for the texts.
std::string DescribeAction(const Action& action, const std::vector<PlayerState>& players);

}  // namespace swref::engine
