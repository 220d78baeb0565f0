// Random legal games: every step enumerates the legal actions (legal.h) and draws one, weighted so that games
// look like play (conquests are likely, declines and abandonments rare), with a random redeploy placement and
// real die rolls. Used by the property tests and `swref bench engine`; deterministic for a seed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/game.h"
#include "engine/map.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::engine {

struct RandomGame {
  Record record;   // the actions played, replayable with `swref play`
  Game game;       // the final state
};

// Called after every accepted action with the new state (property tests check invariants here).
using ActionObserver = std::function<void(const Game& game, const Action& action)>;

// Plays a whole game on `map` (its player count, players P1..Pn). An error means the engine offered no legal
// action or rejected one it had listed: a bug, reported with the step.
Result<RandomGame> PlayRandomGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer = nullptr);

// The same with the stacks' top named (as a record's `races`/`powers`; the rest shuffled by the seed).
struct RandomStacks {
  std::vector<Race> races;
  std::vector<Power> powers;
};
Result<RandomGame> PlayRandomGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer,
                                  const RandomStacks& stacks);
// A whole SoloPlay game on `map` (one player, "Solo"): the opposition's setup and every round
// (random_solo_game.cpp). Errors as above.
Result<RandomGame> PlayRandomSoloGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer = nullptr);

}  // namespace swref::engine
