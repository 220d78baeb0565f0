#include "engine/board.h"

namespace swref::engine {

int RegionState::Count(Piece piece) const {
  switch (piece) {
    case Piece::kMountain: return mountain;
    case Piece::kTrollLair: return troll_lair;
    case Piece::kFortress: return fortress;
    case Piece::kEncampment: return encampments;
    case Piece::kHole: return hole;
    case Piece::kHero: return hero;
    case Piece::kDragon: return dragon;
    case Piece::kLostTribe: return lost_tribe;
  }
  return 0;
}

}  // namespace swref::engine
