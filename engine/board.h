// The raw board: what lies in every region (race tokens, lost tribe, pieces). Kept apart from the game flow
// (players, turns, combos, scoring: game.h), as chess engines keep the position apart from the game history.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/components.h"

namespace swref::engine {

inline constexpr int8_t kNobody = -1;

// One region's contents. At most one race occupies a region at a time (a conquest removes the defenders).
struct RegionState {
  int8_t owner = kNobody;   // player index owning the race tokens here, or kNobody
  int8_t race = -1;         // Race of the tokens here (as int), or -1
  bool decline = false;     // the tokens show their in-decline side
  uint8_t tokens = 0;       // race tokens of `race`
  uint8_t lost_tribe = 0;   // Lost Tribe tokens (0 or 1)
  uint8_t mountain = 0;
  uint8_t troll_lair = 0;
  uint8_t fortress = 0;
  uint8_t encampments = 0;
  uint8_t hole = 0;
  uint8_t hero = 0;
  uint8_t dragon = 0;

  bool HasRace() const { return race >= 0 && tokens > 0; }
  Race race_id() const { return static_cast<Race>(race); }
  // Non-empty in the rulebook's sense: a lost tribe or race token (a mountain alone is empty).
  bool NonEmpty() const { return lost_tribe > 0 || tokens > 0; }
  bool Immune() const { return hole + hero + dragon > 0; }
  bool HoldsAnything() const {
    return tokens + lost_tribe + mountain + troll_lair + fortress + encampments + hole + hero + dragon > 0;
  }
  int DefencePieces() const { return mountain + troll_lair + fortress + encampments; }
  // SoloPlay: the region's defence against erosion (each lair, fortress, encampment and hole takes 1 off the demand).
  int ErosionDefence() const { return troll_lair + fortress + encampments + hole; }
  int Count(Piece piece) const;
  void ClearOccupant() {  // the race leaves: the pieces that belong to it go too, mountains stay
    owner = kNobody, race = -1, decline = false, tokens = 0;
    troll_lair = fortress = encampments = hole = hero = dragon = 0;
  }
};

using Board = std::vector<RegionState>;

}  // namespace swref::engine
