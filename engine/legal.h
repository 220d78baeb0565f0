// Legal-action enumeration: every action the rules allow from a state, for the player whose turn it is and for
// defenders who may place withdrawn tokens. Conquests are listed in every form: normal, dragon, sorcery,
// in-decline Ghouls, and a reinforcement attempt with each die face for a region the tokens in hand cannot take
// outright (Berserk: each face of the roll before the conquest). A die roll on a region that needs no luck is
// legal but not listed. A redeploy or withdraw has many placements; one representative of
// each is listed (tokens spread as evenly as possible); callers that need another placement build it and Check it.
#pragma once

#include <vector>

#include "engine/action.h"
#include "engine/game.h"

namespace swref::engine {

// SoloPlay games are enumerated by EnumerateSoloLegal (legal_solo.cpp), which lists one representative of each
// conquest from neighbouring regions, the balancing of an opposition race, the tokens in hand and each erosion.
void EnumerateLegal(const Game& game, std::vector<Action>* out);
void EnumerateSoloLegal(const Game& game, std::vector<Action>* out);

// The representative redeploy of `race`: `total` tokens spread as evenly as possible over its regions.
std::vector<Placement> EvenRedeploy(const Game& game, Race race, int total);

}  // namespace swref::engine
