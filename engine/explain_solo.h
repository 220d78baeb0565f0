// Explain in a SoloPlay game (a part of Explain, explain.h; the rules in docs/solo.md, the referee's reading of them
// in docs/solo.md "Refereeing a solo game"). The same steps as the standard game's explain_readings.h: what the
// difference between the boards says (DiffSoloBoard), then readings built from it in the turn's order, simulated on
// a copy of the game and fitted to the observation (SimulateSolo). explain.cpp chooses among them as for a standard
// game.
//
// Setup (the opposition placed by the player): regions newly holding the race being placed are its conquests from
// hand (the dragon seen arriving: a dragon conquest; one Sorcerer on a lost tribe: a conversion); the told die is
// the final reinforcement attempt (Berserk: the roll before a conquest), or an attempt that failed; counts changed
// in its regions, or pieces placed, are the balancing redeploy.
//
// Play: a combo's race seen on the board while the player has none is its pick; the in-decline Ghouls' and then the
// active race's new regions are conquests whose attackers (`from`) are the tokens the race's neighbouring regions
// lost (SoloNeighbours: Underworld and Flying count; a region left with 0 is vacated); a hero seen moving joins the
// attack; opposition regions next to the target gaining a token are the retreat; the told die is the reinforcement
// of the last conquest or an attempt that failed, its attackers lifted and the tokens then returned next to the
// failed region (the first region where the whole sequence is legal); what the race's regions still differ by is
// the one redeployment (its move, the Halflings' moves into holes, the tokens in hand added, the pieces) and any
// further move a second redeployment; the in-decline races' regions losing tokens are the erosions, in an order
// the rules accept when one gives the board seen (erosions that the board cannot show, their demand absorbed by
// defences, are read when the players say the turn ends). An action the rules reject is laid down as seen, so the
// rest of the reading can be fitted.
#pragma once

#include <string>
#include <vector>

#include "engine/explain.h"
#include "engine/explain_readings.h"
#include "engine/game.h"
#include "engine/observed.h"

namespace swref::engine {

struct SoloDiff {
  bool setup = false;              // the opposition is being placed
  int race = -1;                   // the race the player moves: the one being placed, the active race, or a pick's
  int pick_slot = -1;              // a pick the board implies: the race seen is the player's combo in this slot
  bool declining = false;          // the active race is shown on its decline side (the end_turn not told yet)
  std::vector<int> targets;        // regions newly showing `race`
  std::vector<int> ghoul_targets;  // regions newly showing the in-decline Ghouls
  std::vector<int> suspects;       // readings no action of this turn can make
  std::string suspect_text;
};

SoloDiff DiffSoloBoard(const Game& game, const ObservedBoard& seen);

// The observation with the active race's regions turned back to the committed reading, when they show exactly what
// the race's decline would leave (each region's tokens capped at 2, or all kept for Spirit, Stout and Ghouls; heroes
// and the dragon gone); else the observation unchanged. `*turned` says whether it changed.
ObservedBoard UndeclinedSeen(const Game& game, const ObservedBoard& seen, bool* turned);

// Builds, simulates and fits the solo readings (every variant of the die, the Sorcerers' conversions and how many
// tokens an attack took), at most `budget` simulations, appending them to `out` and counting them in `*simulated`.
// Returns false when the bound cut variants off.
bool SimulateSolo(const Game& committed, const ObservedBoard& seen, const SoloDiff& diff, const ExplainContext& context, int budget,
                  std::vector<Simulated>* out, int* simulated);

}  // namespace swref::engine
