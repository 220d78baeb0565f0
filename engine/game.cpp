// Setup, dispatch, the combo column, turn order and the state queries. The rules of each action live in
// game_conquest.cpp (conquer, abandon), game_turn.cpp (pick, redeploy, withdraw, ally, decline, end of turn)
// and game_scoring.cpp.
#include "engine/game.h"

#include <algorithm>
#include <set>

namespace swref::engine {

Result<Game> Game::Create(const GameOptions& options) {
  if (!options.map) return Result<Game>::Error("no map");
  const Map& map = *options.map;
  const int n = static_cast<int>(options.players.size());
  if (options.solo) {
    if (n != 1) return Result<Game>::Error("players: a solo game has exactly 1 player; " + std::to_string(n) + " are named");
  } else {
    if (n < 2 || n > 5) return Result<Game>::Error("players: expected 2 to 5 players, got " + std::to_string(n));
    if (n != map.players)
      return Result<Game>::Error("players: map " + map.key + " is for " + std::to_string(map.players) + " players; " + std::to_string(n) + " are named");
  }
  std::set<std::string> names;
  for (const auto& name : options.players) {
    if (name.empty()) return Result<Game>::Error("players: a player's name is empty");
    if (!names.insert(name).second) return Result<Game>::Error("players: \"" + name + "\" is named twice");
  }
  Game game;
  game.map_ = options.map;
  game.rng_.Seed(options.seed);
  for (const auto& name : options.players) game.players_.push_back(PlayerState{name});

  // The stacks: the named ones on top in order, the others shuffled by the seed below them.
  std::vector<Race> races = options.races;
  std::vector<Race> rest_races;
  for (int r = 0; r < kRaceCount; ++r)
    if (std::find(races.begin(), races.end(), static_cast<Race>(r)) == races.end()) rest_races.push_back(static_cast<Race>(r));
  game.rng_.Shuffle(rest_races);
  races.insert(races.end(), rest_races.begin(), rest_races.end());
  std::vector<Power> powers = options.powers;
  std::vector<Power> rest_powers;
  for (int p = 0; p < kPowerCount; ++p)
    if (std::find(powers.begin(), powers.end(), static_cast<Power>(p)) == powers.end()) rest_powers.push_back(static_cast<Power>(p));
  game.rng_.Shuffle(rest_powers);
  powers.insert(powers.end(), rest_powers.begin(), rest_powers.end());
  game.race_stack_ = races;
  game.power_stack_ = powers;
  if (!options.solo) game.RefillColumn();

  game.board_.assign(map.size(), RegionState{});
  for (const Region& r : map.regions) {
    game.board_[r.id].lost_tribe = r.lost_tribe ? 1 : 0;
    game.board_[r.id].mountain = r.HasMountain() ? 1 : 0;
  }
  if (options.solo)
    if (std::string error = game.SetUpSolo(options); !error.empty()) return Result<Game>::Error(error);
  game.Recount();
  return game;
}

// ----------------------------------------------------------------------------------------------------------------
// Dispatch

Code Game::Evaluate(const Action& a, std::string* why) const {
  if (solo_.on) return EvaluateSolo(a, why);
  if (finished_) {
    if (why) *why = "the game is over: all " + std::to_string(map_->turns) + " rounds have been played";
    return Code::kGameOver;
  }
  if (a.player < 0 || a.player >= player_count()) {
    if (why) *why = "no such player";
    return Code::kNotYourTurn;
  }
  if (a.type != ActionType::kWithdraw && a.player != current_) {
    if (why) *why = "it is " + PlayerName(current_) + "'s turn, not " + PlayerName(a.player) + "'s";
    return Code::kNotYourTurn;
  }
  if (a.type != ActionType::kPick && a.type != ActionType::kWithdraw && players_[a.player].active < 0 && !turn_.picked &&
      !turn_.declined && !column_.empty()) {
    if (why) *why = PlayerName(a.player) + " has no active race: pick a combo first";
    return Code::kWrongPhase;
  }
  switch (a.type) {
    case ActionType::kPick: return CheckPick(a, why);
    case ActionType::kConquer: return a.with == With::kSorcery ? CheckSorcery(a, why) : CheckConquer(a, why);
    case ActionType::kAbandon: return CheckAbandon(a, why);
    case ActionType::kRedeploy: return CheckRedeploy(a, why);
    case ActionType::kWithdraw: return CheckWithdraw(a, why);
    case ActionType::kAlly: return CheckAlly(a, why);
    case ActionType::kDecline: return CheckDecline(a, why);
    case ActionType::kEndTurn: return CheckEndTurn(a, why);
    case ActionType::kErode:
      if (why) *why = "erode belongs to SoloPlay: a standard game has no erosion of in-decline races";
      return Code::kWrongPhase;
  }
  return Code::kWrongPhase;
}

Code Game::Check(const Action& action) const { return Evaluate(action, nullptr); }

Verdict Game::Apply(const Action& a) {
  Verdict verdict;
  verdict.code = Evaluate(a, &verdict.why);
  if (!verdict.ok()) return verdict;
  if (solo_.on) {
    ApplySolo(a);
    return verdict;
  }
  switch (a.type) {
    case ActionType::kPick: DoPick(a); break;
    case ActionType::kConquer: DoConquer(a); break;
    case ActionType::kAbandon: DoAbandon(a); break;
    case ActionType::kRedeploy: DoRedeploy(a); break;
    case ActionType::kWithdraw: DoWithdraw(a); break;
    case ActionType::kAlly: DoAlly(a); break;
    case ActionType::kDecline: DoDecline(a); break;
    case ActionType::kEndTurn: DoEndTurn(a); Recount(); return verdict;  // the next turn has begun
    case ActionType::kErode: break;                                         // rejected above
  }
  Recount();
  if (a.player == current_) turn_.any_action = true;
  return verdict;
}

// ----------------------------------------------------------------------------------------------------------------
// The combo column (RULINGS 27)

void Game::RefillColumn() {
  while (static_cast<int>(column_.size()) < kVisibleCombos && !race_stack_.empty()) {
    if (power_stack_.empty()) {  // too few badges: shuffle the discarded ones back
      rng_.Shuffle(power_discards_);
      power_stack_.swap(power_discards_);
      power_discards_.clear();
      if (power_stack_.empty()) return;
    }
    column_.push_back(Combo{race_stack_.front(), power_stack_.front(), 0});
    race_stack_.erase(race_stack_.begin());
    power_stack_.erase(power_stack_.begin());
  }
}

// A vanished race's banner goes to the lowest empty slot of the column, else to the bottom of the stack.
void Game::ReturnBanner(Race race) {
  race_stack_.push_back(race);
  RefillColumn();
}

void Game::Vanish(Race race) {
  CivState& c = civ_mut(race);
  for (RegionState& r : board_)
    if (r.race == static_cast<int>(race)) r.ClearOccupant();
  if (c.owner != kNobody && players_[c.owner].active == static_cast<int>(race)) players_[c.owner].active = -1;
  if (c.decline && c.power == Power::kSpirit) power_discards_.push_back(c.power);  // Spirit kept its badge until now
  c = CivState{};
  ReturnBanner(race);
}

// ----------------------------------------------------------------------------------------------------------------
// Turn order

void Game::NextTurn() {
  turn_ = TurnState{};
  ++current_;
  if (current_ == player_count()) {
    current_ = 0;
    if (round_ == map_->turns) {
      finished_ = true;
      current_ = player_count() - 1;
      return;
    }
    ++round_;
  }
  players_[current_].peace_with = -1;  // a Diplomat's peace lasts until its next turn
}

// ----------------------------------------------------------------------------------------------------------------
// Queries

std::string Game::RaceName(int race) const {
  if (race < 0) return "no race";
  return std::string(Info(static_cast<Race>(race)).name);
}

int Game::CountRegions(Race race) const {
  int n = 0;
  for (const RegionState& r : board_)
    if (r.race == static_cast<int>(race) && r.tokens > 0) ++n;
  return n;
}

void Game::Recount() {
  held_.fill(0), on_board_.fill(0), spare_.fill(0);
  for (const RegionState& r : board_) {
    if (r.race < 0 || r.tokens == 0) continue;
    ++held_[r.race];
    on_board_[r.race] += r.tokens;
    spare_[r.race] += r.tokens - 1;
  }
}

int Game::TokensInTray(Race race) const {
  const CivState& c = civ(race);
  return Info(race).box_tokens - TokensOnBoard(race) - c.hand - c.aside;
}

int Game::TokensOnBoardOf(int player) const {
  int n = 0;
  for (const RegionState& r : board_)
    if (r.owner == player) n += r.tokens;
  return n;
}

int Game::HandOf(int player) const {
  int n = 0;
  for (const CivState& c : civs_)
    if (c.owner == player) n += c.hand;
  return n;
}

int Game::DeclinedGhouls(int player) const {
  const CivState& g = civ(Race::kGhouls);
  return (g.owner == player && g.decline) ? static_cast<int>(Race::kGhouls) : -1;
}

int Game::PiecesOnMap(Piece piece) const {
  int n = 0;
  for (const RegionState& r : board_) n += r.Count(piece);
  return n;
}

std::vector<int> Game::Winners() const {
  std::vector<int> winners;
  if (!finished_) return winners;
  if (solo_.on) {  // SoloPlay: the player wins with any rating above Game Loss
    if (SoloRating() != Rating::kGameLoss) winners.push_back(0);
    return winners;
  }
  int best_coins = -1, best_tokens = -1;
  for (int p = 0; p < player_count(); ++p) {
    const int coins = players_[p].coins, tokens = TokensOnBoardOf(p);
    if (coins > best_coins || (coins == best_coins && tokens > best_tokens)) {
      winners.clear();
      best_coins = coins, best_tokens = tokens;
    }
    if (coins == best_coins && tokens == best_tokens) winners.push_back(p);
  }
  return winners;
}

std::string Game::CheckConsistency() const {
  for (int i = 0; i < static_cast<int>(board_.size()); ++i) {
    const RegionState& r = board_[i];
    const std::string where = "region " + std::to_string(i) + ": ";
    if ((r.race >= 0) != (r.tokens > 0)) return where + "race and token count disagree";
    if (r.race >= 0) {
      const CivState& c = civs_[r.race];
      if (c.owner != r.owner || c.owner == kNobody) return where + "owner disagrees with the race's owner";
      if (c.decline != r.decline) return where + "decline side disagrees with the race";
      if (r.lost_tribe) return where + "a lost tribe shares the region with a race";
    }
    if (r.race < 0 && (r.troll_lair || r.fortress || r.encampments || r.hole || r.hero || r.dragon))
      return where + "a race's piece stands in a region without the race";
    if (map_->regions[i].IsWater() && (r.race >= 0) && civs_[r.race].power != Power::kSeafaring)
      return where + "a race without Seafaring holds water";
    if (r.mountain != (map_->regions[i].HasMountain() ? 1 : 0)) return where + "mountain moved";
    if (r.fortress > 1) return where + "more than one fortress";
  }
  for (int race = 0; race < kRaceCount; ++race) {
    const CivState& c = civs_[race];
    if (CountRegions(static_cast<Race>(race)) != held_[race]) return RaceName(race) + ": region count cache is stale";
    const int tray = TokensInTray(static_cast<Race>(race));
    if (tray < 0) return RaceName(race) + ": more tokens in play than in the box";
    if (c.hand < 0 || c.aside < 0) return RaceName(race) + ": negative hand";
    if (c.owner == kNobody && (c.hand || c.aside || TokensOnBoard(static_cast<Race>(race))))
      return RaceName(race) + ": tokens in play without an owner";
  }
  if (solo_.on) return CheckSoloConsistency();
  for (int p = 0; p < player_count(); ++p) {
    int declined = 0;
    for (const CivState& c : civs_)
      if (c.owner == p && c.decline && c.power != Power::kSpirit) ++declined;
    if (declined > 1) return PlayerName(p) + " has " + std::to_string(declined) + " non-Spirit races in decline";
    if (players_[p].active >= 0 && (civs_[players_[p].active].owner != p || civs_[players_[p].active].decline))
      return PlayerName(p) + ": active race not held";
    if (players_[p].coins < 0) return PlayerName(p) + ": negative coins";
  }
  const std::pair<Piece, int> limits[] = {{Piece::kTrollLair, 10}, {Piece::kFortress, 6}, {Piece::kEncampment, 5},
                                          {Piece::kHole, 2}, {Piece::kHero, 2}, {Piece::kDragon, 1}};
  for (auto [piece, limit] : limits)
    if (PiecesOnMap(piece) > limit) return "too many " + std::string(Info(piece).id) + " pieces on the map";
  return "";
}

}  // namespace swref::engine
