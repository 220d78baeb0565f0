#include "engine/components.h"

namespace swref::engine {
namespace {

constexpr std::array<RaceInfo, kRaceCount> kRaces = {{
    {"amazons", "Amazons", 6, 15},
    {"dwarves", "Dwarves", 3, 8},
    {"elves", "Elves", 6, 11},
    {"ghouls", "Ghouls", 5, 10},
    {"giants", "Giants", 6, 11},
    {"halflings", "Halflings", 6, 11},
    {"humans", "Humans", 5, 10},
    {"orcs", "Orcs", 5, 10},
    {"ratmen", "Ratmen", 8, 13},
    {"skeletons", "Skeletons", 6, 20},
    {"sorcerers", "Sorcerers", 5, 18},
    {"tritons", "Tritons", 6, 11},
    {"trolls", "Trolls", 5, 10},
    {"wizards", "Wizards", 5, 10},
}};

constexpr std::array<PowerInfo, kPowerCount> kPowers = {{
    {"alchemist", "Alchemist", 4},
    {"berserk", "Berserk", 4},
    {"bivouacking", "Bivouacking", 5},
    {"commando", "Commando", 4},
    {"diplomat", "Diplomat", 5},
    {"dragon_master", "Dragon Master", 5},
    {"flying", "Flying", 5},
    {"forest", "Forest", 4},
    {"fortified", "Fortified", 3},
    {"heroic", "Heroic", 5},
    {"hill", "Hill", 4},
    {"merchant", "Merchant", 2},
    {"mounted", "Mounted", 5},
    {"pillaging", "Pillaging", 5},
    {"seafaring", "Seafaring", 5},
    {"spirit", "Spirit", 5},
    {"stout", "Stout", 4},
    {"swamp", "Swamp", 4},
    {"underworld", "Underworld", 5},
    {"wealthy", "Wealthy", 4},
}};

constexpr std::array<PieceInfo, kPieceCount> kPieces = {{
    {"mountain", 9},
    {"troll_lair", 10},
    {"fortress", 6},
    {"encampment", 5},
    {"hole", 2},
    {"hero", 2},
    {"dragon", 1},
    {"lost_tribe", 18},
}};

}  // namespace

const RaceInfo& Info(Race race) { return kRaces[static_cast<int>(race)]; }
const PowerInfo& Info(Power power) { return kPowers[static_cast<int>(power)]; }
const PieceInfo& Info(Piece piece) { return kPieces[static_cast<int>(piece)]; }

std::optional<Race> RaceFromId(std::string_view id) {
  for (int i = 0; i < kRaceCount; ++i) {
    if (kRaces[i].id == id) return static_cast<Race>(i);
  }
  return std::nullopt;
}

std::optional<Power> PowerFromId(std::string_view id) {
  for (int i = 0; i < kPowerCount; ++i) {
    if (kPowers[i].id == id) return static_cast<Power>(i);
  }
  return std::nullopt;
}

std::optional<Piece> PieceFromId(std::string_view id) {
  for (int i = 0; i < kPieceCount; ++i) {
    if (kPieces[i].id == id) return static_cast<Piece>(i);
  }
  return std::nullopt;
}

int StartingTokens(Race race, Power power) {
  int tokens = Info(race).banner + Info(power).badge;
  if (race == Race::kAmazons) tokens += kAmazonConquestOnlyTokens;
  return tokens;
}

}  // namespace swref::engine
