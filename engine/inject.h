// Seeded full games with illegal conquests slipped in, of every kind the referee must flag: too few tokens, not
// adjacent, not an entry region (a first conquest inland), an immune region (hero, dragon, hole), water without
// Seafaring, a conquest on a decline turn, the Dragon misused (a second attack in a turn, or by a race that is not
// Dragon Master), the Sorcerers misused (converting several tokens, an in-decline token, an encampment's region,
// or the same opponent twice in a turn).
//
// A random legal game is played (random_game.h) with Sorcerers, Halflings, Dragon Master and Heroic near the top
// of the stacks, so that every kind has its chance. Then, replaying it, an illegal conquest is inserted before
// some of the current player's real conquests (before the end_turn of a decline turn for that kind). The rules
// reject it, which changes nothing, so the game goes on exactly as played; on the table the player made the
// illegal conquest and took it back after the flag (table_script.h shows both).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/game.h"
#include "engine/map.h"
#include "engine/record.h"
#include "engine/result.h"
#include "engine/rng.h"

namespace swref::engine {

// The standard game's kinds come first; the SoloPlay kinds (inject_solo.cpp) after them.
enum class IllegalKind : uint8_t {
  kTooFewTokens,
  kNotAdjacent,
  kNotEntryRegion,
  kImmuneRegion,
  kWaterWithoutSeafaring,
  kDeclineTurn,
  kDragonMisuse,
  kSorcererMisuse,
  kSoloNotNeighbouring,      // an attack with tokens from a region that does not neighbour the target
  kSoloWrongRetreat,         // the opposition's retreat into the wrong regions, or too few
  kSoloSecondMove,           // a second redeployment in a turn
  kSoloMoveNotNeighbouring,  // the redeployment's move to a region that does not neighbour its source
  kSoloErosionOrder,         // an erosion that takes a defended region first, or stops before its demand is met
  kSoloSetupAttack,          // a race being placed at setup attacks a race placed before it
};
inline constexpr int kStandardIllegalKindCount = 8;
inline constexpr int kIllegalKindCount = 14;
std::string_view ToString(IllegalKind kind);  // "too_few_tokens", "not_adjacent", ...

struct InjectedFlag {
  int step = 0;                                 // index of the illegal conquest in the record
  IllegalKind kind = IllegalKind::kTooFewTokens;
  Code code = Code::kOk;                        // the rejection the rules give it
};

struct InjectedGame {
  Record record;                                // replayable; every injected action is rejected, nothing else is
  std::vector<InjectedFlag> flags;
};

struct InjectOptions {
  int per_kind = 2;      // at most this many illegal conquests of each kind in a game
  double rate = 0.25;    // the chance to inject one at each opportunity, until the kind has its count
};

Result<InjectedGame> PlayInjectedGame(const std::shared_ptr<const Map>& map, uint64_t seed, const InjectOptions& options = {});

// The same for a SoloPlay game (inject_solo.cpp): a random solo game (random_game.h) replayed with illegal solo
// actions of the kSolo* kinds slipped in before the player's real ones (an attack, a redeploy, an erosion, an end of
// turn, a setup conquest). Each is rejected, so the game goes on as played; on the table the player made it and took
// it back (table_script.h, SoloAttemptedBoard).
Result<InjectedGame> PlayInjectedSoloGame(const std::shared_ptr<const Map>& map, uint64_t seed, const InjectOptions& options = {});
// An illegal solo action of `kind` the player could make in `game` just before `next` (`previous`, may be null: the
// action before it), or nothing. A second redeployment follows only a redeploy the table shows (one that moved or added
// tokens): a redeploy that changed nothing cannot be seen, so a move after it looks like the turn's first.
std::optional<Action> IllegalSoloAction(const Game& game, IllegalKind kind, const Action& next, const Action* previous, Rng& rng);

// An illegal conquest of `kind` the current player could make in `game` just before `next` (the action the player
// is about to make: a conquest, or for kDeclineTurn the end_turn of a decline turn), or nothing when the state
// offers none. The target is chosen at random among the fitting regions, preferring ones where only the kind's
// rule is broken (adjacent, affordable); the tokens put down never exceed the hand (a player cannot place more).
std::optional<Action> IllegalConquest(const Game& game, IllegalKind kind, const Action& next, Rng& rng);

}  // namespace swref::engine
