// What the difference between the committed board and an observation says in a SoloPlay game, region by region
// (explain_solo.h): the regions the player's race or its in-decline Ghouls newly hold, a pick or a decline the
// board shows before it is told, and the readings no solo action can make (suspects).
#include <algorithm>

#include "engine/explain_solo.h"

namespace swref::engine {
namespace {

int ComboSlot(const Game& game, Race race) {
  const std::vector<SoloCombo>& combos = game.solo()->combos;
  for (size_t k = 0; k < combos.size(); ++k)
    if (combos[k].race == race) return static_cast<int>(k);
  return -1;
}

// A region whose occupant changed to the race `o` shows: whether it is a target of the race the player moves, of
// the in-decline Ghouls, the active race turned to its decline side, or else why no action can bring it there.
enum class Arrival : uint8_t { kTarget, kGhouls, kDecline, kSuspect };

Arrival NewOccupant(const Game& game, const RegionState& b, const ObservedRegion& o, SoloDiff* diff) {
  const int race = static_cast<int>(*o.race);
  const bool declined_ghouls = !diff->setup && *o.race == Race::kGhouls && game.DeclinedGhouls(0) >= 0;
  if (race == diff->race && !o.decline) return Arrival::kTarget;
  if (!diff->setup && race == diff->race && o.decline && b.race == race && !b.decline && diff->pick_slot < 0) return Arrival::kDecline;
  if (declined_ghouls && o.decline) return Arrival::kGhouls;
  const bool may_pick = !diff->setup && game.players()[0].active < 0 && !game.turn().picked && !o.decline;
  if (may_pick && ComboSlot(game, *o.race) >= 0 && diff->pick_slot < 0) {
    diff->pick_slot = ComboSlot(game, *o.race);  // the player picked this combo without telling
    diff->race = race;
    return Arrival::kTarget;
  }
  return Arrival::kSuspect;
}

}  // namespace

SoloDiff DiffSoloBoard(const Game& game, const ObservedBoard& seen) {
  SoloDiff diff;
  diff.setup = game.solo()->phase == SoloPhase::kSetup;
  diff.race = game.SoloRace();
  SuspectList suspects;
  auto suspect = [&](int region, const std::string& why) { suspects.Add(region, why); };
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = game.board()[i];
    const ObservedRegion& o = seen.regions[i];
    if (suspects.Settled(i, b, o)) continue;
    const bool same_occupant = b.HasRace() == o.race.has_value() && (!b.HasRace() || (b.race_id() == *o.race && b.decline == o.decline));
    if (!same_occupant && o.race) {
      switch (NewOccupant(game, b, o, &diff)) {
        case Arrival::kTarget:
          diff.targets.push_back(i);
          break;
        case Arrival::kGhouls:
          diff.ghoul_targets.push_back(i);
          break;
        case Arrival::kDecline:
          diff.declining = true;
          break;
        case Arrival::kSuspect:
          suspect(i, SeenText(o) + " seen where the board had " + WasText(b) + ": no action of " +
                         (diff.setup ? std::string("the opposition's setup") : game.players()[0].name + "'s turn") + " brings them there");
      }
      continue;
    }
    const bool moved_now = b.owner == 0 || (diff.setup && b.race == diff.race);  // the player's, or the race being placed
    if (!same_occupant) {  // emptied: such a region may be vacated (an attack, a move, an erosion, a balancing's zero)
      if (b.HasRace() && !moved_now)
        suspect(i, "emptied, but it held " + WasText(b) + " of " + OwnerName(game, b.owner) +
                       ": only a conquest takes a region, and it leaves the conqueror's tokens");
      continue;
    }
    if (!b.HasRace()) {
      suspect(i, o.lost_tribe < b.lost_tribe ? "the lost tribe is gone, but no race took the region"
                                             : "its pieces changed, but no race is there");
      continue;
    }
    if (moved_now) continue;  // counts and pieces checked by the simulation
    const bool fewer = o.tokens_certain && o.tokens < b.tokens;
    const bool pieces = b.lost_tribe != o.lost_tribe || b.fortress != o.fortress || b.troll_lair != o.troll_lair || b.hero != o.hero ||
                        b.hole != o.hole || b.dragon != o.dragon || b.encampments != o.encampments;
    if (fewer || pieces || diff.setup)
      suspect(i, SeenText(o) + " seen where " + OwnerName(game, b.owner) + " had " + WasText(b) +
                     (diff.setup ? ": the races placed earlier do not change during the setup"
                                 : " (pieces included): an opposition region changes only by a conquest, or gains a retreating token"));
    // else more tokens: a retreat into it, checked by the simulation
  }
  suspects.Into(&diff.suspects, &diff.suspect_text);
  return diff;
}

ObservedBoard UndeclinedSeen(const Game& game, const ObservedBoard& seen, bool* turned) {
  *turned = false;
  const int race = game.solo() && game.solo()->phase == SoloPhase::kPlay ? game.players()[0].active : -1;
  if (race < 0) return seen;
  const CivState& c = game.civs()[race];
  const bool all = c.power == Power::kSpirit || c.power == Power::kStout || race == static_cast<int>(Race::kGhouls);
  ObservedBoard back = seen;
  int regions = 0;
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = game.board()[i];
    if (b.race != race) continue;
    RegionState declined = b;
    declined.decline = true;
    declined.hero = declined.dragon = 0;
    if (!all) declined.tokens = std::min<uint8_t>(b.tokens, 2);
    if (!ReadsAs(declined, seen.regions[i])) return seen;  // not (only) the decline: read as it is
    back.regions[i] = ObserveRegion(b);
    ++regions;
  }
  *turned = regions > 0;
  return back;
}

}  // namespace swref::engine
