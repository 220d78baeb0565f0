// The rest of a turn: picking a combo, redeployment (with encampments, fortress, heroes, Amazons' set-aside
// tokens and Skeletons' bonus), defenders' withdrawals, the Diplomat's ally, decline, and the end of the turn.
#include <algorithm>
#include <set>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

// ------------------------------------------------------------------------------------------------------------------
// Pick (RULINGS 27)

Code Game::CheckPick(const Action& a, std::string* why) const {
  if (turn_.declined) return Reject(why, Code::kWrongPhase, [] { return "a decline turn ends after scoring: pick a new combo on your next turn"; });
  const int active = players_[a.player].active;
  if (active >= 0)
    return Reject(why, Code::kWrongPhase, [&] { return PlayerName(a.player) + " already plays the " + RaceName(active) + ": decline them first"; });
  if (a.slot < 0 || a.slot >= static_cast<int>(column_.size()))
    return Reject(why, Code::kBadSlot, [&] { return "slot " + std::to_string(a.slot) + " holds no combo (" + std::to_string(column_.size()) + " are visible, slots 0.." + std::to_string(column_.size() - 1) + ")"; });
  if (players_[a.player].coins < a.slot)
    return Reject(why, Code::kNotEnoughCoins, [&] {
      return "slot " + std::to_string(a.slot) + " costs " + std::to_string(a.slot) + " coins; " + PlayerName(a.player) + " has " + std::to_string(players_[a.player].coins);
    });
  return Code::kOk;
}

void Game::DoPick(const Action& a) {
  PlayerState& p = players_[a.player];
  for (int i = 0; i < a.slot; ++i) ++column_[i].coins;
  const Combo combo = column_[a.slot];
  p.coins += combo.coins - a.slot;
  column_.erase(column_.begin() + a.slot);
  RefillColumn();
  CivState& c = civ_mut(combo.race);
  c = CivState{};
  c.owner = static_cast<int8_t>(a.player);
  c.power = combo.power;
  c.hand = std::min(StartingTokens(combo.race, combo.power), Info(combo.race).box_tokens);
  p.active = static_cast<int>(combo.race);
  turn_.picked = true;
}

// ------------------------------------------------------------------------------------------------------------------
// Redeploy

int Game::SkeletonBonus() const {  // RULINGS 15
  const int active = players_[current_].active;
  if (active != static_cast<int>(Race::kSkeletons)) return 0;
  return std::min(turn_.nonempty_conquered / 2, TokensInTray(Race::kSkeletons));
}

// Tokens a redeploy of `race` must place, and the Amazons' set-aside tokens after it.
int Game::RedeployTotal(Race race, int* aside_after) const {
  const bool ghouls = civ(race).decline;
  int total = TokensOnBoard(race) + civ(race).hand + civ(race).aside;  // readying only moves tokens into the hand
  *aside_after = 0;
  if (ghouls) return total;
  total += SkeletonBonus();
  if (race == Race::kAmazons) {
    *aside_after = std::min(kAmazonConquestOnlyTokens, total);
    total -= *aside_after;
  }
  return total;
}

Code Game::CheckRedeploy(const Action& a, std::string* why) const {
  const bool ghouls = a.with == With::kGhouls;
  int race = players_[a.player].active;
  if (turn_.declined) return Reject(why, Code::kWrongPhase, [] { return "a decline turn ends after scoring"; });
  if (ghouls) {
    race = DeclinedGhouls(a.player);
    if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no Ghouls in decline"; });
    // A second placement only for tokens that came back in hand since (the active race took a Ghoul region).
    if (turn_.ghouls_redeployed && civs_[race].hand == 0)
      return Reject(why, Code::kWrongPhase, [] { return "the in-decline Ghouls have already redeployed this turn"; });
  } else {
    if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race"; });
    if (turn_.redeployed) return Reject(why, Code::kWrongPhase, [] { return "the troops have already been redeployed this turn"; });
  }
  const CivState& c = civs_[race];
  int aside = 0;
  const int total = RedeployTotal(static_cast<Race>(race), &aside);
  const int held = RegionsHeld(static_cast<Race>(race));
  std::set<int> listed;
  int sum = 0, zeros = 0;
  for (const Placement& p : a.placement) {
    if (!map_->Valid(p.region)) return Reject(why, Code::kUnknownRegion, [&] { return RegionName(p.region) + " is not on map " + map_->key; });
    if (board_[p.region].race != race)
      return Reject(why, Code::kBadPlacement, [&] { return RegionName(p.region) + " is not held by the " + RaceName(race) + ": a redeploy moves tokens between the race's own regions"; });
    if (!listed.insert(p.region).second) return Reject(why, Code::kBadPlacement, [&] { return RegionName(p.region) + " is listed twice"; });
    if (p.count < 0) return Reject(why, Code::kBadPlacement, [&] { return RegionName(p.region) + ": a negative token count"; });
    sum += p.count;
    zeros += p.count == 0;
  }
  if (static_cast<int>(listed.size()) != held) {
    for (int i = 0; i < map_->size(); ++i)
      if (board_[i].race == race && !listed.count(i))
        return Reject(why, Code::kBadPlacement, [&] { return RegionName(i) + " is held by the " + RaceName(race) + " but missing from the redeploy (each region keeps at least 1 token)"; });
  }
  if (sum != total)
    return Reject(why, Code::kBadPlacement, [&] {
      std::string s = "the redeploy places " + std::to_string(sum) + " tokens; the " + RaceName(race) + " have " + std::to_string(total) + " to place";
      if (aside) s += " (after setting aside the Amazons' " + std::to_string(aside) + " conquest-only tokens)";
      if (SkeletonBonus() && !ghouls) s += " (including " + std::to_string(SkeletonBonus()) + " new Skeletons)";
      return s;
    });
  const int zeros_needed = std::max(0, held - total);
  if (zeros != zeros_needed)
    return Reject(why, Code::kBadPlacement, [&] { return "each region keeps at least 1 token where possible: " + std::to_string(zeros) + " regions left empty"; });

  auto kept = [&](int region) {
    for (const Placement& p : a.placement)
      if (p.region == region) return p.count > 0;
    return false;
  };
  if (a.has_encampments) {
    if (ghouls || c.power != Power::kBivouacking)
      return Reject(why, Code::kPowerNotAvailable, [&] { return "encampments belong to an active Bivouacking race"; });
    int camps = 0;
    for (const Placement& p : a.encampments) {
      if (!map_->Valid(p.region) || !kept(p.region) || p.count < 0)
        return Reject(why, Code::kBadPlacement, [&] { return "encampment in " + RegionName(p.region) + ": not a region the " + RaceName(race) + " keep"; });
      camps += p.count;
    }
    if (camps > Info(Piece::kEncampment).in_box)
      return Reject(why, Code::kBadPlacement, [&] { return std::to_string(camps) + " encampments placed; there are 5"; });
  }
  if (a.fortress >= 0) {
    if (ghouls || c.power != Power::kFortified)
      return Reject(why, Code::kPowerNotAvailable, [&] { return "fortresses belong to an active Fortified race"; });
    if (turn_.fortress_placed) return Reject(why, Code::kPowerNotAvailable, [] { return "one fortress per turn"; });
    if (!map_->Valid(a.fortress) || !kept(a.fortress))
      return Reject(why, Code::kBadPlacement, [&] { return "fortress in " + RegionName(a.fortress) + ": not a region the " + RaceName(race) + " keep"; });
    if (board_[a.fortress].fortress) return Reject(why, Code::kBadPlacement, [&] { return RegionName(a.fortress) + " already has a fortress"; });
    if (PiecesOnMap(Piece::kFortress) >= Info(Piece::kFortress).in_box)
      return Reject(why, Code::kPowerNotAvailable, [] { return "all 6 fortresses are on the map"; });
  }
  if (!a.heroes.empty()) {
    if (ghouls || c.power != Power::kHeroic) return Reject(why, Code::kPowerNotAvailable, [&] { return "heroes belong to an active Heroic race"; });
    if (a.heroes.size() > 2 || (a.heroes.size() == 2 && a.heroes[0] == a.heroes[1]))
      return Reject(why, Code::kBadPlacement, [] { return "the 2 heroes go to 2 different regions"; });
    for (int h : a.heroes)
      if (!map_->Valid(h) || !kept(h)) return Reject(why, Code::kBadPlacement, [&] { return "hero in " + RegionName(h) + ": not a region the " + RaceName(race) + " keep"; });
    // Both heroes are placed, in 2 different regions, unless the race keeps a single region (RULINGS 10).
    const auto keeps = std::count_if(a.placement.begin(), a.placement.end(), [](const Placement& p) { return p.count > 0; });
    if (a.heroes.size() == 1 && keeps >= 2)
      return Reject(why, Code::kBadPlacement, [&] { return "both heroes are placed, in 2 different regions: the " + RaceName(race) + " keep " + std::to_string(keeps) + " regions"; });
  }
  return Code::kOk;
}

void Game::DoRedeploy(const Action& a) {
  const bool ghouls = a.with == With::kGhouls;
  const Race race = static_cast<Race>(ghouls ? DeclinedGhouls(a.player) : players_[a.player].active);
  CivState& c = civ_mut(race);
  int aside = 0;
  RedeployTotal(race, &aside);  // computed before readying changes the hand; the total does not change
  if (ghouls && !turn_.ghouls_readied) Ready(race), turn_.ghouls_readied = true;
  if (!ghouls && !turn_.readied) Ready(race), turn_.readied = true;
  for (const Placement& p : a.placement) {
    RegionState& r = board_[p.region];
    if (p.count == 0) r.ClearOccupant();
    else r.tokens = static_cast<uint8_t>(p.count);
  }
  c.hand = 0;
  if (ghouls) {
    turn_.ghouls_over = turn_.ghouls_redeployed = true;
    return;
  }
  c.aside = aside;
  if (a.has_encampments) {
    for (RegionState& r : board_) r.encampments = 0;
    for (const Placement& p : a.encampments) board_[p.region].encampments = static_cast<uint8_t>(board_[p.region].encampments + p.count);
  }
  if (a.fortress >= 0) board_[a.fortress].fortress = 1, turn_.fortress_placed = true;
  if (!a.heroes.empty()) {
    for (RegionState& r : board_) r.hero = 0;
    for (int h : a.heroes) board_[h].hero = 1;
  }
  turn_.conquests_over = turn_.redeployed = turn_.active_started = true;
}

// Amazons' 4 conquest-only tokens when the turn ends without a redeploy (docs/record.md).
int Game::AmazonsToSetAside() const {
  const CivState& c = civ(Race::kAmazons);
  return std::min(kAmazonConquestOnlyTokens, TokensOnBoard(Race::kAmazons) + c.hand + c.aside) - c.aside;
}

void Game::SetAmazonsAside(Race race) {
  CivState& c = civ_mut(race);
  int need = AmazonsToSetAside();
  const int from_hand = std::min(need, c.hand);
  c.hand -= from_hand, c.aside += from_hand, need -= from_hand;
  for (; need > 0; --need) {
    int best = -1;
    for (int i = 0; i < map_->size(); ++i)
      if (board_[i].race == static_cast<int>(race) && (best < 0 || board_[i].tokens > board_[best].tokens)) best = i;
    if (best < 0) break;
    if (--board_[best].tokens == 0) board_[best].ClearOccupant();
    ++c.aside;
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Withdraw, ally, decline

Code Game::CheckWithdraw(const Action& a, std::string* why) const {
  if (a.player == current_)
    return Reject(why, Code::kNotYourTurn, [] { return "withdraw is for a defender during another player's turn; place your own tokens with redeploy"; });
  if (!(turn_.withdrawn & (1u << a.player)))
    return Reject(why, Code::kNotYourTurn, [&] { return PlayerName(a.player) + " lost no region this turn, so has no withdrawn tokens to place"; });
  std::array<int, kRaceCount> placed{};
  for (const Placement& p : a.placement) {
    if (!map_->Valid(p.region)) return Reject(why, Code::kUnknownRegion, [&] { return RegionName(p.region) + " is not on map " + map_->key; });
    const RegionState& r = board_[p.region];
    if (r.owner != a.player || p.count < 0)
      return Reject(why, Code::kBadPlacement, [&] { return RegionName(p.region) + " is not held by " + PlayerName(a.player) + ": withdrawn tokens go to regions the race still holds"; });
    placed[r.race] += p.count;
    if (placed[r.race] > civs_[r.race].hand)
      return Reject(why, Code::kBadPlacement, [&] {
        return PlayerName(a.player) + " places " + std::to_string(placed[r.race]) + " " + RaceName(r.race) + " tokens but holds " + std::to_string(civs_[r.race].hand);
      });
  }
  if (a.has_encampments) {
    const int active = players_[a.player].active;
    if (active < 0 || civs_[active].power != Power::kBivouacking)
      return Reject(why, Code::kPowerNotAvailable, [] { return "encampments belong to an active Bivouacking race"; });
    int camps = PiecesOnMap(Piece::kEncampment);
    for (const Placement& p : a.encampments) {
      if (!map_->Valid(p.region) || board_[p.region].race != active || p.count < 0)
        return Reject(why, Code::kBadPlacement, [&] { return "encampment in " + RegionName(p.region) + ": not a region the " + RaceName(active) + " hold"; });
      camps += p.count;
    }
    if (camps > Info(Piece::kEncampment).in_box) return Reject(why, Code::kBadPlacement, [&] { return "only 5 encampments exist"; });
  }
  return Code::kOk;
}

void Game::DoWithdraw(const Action& a) {
  for (const Placement& p : a.placement) {
    RegionState& r = board_[p.region];
    civs_[r.race].hand -= p.count;
    r.tokens = static_cast<uint8_t>(r.tokens + p.count);
  }
  for (const Placement& p : a.encampments) board_[p.region].encampments = static_cast<uint8_t>(board_[p.region].encampments + p.count);
  turn_.conquests_over = turn_.ghouls_over = true;  // withdrawals are the final action of the turn
}

Code Game::CheckAlly(const Action& a, std::string* why) const {
  const int race = players_[a.player].active;
  if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race"; });
  if (civs_[race].power != Power::kDiplomat) return Reject(why, Code::kPowerNotAvailable, [&] { return "the " + RaceName(race) + " are not Diplomats"; });
  if (turn_.ally_chosen) return Reject(why, Code::kPowerNotAvailable, [] { return "an ally has already been chosen this turn"; });
  if (a.target < 0 || a.target >= player_count()) return Reject(why, Code::kUnknownPlayer, [] { return "the ally is not a player of this game"; });
  if (a.target == a.player) return Reject(why, Code::kBadTarget, [] { return "a Diplomat chooses an opponent as ally"; });
  if (turn_.attacked_active & (1u << a.target))
    return Reject(why, Code::kBadTarget, [&] { return "the " + RaceName(race) + " attacked " + PlayerName(a.target) + "'s active race this turn"; });
  return Code::kOk;
}

void Game::DoAlly(const Action& a) {
  players_[a.player].peace_with = a.target;
  turn_.ally_chosen = turn_.conquests_over = true;
}

Code Game::CheckDecline(const Action& a, std::string* why) const {
  if (turn_.any_action) return Reject(why, Code::kWrongPhase, [] { return "a race goes into decline as the first action of a turn (Stout: end_turn with decline)"; });
  if (players_[a.player].active < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race to put in decline"; });
  return Code::kOk;
}

void Game::DoDecline(const Action& a) {
  DeclineActive(a.player);
  turn_.declined = true;
}

void Game::DeclineActive(int player) {  // RULINGS 26, 8, 9
  const Race race = static_cast<Race>(players_[player].active);
  CivState& c = civ_mut(race);
  if (c.power != Power::kSpirit) {  // the older in-decline race leaves the map, unless it is Spirit
    for (int r = 0; r < kRaceCount; ++r)
      if (civs_[r].owner == player && civs_[r].decline && civs_[r].power != Power::kSpirit) Vanish(static_cast<Race>(r));
  }
  c.hand = 0;
  c.aside = 0;
  for (RegionState& r : board_) {
    if (r.race != static_cast<int>(race)) continue;
    if (race != Race::kGhouls) r.tokens = 1;
    r.decline = true;
    r.encampments = r.hole = r.hero = r.dragon = 0;  // fortresses and lairs stay
  }
  c.decline = true;
  if (c.power != Power::kSpirit) power_discards_.push_back(c.power);
  players_[player].active = -1;
  if (CountRegions(race) == 0) Vanish(race);
}

// ------------------------------------------------------------------------------------------------------------------
// End of turn

Code Game::CheckEndTurn(const Action& a, std::string* why) const {
  const PlayerState& p = players_[a.player];
  if (a.decline) {
    if (p.active < 0 || civs_[p.active].power != Power::kStout || turn_.declined)
      return Reject(why, Code::kPowerNotAvailable, [] { return "only an active Stout race declines at the end of its turn"; });
  }
  if (p.active >= 0 && !turn_.declined) {
    const Race race = static_cast<Race>(p.active);
    const CivState& c = civs_[p.active];
    int keep = c.hand;
    if (race == Race::kAmazons) keep -= std::max(0, std::min(kAmazonConquestOnlyTokens, TokensOnBoard(race) + c.hand + c.aside) - c.aside);
    if (keep > 0 && RegionsHeld(race) > 0)
      return Reject(why, Code::kBadPlacement, [&] { return "the " + RaceName(p.active) + " still hold " + std::to_string(keep) + " tokens in hand: a redeploy must place them"; });
    if (!turn_.redeployed && SkeletonBonus() > 0)
      return Reject(why, Code::kBadPlacement, [&] { return "the Skeletons earned " + std::to_string(SkeletonBonus()) + " new tokens: a redeploy must place them"; });
  }
  const int ghouls = DeclinedGhouls(a.player);
  if (ghouls >= 0 && !turn_.declined && civs_[ghouls].hand > 0 && RegionsHeld(Race::kGhouls) > 0)
    return Reject(why, Code::kBadPlacement, [&] { return "the in-decline Ghouls still hold " + std::to_string(civs_[ghouls].hand) + " tokens in hand: redeploy them with \"with\": \"ghouls\""; });
  return Code::kOk;
}

void Game::DoEndTurn(const Action& a) {
  PlayerState& p = players_[a.player];
  if (p.active == static_cast<int>(Race::kAmazons)) SetAmazonsAside(Race::kAmazons);
  const CoinBreakdown coins = Score(a.player);
  p.coins += coins.total();
  scores_.push_back(TurnScore{round_, a.player, coins});
  for (CivState& c : civs_)
    if (c.owner == a.player) c.first_turn = false;
  if (a.decline) DeclineActive(a.player);
  NextTurn();
}

}  // namespace swref::engine
