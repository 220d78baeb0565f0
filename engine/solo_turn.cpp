// SoloPlay: the order of a solo game (setup, then rounds of one turn each), choosing and paying for a combo
// (Playing the game, 1), the end of a turn with its scoring (5), the decline of any race at the end of its turn
// (6), and the race that leaves the map.
#include <algorithm>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

int Game::SoloRace() const {
  if (solo_.phase == SoloPhase::kSetup) return static_cast<int>(solo_.opposition[solo_.placing].race);
  return players_[0].active;
}

int Game::SoloPickCost(int slot) const { return slot + (solo_.picks >= 3 ? kSoloLateComboFee : 0); }

bool Game::CanAffordCombo() const { return !solo_.combos.empty() && players_[0].coins >= SoloPickCost(0); }

int Game::SoloScore() const { return players_[0].coins - solo_.OppositionTotal(); }

Rating Game::SoloRating() const {
  if (!solo_.ended) return Rating::kGameLoss;
  return RatingFor(SoloScore(), solo_.terrains_missing.empty());
}

Code Game::EvaluateSolo(const Action& a, std::string* why) const {
  if (finished_)
    return Reject(why, Code::kGameOver,
                  [&] { return "the solo game is over: all " + std::to_string(solo_.rounds) + " rounds have been played"; });
  if (a.player != 0) return Reject(why, Code::kNotYourTurn, [] { return "a solo game has one player"; });
  if (solo_.phase == SoloPhase::kSetup) {
    switch (a.type) {
      case ActionType::kConquer:
        return a.with == With::kSorcery ? CheckSetupSorcery(a, why) : CheckSetupConquer(a, why);
      case ActionType::kRedeploy:
        return CheckSetupRedeploy(a, why);
      case ActionType::kEndTurn:
        return CheckSetupEndTurn(a, why);
      default:
        return Reject(why, Code::kWrongPhase, [&] {
          const OppositionRace& o = solo_.opposition[solo_.placing];
          return "the opposition is being placed (race " + std::to_string(solo_.placing + 1) + " of " +
                 std::to_string(solo_.opposition.size()) + ", the " + std::string(Info(o.power).name) + " " +
                 RaceName(static_cast<int>(o.race)) + "): only conquer, redeploy and end_turn until the last one is scored";
        });
    }
  }
  if (a.type != ActionType::kPick && players_[0].active < 0 && !turn_.picked && CanAffordCombo())
    return Reject(why, Code::kWrongPhase, [&] { return PlayerName(0) + " has no active race: pick a combo first"; });
  switch (a.type) {
    case ActionType::kPick:
      return CheckSoloPick(a, why);
    case ActionType::kConquer:
      return a.with == With::kSorcery ? CheckSoloSorcery(a, why) : CheckSoloConquer(a, why);
    case ActionType::kRedeploy:
      return CheckSoloRedeploy(a, why);
    case ActionType::kErode:
      return CheckErode(a, why);
    case ActionType::kEndTurn:
      return CheckSoloEndTurn(a, why);
    case ActionType::kDecline:
      return Reject(why, Code::kWrongPhase,
                    [] { return "in SoloPlay every race is stout: it declines at the end of its turn (end_turn with decline: true)"; });
    case ActionType::kAbandon:
      return Reject(why, Code::kWrongPhase, [] {
        return "SoloPlay has no readying or abandoning: a region is vacated by attacking or moving with all its tokens";
      });
    case ActionType::kWithdraw:
      return Reject(why, Code::kWrongPhase,
                    [] { return "the opposition has no withdrawal: its tokens retreat at once (retreat on the conquest)"; });
    case ActionType::kAlly:
      return Reject(why, Code::kPowerNotAvailable,
                    [] { return "a SoloPlay Diplomat has no one to ally with: it scores 3 coins for a turn that takes an empty region"; });
  }
  return Code::kWrongPhase;
}

void Game::ApplySolo(const Action& a) {
  const bool setup = solo_.phase == SoloPhase::kSetup;
  switch (a.type) {
    case ActionType::kPick:
      DoSoloPick(a);
      break;
    case ActionType::kConquer:
      setup ? DoSetupConquer(a) : DoSoloConquer(a);
      break;
    case ActionType::kRedeploy:
      setup ? DoSetupRedeploy(a) : DoSoloRedeploy(a);
      break;
    case ActionType::kErode:
      DoErode(a);
      break;
    case ActionType::kEndTurn:
      setup ? DoSetupEndTurn(a) : DoSoloEndTurn(a);
      Recount();
      return;  // the next turn (or the next race's placement) has begun
    default:
      break;  // rejected in EvaluateSolo
  }
  Recount();
  turn_.any_action = true;
}

Code Game::CheckSoloPick(const Action& a, std::string* why) const {
  const PlayerState& p = players_[0];
  if (p.active >= 0)
    return Reject(why, Code::kWrongPhase,
                  [&] { return p.name + " already plays the " + RaceName(p.active) + ": decline them at the end of a turn first"; });
  if (turn_.any_action) return Reject(why, Code::kWrongPhase, [] { return "a combo is picked at the start of the turn"; });
  const int n = static_cast<int>(solo_.combos.size());
  if (a.slot < 0 || a.slot >= n)
    return Reject(why, Code::kBadSlot, [&] {
      return "slot " + std::to_string(a.slot) + " holds no combo (" + std::to_string(n) + " of the player's 5 are left" +
             (n ? ", slots 0.." + std::to_string(n - 1) : "") + ")";
    });
  const int cost = SoloPickCost(a.slot);
  if (p.coins < cost)
    return Reject(why, Code::kNotEnoughCoins, [&] {
      return "slot " + std::to_string(a.slot) + " costs " + std::to_string(cost) + " coins (" + std::to_string(a.slot) + " for the slot" +
             (solo_.picks >= 3 ? " + 5 for the " + std::to_string(solo_.picks + 1) + "th combo" : "") + "); " + p.name + " has " +
             std::to_string(p.coins);
    });
  return Code::kOk;
}

void Game::DoSoloPick(const Action& a) {  // the coins go into the box (1.a.i)
  PlayerState& p = players_[0];
  p.coins -= SoloPickCost(a.slot);
  const SoloCombo combo = solo_.combos[a.slot];
  solo_.combos.erase(solo_.combos.begin() + a.slot);
  ++solo_.picks;
  CivState& c = civ_mut(combo.race);
  c = CivState{};
  c.owner = 0;
  c.power = combo.power;
  c.hand = std::min(StartingTokens(combo.race, combo.power), Info(combo.race).box_tokens);
  p.active = static_cast<int>(combo.race);
  turn_.picked = true;
}

Code Game::CheckSoloEndTurn(const Action& a, std::string* why) const {
  const PlayerState& p = players_[0];
  if (a.decline) {
    if (p.active < 0) return Reject(why, Code::kNoActiveRace, [] { return "no active race to decline"; });
    if (solo_.combos.empty()) return Reject(why, Code::kWrongPhase, [] { return "all 5 combos are used: the last race cannot decline"; });
  }
  if (p.active >= 0 && RegionsHeld(static_cast<Race>(p.active)) > 0) {
    const int left = SoloHandToPlace(static_cast<Race>(p.active));
    if (left > 0)
      return Reject(why, Code::kBadPlacement, [&] {
        return "the " + RaceName(p.active) + " hold " + std::to_string(left) + " tokens to place: redeploy them with add";
      });
  }
  const int ghouls = DeclinedGhouls(0);
  if (ghouls >= 0 && civs_[ghouls].hand > 0 && RegionsHeld(Race::kGhouls) > 0)
    return Reject(why, Code::kBadPlacement, [&] {
      return "the in-decline Ghouls hold " + std::to_string(civs_[ghouls].hand) +
             " tokens: redeploy them with add and \"with\": \"ghouls\"";
    });
  const std::vector<Race>& due = solo_.turn.erosion_due;
  for (size_t i = 0; i < due.size(); ++i) {
    if (RegionsHeld(due[i]) == 0 || (solo_.turn.eroded & (1u << static_cast<int>(due[i])))) continue;
    return Reject(why, Code::kWrongPhase, [&] {
      return "the " + RaceName(static_cast<int>(due[i])) + " (in decline) lose " + std::to_string(i + 1) + (i ? " tokens" : " token") +
             " this round: erode first";
    });
  }
  return Code::kOk;
}

void Game::DoSoloEndTurn(const Action& a) {
  PlayerState& p = players_[0];
  if (p.active == static_cast<int>(Race::kAmazons) && civ(Race::kAmazons).first_turn) {  // 1.a.ii.1: the 4 go back to the box
    SetAmazonsAside(Race::kAmazons);
    civ_mut(Race::kAmazons).aside = 0;
  }
  CoinBreakdown coins = Score(0);
  if (p.active >= 0 && civs_[p.active].power == Power::kDiplomat && solo_.turn.took_empty) coins.power += kSoloDiplomatBonus;
  p.coins += coins.total();
  scores_.push_back(TurnScore{round_, 0, coins});
  for (CivState& c : civs_)
    if (c.owner == 0) c.first_turn = false;
  if (a.decline) SoloDecline();
  SoloNextTurn();
}

// 6.a: up to 2 tokens stay in each region (all of them for Spirit, Stout and Ghouls); heroes and the dragon
// leave, lairs, fortresses, encampments and holes stay.
void Game::SoloDecline() {
  const Race race = static_cast<Race>(players_[0].active);
  CivState& c = civ_mut(race);
  const bool all = c.power == Power::kSpirit || c.power == Power::kStout || race == Race::kGhouls;
  for (RegionState& r : board_) {
    if (r.race != static_cast<int>(race)) continue;
    if (!all) r.tokens = std::min<uint8_t>(r.tokens, 2);
    r.decline = true;
    r.hero = r.dragon = 0;
  }
  c.hand = c.aside = 0;
  c.decline = true;
  players_[0].active = -1;
  solo_.declined.insert(solo_.declined.begin(), race);
  if (CountRegions(race) == 0) SoloLeave(race);
}

void Game::SoloLeave(Race race) {
  for (RegionState& r : board_)
    if (r.race == static_cast<int>(race)) r.ClearOccupant();
  civ_mut(race) = CivState{};
  std::erase(solo_.declined, race);
}

void Game::SoloNextTurn() {
  turn_ = TurnState{};
  solo_.turn = SoloTurn{};
  if (round_ == solo_.rounds) {
    finished_ = true;
    ScoreSoloEnd();
    return;
  }
  ++round_;
  solo_.turn.erosion_due = solo_.declined;
}

}  // namespace swref::engine
