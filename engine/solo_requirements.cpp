// The placement requirements of the opposition races and powers (setup rules 6.a and 6.b). "Both the power and
// race are considered separately" (6.d.ii.1.a): every region a requirement asks for is a unit, and one conquest
// serves at most one unit, so the met requirements come from a maximum bipartite matching of units to conquests
// (Kuhn's augmenting paths; a combo has at most 4 units). Entry, ability and restriction clauses (Tritons,
// Halflings, Giants' ability, Flying, Diplomat) are conditions on the conquests, not units.
#include <functional>

#include "engine/solo.h"

namespace swref::engine {
namespace {

enum class Unit : uint8_t {
  kMagic,
  kLostTribe,
  kSorcery,
  kMine,
  kMountain,
  kFarmland,
  kHill,
  kCavern,
  kSwamp,
  kWater,
  kForest,
  kDragonTarget
};

std::vector<Unit> RaceUnits(Race race) {
  switch (race) {
    case Race::kWizards:
      return {Unit::kMagic};
    case Race::kOrcs:
      return {Unit::kLostTribe};
    case Race::kSorcerers:
      return {Unit::kSorcery};
    case Race::kDwarves:
      return {Unit::kMine};
    case Race::kGiants:
      return {Unit::kMountain};
    case Race::kSkeletons:
      return {Unit::kLostTribe, Unit::kLostTribe};
    case Race::kHumans:
      return {Unit::kFarmland};
    default:
      return {};
  }
}

bool RaceHasRequirement(Race race) { return !RaceUnits(race).empty() || race == Race::kTritons || race == Race::kHalflings; }

std::vector<Unit> PowerUnits(Power power) {
  switch (power) {
    case Power::kMounted:
      return {Unit::kFarmland, Unit::kHill};
    case Power::kPillaging:
      return {Unit::kLostTribe};
    case Power::kCommando:
      return {Unit::kLostTribe};
    case Power::kHill:
      return {Unit::kHill};
    case Power::kUnderworld:
      return {Unit::kCavern};
    case Power::kSwamp:
      return {Unit::kSwamp};
    case Power::kDragonMaster:
      return {Unit::kDragonTarget};
    case Power::kSeafaring:
      return {Unit::kWater};
    case Power::kForest:
      return {Unit::kForest};
    default:
      return {};
  }
}

bool PowerHasRequirement(Power power) { return !PowerUnits(power).empty() || power == Power::kFlying || power == Power::kDiplomat; }

bool Satisfies(Unit unit, const SetupEvent& e, const Map& map) {
  const Region& r = map.regions[e.region];
  switch (unit) {
    case Unit::kMagic:
      return r.magic;
    case Unit::kLostTribe:
      return e.lost_tribe;
    case Unit::kSorcery:
      return e.sorcery;
    case Unit::kMine:
      return r.mine;
    case Unit::kMountain:
      return e.mountain;
    case Unit::kFarmland:
      return r.terrain == Terrain::kFarmland;
    case Unit::kHill:
      return r.terrain == Terrain::kHill;
    case Unit::kCavern:
      return r.cavern;
    case Unit::kSwamp:
      return r.terrain == Terrain::kSwamp;
    case Unit::kWater:
      return r.IsWater();
    case Unit::kForest:
      return r.terrain == Terrain::kForest;
    case Unit::kDragonTarget:
      return e.dragon && (e.mountain || e.lost_tribe);
  }
  return false;
}

// The most units that distinct conquests can serve.
int Matching(const std::vector<Unit>& units, const std::vector<SetupEvent>& events, const Map& map) {
  std::vector<int> owner(events.size(), -1);  // event -> unit
  int matched = 0;
  for (int u = 0; u < static_cast<int>(units.size()); ++u) {
    std::vector<bool> seen(events.size(), false);
    std::function<bool(int)> augment = [&](int unit) {
      for (size_t e = 0; e < events.size(); ++e) {
        if (seen[e] || !Satisfies(units[unit], events[e], map)) continue;
        seen[e] = true;
        if (owner[e] < 0 || augment(owner[e])) {
          owner[e] = unit;
          return true;
        }
      }
      return false;
    };
    matched += augment(u);
  }
  return matched;
}

std::vector<Unit> Joined(std::vector<Unit> a, const std::vector<Unit>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Entry and ability clauses of the race (Tritons, Halflings, Giants).
bool RaceConditionMet(Race race, const std::vector<SetupEvent>& events, const Map& map) {
  const SetupEvent* first = nullptr;
  bool ability = false;
  for (const SetupEvent& e : events) {
    if (e.first && !first) first = &e;
    ability = ability || e.giants;
  }
  switch (race) {
    case Race::kTritons:
      return first && map.regions[first->region].coastal;
    case Race::kHalflings:
      return first && !map.regions[first->region].coastal && !map.regions[first->region].border;
    case Race::kGiants:
      return ability;
    default:
      return true;
  }
}

// Flying: the race's regions share no border, except once for a conquest the race's own requirement needs.
bool FlyingMet(Race race, const std::vector<SetupEvent>& events, const Map& map) {
  int touching = 0;
  bool exempt = false;
  for (const SetupEvent& e : events) {
    if (!e.next_to_own) continue;
    ++touching;
    bool needed = e.giants;
    for (Unit u : RaceUnits(race)) needed = needed || Satisfies(u, e, map);
    exempt = exempt || needed;
  }
  return touching <= (exempt ? 1 : 0);
}

// Diplomat: no lost tribe attacked, except the attacks the race's own requirement needs.
bool DiplomatMet(Race race, const std::vector<SetupEvent>& events, const Map& map) {
  std::vector<SetupEvent> lost_tribes;
  bool giants_elsewhere = false;
  for (const SetupEvent& e : events) {
    if (e.lost_tribe) lost_tribes.push_back(e);
    giants_elsewhere = giants_elsewhere || (e.giants && !e.lost_tribe);
  }
  int exempt = Matching(RaceUnits(race), lost_tribes, map);
  if (race == Race::kGiants && !giants_elsewhere) {
    for (const SetupEvent& e : lost_tribes) exempt += e.giants ? 1 : 0;
  }
  return static_cast<int>(lost_tribes.size()) <= exempt;
}

bool PowerConditionMet(Race race, Power power, const std::vector<SetupEvent>& events, const Map& map) {
  if (power == Power::kFlying) return FlyingMet(race, events, map);
  if (power == Power::kDiplomat) return DiplomatMet(race, events, map);
  return true;
}

}  // namespace

Requirements EvaluateRequirements(Race race, Power power, const std::vector<SetupEvent>& events, const Map& map) {
  const std::vector<Unit> race_units = RaceUnits(race), power_units = PowerUnits(power);
  const bool race_wanted = RaceHasRequirement(race), power_wanted = PowerHasRequirement(power);
  const bool race_condition = RaceConditionMet(race, events, map);
  const bool power_condition = PowerConditionMet(race, power, events, map);
  // The best feasible choice of requirements to meet; a tie meets the race's.
  int best = -1;
  Requirements result;
  for (int pick : {3, 1, 2, 0}) {  // bit 1: race, bit 2: power
    const bool r = pick & 1, p = pick & 2;
    if ((r && (!race_wanted || !race_condition)) || (p && (!power_wanted || !power_condition))) continue;
    const std::vector<Unit> units = Joined(r ? race_units : std::vector<Unit>{}, p ? power_units : std::vector<Unit>{});
    if (Matching(units, events, map) != static_cast<int>(units.size())) continue;
    if (r + p > best) {
      best = r + p;
      result.race = race_wanted ? (r ? Need::kMet : Need::kUnmet) : Need::kNone;
      result.power = power_wanted ? (p ? Need::kMet : Need::kUnmet) : Need::kNone;
    }
  }
  return result;
}

bool MeetsRequirement(Race race, Power power, const std::vector<SetupEvent>& events, const SetupEvent& candidate, const Map& map) {
  const std::vector<Unit> units = Joined(RaceUnits(race), PowerUnits(power));
  std::vector<SetupEvent> more = events;
  more.push_back(candidate);
  if (Matching(units, more, map) > Matching(units, events, map)) return true;
  if (race == Race::kGiants && candidate.giants) {
    for (const SetupEvent& e : events)
      if (e.giants) return false;
    return true;
  }
  return false;
}

}  // namespace swref::engine
