// The game flow of standard Small World for 2-5 players: setup, the combo column and its coins, turns and
// rounds, picking, readying, abandoning, conquering (costs, first conquest, adjacency, the reinforcement die,
// every race and special power), redeployment, defenders' withdrawals, decline, scoring at the end of every turn,
// and the end of the game with its tie-break. Rules: the rulebook (shared seeds/000) and rules/RULINGS.md;
// the record semantics and every decision the rules leave open: docs/record.md.
// The same class plays the single-player SoloPlay variant (GameOptions::solo; solo.h, docs/solo.md): its checks
// and changes are the Solo*/Setup* members, reached first from Evaluate and Apply in a solo game only.
//
// Game::Apply checks an action completely before it changes anything: a rejected action returns a stable code
// and a sentence with the numbers and leaves the game exactly as it was. Game::Check is the same check without
// the sentence, for the hot paths (legal-action enumeration, random games). The engine never prints.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/board.h"
#include "engine/coins.h"
#include "engine/components.h"
#include "engine/map.h"
#include "engine/result.h"
#include "engine/rng.h"
#include "engine/solo.h"

namespace swref::engine {

// A race banner and what goes with it while a player holds it (active or in decline).
struct CivState {
  int8_t owner = kNobody;   // kNobody: the banner is in the column or the stack
  bool decline = false;
  Power power = Power::kAlchemist;
  int hand = 0;             // tokens in hand (to conquer with, or withdrawn after losses)
  int aside = 0;            // Amazons: conquest-only tokens set aside until the next Ready
  int holes_granted = 0;    // Halflings: holes placed so far (2 at most, ever)
  bool first_turn = true;   // the race's first turn has not ended yet (Wealthy)
};

struct PlayerState {
  std::string name;
  int coins = kStartingCoins;
  int active = -1;          // Race (as int) of the active race, or -1
  int peace_with = -1;      // Diplomat: this player may not attack my active race until my next turn, or -1
};

struct Combo {
  Race race;
  Power power;
  int coins = 0;            // coins dropped on it by players who picked below it
};

// Flags of the turn in progress (the current player's).
struct TurnState {
  bool any_action = false;          // the current player has had an action accepted this turn
  bool picked = false;
  bool declined = false;            // a decline turn: no conquest, score and end
  bool active_started = false;      // the active race has conquered, abandoned or redeployed (Ghouls may no longer conquer)
  bool active_conquered = false;    // the active race has made a conquest (no more abandoning)
  bool readied = false;
  bool conquests_over = false;      // the active race's conquests have ended
  bool redeployed = false;
  bool ghouls_readied = false;
  bool ghouls_over = false;         // the in-decline Ghouls' conquests have ended
  bool ghouls_redeployed = false;
  bool dragon_used = false;
  bool fortress_placed = false;
  bool ally_chosen = false;
  int nonempty_conquered = 0;       // non-empty regions the active race conquered this turn (Orcs, Pillaging, Skeletons)
  uint8_t sorcery_used = 0;         // bit p: Sorcerers converted a token of player p this turn
  uint8_t attacked_active = 0;      // bit p: the active race attacked player p's active race this turn
  uint8_t withdrawn = 0;            // bit p: player p lost tokens to a conquest this turn (may `withdraw`)
};

struct TurnScore {
  int round = 0;
  int player = 0;
  CoinBreakdown coins;
};

// How the cost of a conquest is made up, for the verdict's sentence.
struct CostBreakdown {
  int base = 2;
  int mountain = 0, troll_lair = 0, fortress = 0, encampments = 0;
  int lost_tribe = 0, defenders = 0;
  // Discounts, 1 each where they apply (RULINGS 24: they stack, the cost never drops below 1).
  int commando = 0, mounted = 0, underworld = 0, tritons = 0, giants = 0;
  int total = 2;
  std::string Describe() const;     // "2 + 1 mountain + 1 lost tribe - 1 Commando"
};

struct GameOptions {
  std::shared_ptr<const Map> map;
  std::vector<std::string> players;   // seating order
  std::vector<Race> races;            // the stacks' top part in order (index 0 = top of the column); missing ones follow shuffled by seed
  std::vector<Power> powers;
  uint64_t seed = 0;
  bool solo = false;                  // SoloPlay (docs/solo.md): one player, the opposition placed at setup
  SoloOptions solo_options;
};

class Game {
 public:
  static Result<Game> Create(const GameOptions& options);

  Verdict Apply(const Action& action);
  Code Check(const Action& action) const;
  // A conquest the players accept against the rules, a house ruling (docs/record.md): the region is taken as it
  // lies on the table, with the tokens placed. Returns the rules' verdict (kOk: legal anyway, applied as usual).
  // `*applied` is false, the game unchanged and the verdict's sentence says why, when the table cannot show it:
  // not a conquest, not the player's turn, no race to conquer with, more tokens than in hand, a die attempt.
  Verdict ApplyHouseRuling(const Action& action, bool* applied);

  // State, read-only.
  const Map& map() const { return *map_; }
  const std::shared_ptr<const Map>& map_ptr() const { return map_; }
  const Board& board() const { return board_; }
  const std::vector<PlayerState>& players() const { return players_; }
  const std::array<CivState, kRaceCount>& civs() const { return civs_; }
  const CivState& civ(Race race) const { return civs_[static_cast<int>(race)]; }
  const std::vector<Combo>& column() const { return column_; }
  const TurnState& turn() const { return turn_; }
  const std::vector<TurnScore>& scores() const { return scores_; }
  int current_player() const { return current_; }
  int round() const { return round_; }
  bool finished() const { return finished_; }
  int player_count() const { return static_cast<int>(players_.size()); }

  // Queries the referee, the legal-action enumeration and the reports use.
  CostBreakdown ConquestCost(Race race, int region, bool ghouls = false) const;
  int TokensOnBoard(Race race) const { return on_board_[static_cast<int>(race)]; }
  int TokensInTray(Race race) const;          // the box count less what is on the board, in hand or set aside
  int RegionsHeld(Race race) const { return held_[static_cast<int>(race)]; }
  int TokensOnBoardOf(int player) const;      // tie-break: race tokens of all the player's races on the board
  int HandOf(int player) const;               // tokens in hand over all the player's races
  std::vector<int> Winners() const;           // empty until finished; several on a shared win
  // In-decline Ghouls of the player, or -1.
  int DeclinedGhouls(int player) const;
  // A debug consistency check of the whole state (token and piece counts, owners); "" when consistent.
  std::string CheckConsistency() const;
  // The Amazons' conquest-only tokens still to set aside at the end of this turn: the 4 less those aside already,
  // at most what the Amazons hold (taken from the hand first, then from the board: docs/record.md).
  int AmazonsToSetAside() const;

  // SoloPlay (solo.h, docs/solo.md). The variant's state, or nullptr in a standard game.
  const SoloState* solo() const { return solo_.on ? &solo_ : nullptr; }
  // The race an action of the solo player moves: the opposition race being placed during setup, else the active
  // race (-1: none).
  int SoloRace() const;
  // SoloPlay's "neighbouring": adjacent regions, and for an active Underworld race two caverns, for an active
  // Flying race any land region. Conquests attack from neighbouring regions; the redeployment moves to one.
  bool SoloNeighbours(Race race, int from, int to) const;
  // The coins the player's pick of `slot` costs (the slot, +5 for the 4th and 5th combo).
  int SoloPickCost(int slot) const;
  // The point differential: the player's coins less the pooled opposition score.
  int SoloScore() const;
  // The rating once the game is finished (Game Loss until then).
  Rating SoloRating() const;
  // Setup: a region the opposition race being placed can still attack with its tokens in hand (outright or by a
  // reinforcement attempt), or -1 (its placement may end).
  int SetupReachable() const;
  // Setup: the tokens the balancing redeploy of the race being placed must place, and those in hand it cannot
  // place (they leave the game for 2 coins each).
  int SetupToPlace(Race race, int* unplaceable) const;
  // Play: whether the race conquers from its hand (its first turn, or tokens in hand) rather than from
  // neighbouring regions (`from`).
  bool FromHand(Race race) const;
  // Play: tokens in hand the race must place with the redeploy's `add` before the turn ends.
  int SoloHandToPlace(Race race) const;

 private:
  Game() = default;

  CivState& civ_mut(Race race) { return civs_[static_cast<int>(race)]; }
  std::string RaceName(int race) const;
  std::string PlayerName(int player) const { return players_[player].name; }

  // Each action: a const check that fills `why` when it is given, and the change, run only after an Ok check.
  Code CheckPick(const Action& a, std::string* why) const;
  void DoPick(const Action& a);
  Code CheckConquer(const Action& a, std::string* why) const;
  Code CheckSorcery(const Action& a, std::string* why) const;
  void DoConquer(const Action& a);
  Code CheckAbandon(const Action& a, std::string* why) const;
  void DoAbandon(const Action& a);
  Code CheckRedeploy(const Action& a, std::string* why) const;
  void DoRedeploy(const Action& a);
  Code CheckWithdraw(const Action& a, std::string* why) const;
  void DoWithdraw(const Action& a);
  Code CheckAlly(const Action& a, std::string* why) const;
  void DoAlly(const Action& a);
  Code CheckDecline(const Action& a, std::string* why) const;
  void DoDecline(const Action& a);
  Code CheckEndTurn(const Action& a, std::string* why) const;
  void DoEndTurn(const Action& a);
  Code Evaluate(const Action& a, std::string* why) const;

  // Shared pieces of the rules.
  Code CheckTarget(int conqueror, int region, bool ghouls, std::string* why) const;  // reachability, water, immunity, peace
  // The tokens-in-hand part of a conquest's check (cost, reinforcement die, Berserk, dragon) with `hand` in hand.
  Code CheckHandTokens(int race, const Action& a, int hand, bool ghouls, std::string* why) const;
  struct HandOutcome {
    int placed;     // tokens that enter the region on success
    bool success;
    bool ends;      // the conquests of the turn end (a reinforcement attempt, a Berserk roll that fell short)
  };
  HandOutcome ResolveHandConquest(const Action& a, Race race, bool ghouls) const;  // after readying
  void Ready(Race race);             // leave 1 token per region, the rest (and Amazons' set-aside 4) in hand
  int HandAfterReady(Race race) const;
  void TakeRegion(int region, Race race, int tokens, bool decline);  // defenders lose and withdraw, then the race moves in
  void Vanish(Race race);                                            // a race leaves the map: banner back, badge discarded
  void DeclineActive(int player);
  void SetAmazonsAside(Race race);  // Amazons: set the 4 conquest-only tokens aside (docs/record.md)
  int SkeletonBonus() const;
  int RedeployTotal(Race race, int* aside_after) const;
  CoinBreakdown Score(int player) const;
  void RefillColumn();
  void ReturnBanner(Race race);
  void NextTurn();
  int PiecesOnMap(Piece piece) const;
  int CountRegions(Race race) const;  // RegionsHeld without the cache, for use while the board changes
  void Recount();                     // refresh the per-race caches after an action changed the board

  // SoloPlay: setup (solo_setup.cpp, solo_placement.cpp), the player's turns (solo_turn.cpp, solo_conquest.cpp,
  // solo_redeploy.cpp), scoring (solo_scoring.cpp).
  std::string SetUpSolo(const GameOptions& options);  // "" or the error naming the field
  Code EvaluateSolo(const Action& a, std::string* why) const;
  void ApplySolo(const Action& a);
  void StartPlacing();
  void EndSetup();
  SetupEvent SetupEventFor(Race race, int region, With with) const;
  int SetupShortfall(Race race, int region, int die) const;
  Code CheckSetupLimits(Race race, const Action& a, std::string* why) const;
  Code CheckSetupConquer(const Action& a, std::string* why) const;
  Code CheckSetupSorcery(const Action& a, std::string* why) const;
  void DoSetupConquer(const Action& a);
  std::string SetupPiecesMissing(Race race, const Action& a) const;
  std::vector<BalanceCell> BalanceCells(const Action& a) const;
  int SoloSkeletonBonus(Race race) const;
  Code CheckPieces(Race race, const Action& a, const std::vector<int>& after, std::string* why) const;  // encampments, fortress, heroes
  void PlacePieces(Race race, const Action& a);
  Code CheckMove(Race race, const Move& m, bool into_hole, std::vector<int>* after, std::string* why) const;
  Code CheckSetupRedeploy(const Action& a, std::string* why) const;
  void DoSetupRedeploy(const Action& a);
  Code CheckSetupEndTurn(const Action& a, std::string* why) const;
  void DoSetupEndTurn(const Action& a);
  Code CheckSoloPick(const Action& a, std::string* why) const;
  void DoSoloPick(const Action& a);
  Code CheckSoloConquer(const Action& a, std::string* why) const;
  Code CheckSoloSources(const Action& a, Race race, int* attackers, std::string* why) const;
  Code CheckRetreat(const Action& a, std::string* why) const;
  std::vector<int> RetreatRegions(int region) const;
  Code CheckSoloSorcery(const Action& a, std::string* why) const;
  void DoSoloConquer(const Action& a);
  void TakeSolo(int region, Race race, int tokens, bool ghouls, const std::vector<int>& retreat);
  Code CheckSoloRedeploy(const Action& a, std::string* why) const;
  void DoSoloRedeploy(const Action& a);
  Code CheckErode(const Action& a, std::string* why) const;
  void DoErode(const Action& a);
  Code CheckSoloEndTurn(const Action& a, std::string* why) const;
  void DoSoloEndTurn(const Action& a);
  void SoloDecline();
  void SoloLeave(Race race);
  void SoloNextTurn();
  bool CanAffordCombo() const;
  CoinBreakdown ScoreRace(Race race) const;
  void ScoreSoloEnd();
  std::string CheckSoloConsistency() const;

  std::shared_ptr<const Map> map_;
  Board board_;
  // Per-race caches of the board, refreshed after every applied action (Check is the hot path).
  std::array<int, kRaceCount> held_{};      // regions held
  std::array<int, kRaceCount> on_board_{};  // tokens on the board
  std::array<int, kRaceCount> spare_{};     // tokens above 1 per region (what readying takes in hand)
  std::vector<PlayerState> players_;
  std::array<CivState, kRaceCount> civs_{};
  std::vector<Combo> column_;
  std::vector<Race> race_stack_;      // front = top of the stack
  std::vector<Power> power_stack_;
  std::vector<Power> power_discards_;
  TurnState turn_;
  std::vector<TurnScore> scores_;
  int current_ = 0;
  int round_ = 1;
  bool finished_ = false;
  Rng rng_;
  SoloState solo_;
};

}  // namespace swref::engine
