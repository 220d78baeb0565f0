// How a game state is compared with an observed board (a part of Explain, explain.h).
//
// A region reads as its observation when race, side, pieces and lost tribe are equal and the count is equal (or at
// least the lower bound of an uncertain stack). One exception follows the physical game: while the current
// player's race holds tokens in hand, or could still ready its troops (its turn started and it has not
// redeployed), the tokens lying on its own regions are not pinned to the engine's counts: a player may ready by
// lifting tokens, or leave them where they lie and take them from there. Such a *loose* region must still show
// the race with at least 1 token, and the race's loose regions together may not show more tokens than the race
// has on the board and in hand. Regions conquered in the sequence being checked are never loose: their count is
// the number of tokens placed.
#pragma once

#include <string>
#include <vector>

#include "engine/board.h"
#include "engine/game.h"
#include "engine/observed.h"

namespace swref::engine {

struct LooseRace {
  int race = -1;
  int bound = 0;           // the most tokens its loose regions may show together: on the board + in hand + set aside
  bool lift_only = false;  // SoloPlay: no readying; a region may only show fewer tokens (lifted for an attack or a move)
};

// The races of the current player whose own regions are loose in `game` (the active race, in-decline Ghouls). In a
// SoloPlay game they are lift-only while their attacks or their redeployment may still come.
std::vector<LooseRace> LooseRaces(const Game& game);

enum class Fit : uint8_t { kNone, kLoose, kExact };

// How `board` (with the loose races of its game) reads as `seen`. `strict[r]` (may be empty) pins region r.
// `misfits` (optional) receives the regions that do not read as seen.
Fit FitBoard(const Board& board, const std::vector<LooseRace>& loose, const ObservedBoard& seen, const std::vector<bool>& strict,
             std::vector<int>* misfits = nullptr);

// The SoloPlay state a table shows or the score counts (solo.h): the phase, the race being placed and the
// opposition's setup, the combos left, the races in decline, the tokens and defences the player has taken, the end.
// Appended to `key`; nothing in a standard game.
void AppendSoloKey(const Game& game, std::string* key);

// Two states that give the same key are the same game for every later rule and score: board, hands, coins, banners,
// column, the turn's flags; in SoloPlay also AppendSoloKey and the solo turn's flags (not the failed attempt's
// region, which the board cannot show and which no longer matters once its tokens are back).
std::string StateKey(const Game& game);

// The tokens `race` would hold in hand once readied (now, if already readied): Game::HandAfterReady, public.
int HandOnceReadied(const Game& game, int race, bool ghouls);

// The tokens a redeploy of `race` must place (Game's rule, public): on the board + in hand + set aside, plus the
// Skeletons' bonus, less the Amazons' 4 conquest-only tokens; in-decline Ghouls place all of theirs.
int RedeployTotal(const Game& game, int race, bool ghouls);

}  // namespace swref::engine
