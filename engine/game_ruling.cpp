// House rulings: a conquest the rules reject that the players accept as it lies on the table (docs/record.md,
// "House rulings"). The region is taken with the tokens placed, exactly as a legal conquest would take it;
// what cannot lie on a table (tokens the player does not hold, a race the player does not have) is refused.
#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

Verdict Game::ApplyHouseRuling(const Action& a, bool* applied) {
  *applied = false;
  Verdict verdict;
  verdict.code = Evaluate(a, &verdict.why);
  if (verdict.ok()) {
    verdict = Apply(a);
    *applied = verdict.ok();
    return verdict;
  }
  auto refuse = [&](const std::string& reason) {
    verdict.why += "; it cannot stand as a house ruling: " + reason;
    return verdict;
  };
  if (a.type != ActionType::kConquer) return refuse("only a conquest can be accepted against the rules");
  if (solo_.on) return refuse("in SoloPlay the rules are the opponent: a solo action is never accepted against them");
  if (finished_) return refuse("the game is over");
  if (a.player != current_) return refuse("it is not " + PlayerName(a.player) + "'s turn");
  if (!map_->Valid(a.region)) return refuse(RegionName(a.region) + " is not on the map");
  const bool ghouls = a.with == With::kGhouls;
  const int race = ghouls ? DeclinedGhouls(a.player) : players_[a.player].active;
  if (race < 0) return refuse(PlayerName(a.player) + " has no race that could have conquered it");
  const bool berserk = !ghouls && a.with != With::kDragon && civs_[race].power == Power::kBerserk;
  if (a.die >= 0 && !berserk) return refuse("a reinforcement attempt the rules reject has no outcome to accept");
  const RegionState& r = board_[a.region];
  if (r.race == race) return refuse(RegionName(a.region) + " is already held by the " + RaceName(race));
  const bool readied = ghouls ? turn_.ghouls_readied : turn_.readied;
  const int hand = readied ? civs_[race].hand : HandAfterReady(static_cast<Race>(race));
  Action ruled = a;
  ruled.die = -1;  // what counts is the table: the roll no longer matters
  ruled.house_ruling = false;
  if (a.with == With::kSorcery) {
    if (race != static_cast<int>(Race::kSorcerers)) return refuse("only Sorcerers convert tokens");
    if (!r.HasRace() || r.owner == a.player) return refuse("a conversion replaces another player's race token");
    if (TokensInTray(Race::kSorcerers) < 1) return refuse("no Sorcerer token is left in the tray");
    ruled.tokens = -1;
  } else {
    ruled.tokens = a.tokens >= 0 ? a.tokens : a.with == With::kDragon ? 1 : ConquestCost(static_cast<Race>(race), a.region, ghouls).total;
    if (ruled.tokens > hand)
      return refuse(std::to_string(ruled.tokens) + " tokens placed, but only " + std::to_string(hand) + " in hand");
  }
  DoConquer(ruled);
  Recount();
  turn_.any_action = true;
  *applied = true;
  return verdict;
}

}  // namespace swref::engine
