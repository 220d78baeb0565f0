// What the difference between the committed board and an observation says, region by region (explain_readings.h).
#include <algorithm>

#include "engine/explain_readings.h"

namespace swref::engine {

std::string SeenText(const ObservedRegion& o) {
  if (!o.race) return o.lost_tribe ? "a lost tribe" : "no race";
  return std::to_string(o.tokens) + (o.tokens_certain ? " " : "+ ") + std::string(Info(*o.race).name) + (o.decline ? " in decline" : "");
}

std::string WasText(const RegionState& b) {
  if (!b.HasRace()) return b.lost_tribe ? "a lost tribe" : "no race";
  return std::to_string(b.tokens) + " " + std::string(Info(b.race_id()).name) + (b.decline ? " in decline" : "");
}

void SuspectList::Add(int region, const std::string& why) {
  regions_.push_back(region);
  notes_.push_back("region " + std::to_string(region) + ": " + why);
}

bool SuspectList::Settled(int region, const RegionState& b, const ObservedRegion& o) {
  if (ReadsAs(b, o)) return true;
  if (o.uncertain)
    Add(region, "an uncertain reading (" + SeenText(o) + "; the board had " + WasText(b) + "): please confirm");
  else if (o.mountain != b.mountain)
    Add(region, "a mountain seen " + std::string(o.mountain ? "appearing" : "vanishing") + ": mountains never move");
  else if (o.lost_tribe > b.lost_tribe)
    Add(region, "a lost tribe seen where there was " + WasText(b) + ": lost tribes never come back");
  else
    return false;
  return true;
}

void SuspectList::Into(std::vector<int>* regions, std::string* text) const {
  *regions = regions_;
  std::sort(regions->begin(), regions->end());
  regions->erase(std::unique(regions->begin(), regions->end()), regions->end());
  for (size_t k = 0; k < notes_.size() && k < 3; ++k) *text += (k ? "; " : "") + notes_[k];
  if (notes_.size() > 3) *text += "; and " + std::to_string(notes_.size() - 3) + " more";
}

std::string OwnerName(const Game& game, int owner) {
  if (owner >= 0 && owner < game.player_count()) return game.players()[owner].name;
  return game.solo() && owner == kOpposition ? "the opposition" : "nobody";
}

namespace {

int ColumnSlot(const Game& game, Race race) {
  for (size_t k = 0; k < game.column().size(); ++k)
    if (game.column()[k].race == race) return static_cast<int>(k);
  return -1;
}

// A region whose occupant changed to the race `o` shows: which target list it joins, or "suspect: " and why.
std::string NewOccupant(const Game& game, const ObservedRegion& o, BoardDiff* diff) {
  const int p = diff->player;
  const TurnState& t = game.turn();
  const Race race = *o.race;
  const CivState& civ = game.civ(race);
  const int active = game.players()[p].active;
  if (active == static_cast<int>(race)) {
    if (!o.decline) return "target";
    diff->decline = true;
    return "decline";
  }
  if (race == Race::kGhouls && o.decline && game.DeclinedGhouls(p) >= 0) return "ghouls";
  if (t.declined && ((civ.owner == p && civ.decline) || ColumnSlot(game, race) >= 0)) {
    diff->decline_turn = true;  // a player who declined this turn and attacks anyway
    diff->race = static_cast<int>(race);
    return "target";
  }
  if (active < 0 && !t.picked && !o.decline && ColumnSlot(game, race) >= 0 &&
      (diff->pick_slot < 0 || diff->race == static_cast<int>(race))) {
    diff->pick_slot = ColumnSlot(game, race);  // the player picked this combo without telling
    diff->race = static_cast<int>(race);
    return "target";
  }
  if (civ.owner != kNobody && civ.owner != p)
    return "suspect: it is " + game.players()[p].name + "'s turn, and the " + std::string(Info(race).name) + " are " +
           OwnerName(game, civ.owner) + "'s";
  return std::string("suspect: no player can bring the ") + std::string(Info(race).name) + (o.decline ? " in decline" : "") + " there now";
}

}  // namespace

BoardDiff DiffBoard(const Game& game, const ObservedBoard& seen) {
  BoardDiff diff;
  diff.player = game.current_player();
  diff.race = game.players()[diff.player].active;
  SuspectList suspects;
  bool dragon_moved = false;                      // the dragon appeared somewhere: it may have left another player's region
  uint32_t may_withdraw = game.turn().withdrawn;  // players who lost a region this turn, or in this change
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = game.board()[i];
    dragon_moved = dragon_moved || seen.regions[i].dragon > b.dragon;
    if (b.HasRace() && (seen.regions[i].race != b.race_id() || seen.regions[i].decline != b.decline)) may_withdraw |= 1u << b.owner;
  }
  auto suspect = [&](int region, const std::string& why) { suspects.Add(region, why); };
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = game.board()[i];
    const ObservedRegion& o = seen.regions[i];
    if (suspects.Settled(i, b, o)) continue;
    const bool same_occupant = b.HasRace() == o.race.has_value() && (!b.HasRace() || (b.race_id() == *o.race && b.decline == o.decline));
    if (!same_occupant) {
      if (o.race) {
        const std::string kind = NewOccupant(game, o, &diff);
        if (kind == "target")
          diff.targets.push_back(i);
        else if (kind == "ghouls")
          diff.ghoul_targets.push_back(i);
        else if (kind != "decline")
          suspect(i, SeenText(o) + " seen, " + kind.substr(9));
      } else if (b.HasRace() && b.owner == diff.player) {
        if (b.race == diff.race && !b.decline) diff.emptied.push_back(i);  // abandoned, or a redeploy's zero
        // else: the player's older in-decline race leaving the map, when the active race declines
      } else if (diff.race == static_cast<int>(Race::kAmazons) && !game.turn().redeployed) {
        diff.targets.push_back(i);  // conquered, then left empty by the redeploy: Amazons with fewer tokens than regions
      } else {
        suspect(i, "emptied, but it held " + WasText(b) + (b.HasRace() ? " of " + OwnerName(game, b.owner) : "") +
                       ": only a conquest takes a region, and it leaves the conqueror's tokens");
      }
      continue;
    }
    if (!b.HasRace()) {
      if (o.lost_tribe < b.lost_tribe && diff.race == static_cast<int>(Race::kAmazons) && !game.turn().redeployed && !o.race)
        diff.targets.push_back(i);  // the lost tribe conquered, the region then left empty by the Amazons' redeploy
      else
        suspect(i, o.lost_tribe < b.lost_tribe ? "the lost tribe is gone, but no race took the region"
                                               : "its pieces changed, but no race is there");
      continue;
    }
    if (b.owner == diff.player) continue;  // own regions: counts and pieces checked by the simulation
    const bool fewer = o.tokens_certain ? o.tokens < b.tokens : false;
    const bool more = o.tokens > b.tokens || o.encampments > b.encampments;
    if (fewer || b.lost_tribe != o.lost_tribe || b.fortress != o.fortress || b.troll_lair != o.troll_lair || b.hero != o.hero ||
        b.hole != o.hole || (b.dragon != o.dragon && !(dragon_moved && o.dragon == 0)) || o.encampments < b.encampments)
      suspect(i, SeenText(o) + " seen where " + OwnerName(game, b.owner) + " had " + WasText(b) +
                     " (pieces included): another player's region changes only by a conquest or a withdrawal");
    else if (more && !(may_withdraw & (1u << b.owner)))
      suspect(i, SeenText(o) + " seen where " + OwnerName(game, b.owner) + " had " + WasText(b) + ": " + OwnerName(game, b.owner) +
                     " lost no region this turn, so has nothing to withdraw there (a count the camera could not see before?)");
  }
  suspects.Into(&diff.suspects, &diff.suspect_text);
  return diff;
}

namespace {

std::string PlacementText(const std::vector<Placement>& placement) {
  std::string s = "{";
  for (size_t k = 0; k < placement.size(); ++k)
    s.append(k ? ", " : "").append(std::to_string(placement[k].region)).append(":").append(std::to_string(placement[k].count));
  return s + "}";
}

}  // namespace

std::string DescribeAction(const Action& a, const std::vector<PlayerState>& players) {
  const std::string who = a.player >= 0 && a.player < static_cast<int>(players.size()) ? players[a.player].name : "?";
  std::string s = who + " " + std::string(ToString(a.type));
  switch (a.type) {
    case ActionType::kPick:
      s.append(" slot ").append(std::to_string(a.slot));
      break;
    case ActionType::kConquer: {
      s.append(" ").append(std::to_string(a.region));
      std::vector<std::string> details;
      if (a.tokens >= 0) details.push_back(std::to_string(a.tokens) + (a.tokens == 1 ? " token" : " tokens"));
      if (a.die >= 0) details.push_back("die " + std::to_string(a.die));
      if (a.with != With::kNone) details.push_back("with " + std::string(ToString(a.with)));
      if (!a.from.empty()) details.push_back("from " + PlacementText(a.from));
      if (a.hero >= 0) details.push_back("hero of " + std::to_string(a.hero));
      if (a.has_retreat) details.push_back("retreat " + std::to_string(a.retreat.size()));
      for (size_t k = 0; k < details.size(); ++k) s.append(k ? ", " : " (").append(details[k]);
      if (!details.empty()) s += ")";
      break;
    }
    case ActionType::kAbandon:
      s.append(" ").append(std::to_string(a.region));
      break;
    case ActionType::kRedeploy:
    case ActionType::kWithdraw: {
      if (!a.placement.empty() || (a.move.from < 0 && a.add.empty())) s += " " + PlacementText(a.placement);
      if (a.move.from >= 0)  // SoloPlay: the move, the Halflings' moves into holes, the tokens added
        s += " move " + std::to_string(a.move.tokens) + " " + std::to_string(a.move.from) + "->" + std::to_string(a.move.to);
      for (const Move& m : a.hole_moves)
        s += ", hole " + std::to_string(m.tokens) + " " + std::to_string(m.from) + "->" + std::to_string(m.to);
      if (!a.add.empty()) s += " add " + PlacementText(a.add);
      if (a.with == With::kGhouls) s += " with ghouls";
      break;
    }
    case ActionType::kErode:
      s.append(" ").append(a.race >= 0 && a.race < kRaceCount ? Info(static_cast<Race>(a.race)).name : "?");
      for (size_t k = 0; k < a.regions.size(); ++k) s.append(k ? ", " : " ").append(std::to_string(a.regions[k]));
      break;
    case ActionType::kAlly:
      s += " " + (a.target >= 0 && a.target < static_cast<int>(players.size()) ? players[a.target].name : "?");
      break;
    case ActionType::kDecline:
    case ActionType::kEndTurn:
      break;
  }
  return s;
}

}  // namespace swref::engine
