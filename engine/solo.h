// SoloPlay, the single-player variant (shared seeds/003; the record semantics and every decision the text leaves
// open: docs/solo.md). The types here are the variant's state and results; the rules live in Game (game.h) and
// in solo_setup.cpp (placing the opposition), solo_requirements.cpp (their placement requirements),
// solo_conquest.cpp and solo_turn.cpp (the player's turns), solo_scoring.cpp (scores, end items, rating).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/coins.h"
#include "engine/components.h"
#include "engine/map.h"

namespace swref::engine {

// Owner index of every opposition race on the board. The game's players hold only the solo player (index 0).
inline constexpr int8_t kOpposition = 1;

inline constexpr int kSoloCombos = 5;              // combos left to the player (setup rule 7)
inline constexpr int kSoloRounds = 8;              // rounds of a solo game; the easier game plays one more
inline constexpr int kSoloLateComboFee = 5;        // extra coins for the 4th and the 5th combo picked
inline constexpr int kSoloDiplomatBonus = 3;       // Diplomat: a turn that took an empty region
inline constexpr int kSoloRequirementPenalty = 5;  // opposition: each unmet race or power requirement
inline constexpr int kSoloUnplacedPenalty = 2;     // opposition: each token that could not be placed
inline constexpr int kSoloVacantPenalty = 2;       // opposition: each vacant land region after setup

struct SoloCombo {
  Race race = Race::kAmazons;
  Power power = Power::kAlchemist;
};

// What a solo record's `solo` object says (docs/solo.md). Empty lists: drawn or printed as the rules say.
struct SoloOptions {
  int coins = 5;                      // starting coins: 5, or 1 for the more challenging game
  bool extra_round = false;           // the easier game: 9 rounds
  bool has_lost_tribes = false;       // `lost_tribes` was given (an alternate setup, rule 3a/3b)
  std::vector<int> lost_tribes;       // regions holding a lost tribe at setup
  std::vector<SoloCombo> opposition;  // the opposition combos in placement order (else the top of the stacks)
  std::vector<SoloCombo> combos;      // the player's 5 combos in column order (else the next of the stacks)
};

// Opposition races placed on a board for `players` players: 3, 5, 6, 8 for 2, 3, 4, 5 (setup rule 5).
int OppositionCount(int players);

// "" when `regions` is a lost-tribe setup of rule 3 on `map` (the printed one or the alternate one, each with at
// most one lost tribe per land type moved to another region of that type), else why not, naming the place in the
// record as `solo.lost_tribes...`.
std::string CheckLostTribes(const Map& map, const std::vector<int>& regions);

// One conquest an opposition race made while it was placed: what its placement requirements look at.
struct SetupEvent {
  int region = -1;
  bool lost_tribe = false;  // the region held a lost tribe
  bool mountain = false;
  bool dragon = false;       // made with the dragon
  bool sorcery = false;      // Sorcerers' conversion of a lost tribe
  bool giants = false;       // the Giants' discount applied
  bool first = false;        // the race's first conquest (where it entered)
  bool next_to_own = false;  // the region touched a region the race already held
};

enum class Need : uint8_t { kNone, kMet, kUnmet };
std::string_view ToString(Need need);

// The placement requirements of one opposition combo: each met or unmet, or none for the race or power.
struct Requirements {
  Need race = Need::kNone;
  Need power = Need::kNone;
  int unmet() const { return (race == Need::kUnmet) + (power == Need::kUnmet); }
};

// Evaluates the requirements (setup rule 6.a, 6.b, 6.d.ii.1.a) of `race`+`power` after the conquests `events`.
Requirements EvaluateRequirements(Race race, Power power, const std::vector<SetupEvent>& events, const Map& map);
// Whether one more conquest `candidate` meets more of the requirements than `events` alone (limitations 6.c.iii.1
// let a conquest that meets a requirement take a lost tribe or skip the lowest roll).
bool MeetsRequirement(Race race, Power power, const std::vector<SetupEvent>& events, const SetupEvent& candidate, const Map& map);

struct OppositionRace {
  Race race = Race::kAmazons;
  Power power = Power::kAlchemist;
  bool placed = false;             // its placement has ended and it was scored
  std::vector<SetupEvent> events;  // its conquests during placement
  CoinBreakdown coins;             // its score by the normal rules
  Requirements requirements;
  int unplaced = 0;            // tokens it could not place (out of the game)
  bool unconquerable = false;  // after setup it held no region that could be attacked (all immune, or none)
  int kept = 0;                // its tokens the player has taken
  int penalties() const { return kSoloRequirementPenalty * requirements.unmet() + kSoloUnplacedPenalty * unplaced; }
  int total() const { return coins.total() + penalties(); }
};

// The end-of-game scoring items (Ending the Game, 1.a-f); negative items are the 2-player board's subtractions.
struct SoloEnd {
  int eliminated = 0;         // a: 3/4/5 per opposition race eliminated (3/4/5-player boards)
  int sets = 0;               // b: 6/8 per set of conquered tokens (4/5-player boards)
  int lost_tribes = 0;        // c: 2 per region still holding a lost tribe
  int defences_overcome = 0;  // d: 1 per lair, fortress or encampment overcome
  int defences_held = 0;      // e: 1 per 2 lairs, fortresses and encampments in the player's regions
  int unconquered = 0;        // f.i: -5 when a race or the lost tribes gave no token (2-player board)
  int tokens_left = 0;        // f.ii: -1 per unprotected opposition token on land (2-player board)
  int total() const { return eliminated + sets + lost_tribes + defences_overcome + defences_held + unconquered + tokens_left; }
};

enum class Rating : uint8_t { kGameLoss, kEasyVictory, kGameVictory, kMajorVictory, kCompleteVictory, kMasterVictory };
std::string_view ToString(Rating rating);
// Game Ratings: the point differential and whether the player holds every land terrain type.
Rating RatingFor(int score, bool every_terrain);

// One region of an opposition race being balanced (setup 6.c.iv).
struct BalanceCell {
  int region;
  int tokens;
  bool capped;    // water, hole, hero or dragon: exactly 1 token
  bool defended;  // lair, fortress or encampment: at least 2 tokens where the race has enough
};

enum class SoloPhase : uint8_t { kSetup, kPlay };

// Flags of the player's turn in progress that the standard TurnState does not have.
struct SoloTurn {
  bool took_empty = false;        // the active race took an empty region (Diplomat bonus)
  int failed_region = -1;         // the region of a failed conquest (its tokens return next to it)
  int ghouls_failed_region = -1;  // the same for the in-decline Ghouls' failed conquest
  bool eroding = false;           // an erosion was accepted: no more conquests or redeployment
  std::vector<Race> erosion_due;  // the in-decline races at the turn's start, most recent first
  uint16_t eroded = 0;            // bit r: race r has eroded this turn
};

struct SoloState {
  bool on = false;
  SoloPhase phase = SoloPhase::kSetup;
  int rounds = kSoloRounds;
  int placing = 0;                         // setup: the opposition race being placed
  std::vector<OppositionRace> opposition;  // in placement order
  int vacant = 0;                          // vacant land regions at the end of setup
  std::vector<SoloCombo> combos;           // still available to the player, in column order
  int picks = 0;                           // combos the player has picked
  std::vector<Race> declined;              // the player's races in decline, most recent first
  int kept_lost_tribes = 0;                // lost tribe tokens the player has taken
  int defences_overcome = 0;
  SoloTurn turn;
  bool ended = false;  // the end items were scored
  SoloEnd end;
  std::vector<Terrain> terrains_missing;  // at the end: land terrain types the player holds no region of

  int OppositionTotal() const;  // the pooled opposition score (setup scores, penalties, vacant regions)
  const OppositionRace* Opposing(Race race) const;
  OppositionRace* Opposing(Race race);
};

}  // namespace swref::engine
