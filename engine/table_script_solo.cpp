// The table of a SoloPlay game (table_script.h): the board as the player leaves it after a solo action, legal or not.
#include <algorithm>

#include "engine/table_script.h"

namespace swref::engine {
namespace {

void Lift(Board* board, int region, int tokens) {
  RegionState& r = (*board)[region];
  r.tokens = static_cast<uint8_t>(std::max(0, r.tokens - tokens));
  if (r.tokens == 0) r.ClearOccupant();  // vacated: its pieces go
}

void Put(Board* board, int region, int race, int tokens) {
  RegionState& r = (*board)[region];
  if (!r.HasRace()) r.owner = 0, r.race = static_cast<int8_t>(race), r.decline = false;
  r.tokens = static_cast<uint8_t>(std::min(255, r.tokens + tokens));
}

// A conquest as the player makes it: the attackers lifted from their regions (from neighbouring regions) or taken
// from the hand, the defenders gone and the opposition's retreating tokens put next door, the attackers put down.
Board SoloConquest(const Game& game, const Action& a) {
  Board board = game.board();
  const bool ghouls = a.with == With::kGhouls, dragon = a.with == With::kDragon, sorcery = a.with == With::kSorcery;
  const int race = ghouls ? game.DeclinedGhouls(0) : game.SoloRace();
  if (race < 0 || !game.map().Valid(a.region)) return board;
  const bool setup = game.solo()->phase == SoloPhase::kSetup;
  const CivState& civ = game.civs()[race];
  const bool berserk = !ghouls && !dragon && !sorcery && civ.power == Power::kBerserk;
  int tokens = 0;
  if (sorcery) {
    tokens = 1;
  } else if (setup || game.FromHand(static_cast<Race>(race))) {
    if (a.die >= 0 && !berserk) return board;  // an attempt: nothing is put down before the roll
    tokens = a.tokens > 0 ? a.tokens : dragon ? 1 : game.ConquestCost(static_cast<Race>(race), a.region, ghouls).total;
  } else {
    for (const Placement& p : a.from)
      if (game.map().Valid(p.region) && board[p.region].race == race) tokens += p.count, Lift(&board, p.region, p.count);
    if (a.die >= 0 && !berserk) return board;  // lifted; the roll decides
    if (game.map().Valid(a.hero)) board[a.hero].hero = 0;
  }
  RegionState& r = board[a.region];
  if (r.HasRace() && r.owner == kOpposition && !setup && !sorcery && game.map().players != 5) {
    std::vector<int> places;
    for (int n : game.map().neighbours[a.region])
      if (board[n].race == r.race) places.push_back(n);
    const int moving = std::min(std::max(0, r.tokens - 2), static_cast<int>(places.size()));
    const std::vector<int> into = a.has_retreat ? a.retreat : moving == static_cast<int>(places.size()) ? places : std::vector<int>{};
    for (int p : into)
      if (game.map().Valid(p) && board[p].race == r.race) ++board[p].tokens;
  }
  r.ClearOccupant();
  r.lost_tribe = 0;
  r.owner = setup ? kOpposition : 0;
  r.race = static_cast<int8_t>(race);
  r.decline = ghouls;
  r.tokens = static_cast<uint8_t>(tokens);
  if (a.hero >= 0 && !setup && !sorcery) r.hero = 1;
  if (!ghouls && race == static_cast<int>(Race::kHalflings) && civ.holes_granted < 2) r.hole = 1;
  int lairs = 0;
  for (const RegionState& other : board) lairs += other.troll_lair;
  if (!ghouls && race == static_cast<int>(Race::kTrolls) && lairs < Info(Piece::kTrollLair).in_box) r.troll_lair = 1;
  if (dragon) {
    for (RegionState& other : board) other.dragon = 0;
    r.dragon = 1;
  }
  return board;
}

// A redeploy as the player makes it: the setup's balancing counts, or the moves and the tokens added; the pieces.
Board SoloRedeploy(const Game& game, const Action& a) {
  Board board = game.board();
  const bool setup = game.solo()->phase == SoloPhase::kSetup;
  const int race = a.with == With::kGhouls ? game.DeclinedGhouls(0) : game.SoloRace();
  if (race < 0) return board;
  auto valid = [&](int r) { return game.map().Valid(r) && board[r].race == race; };
  for (const Placement& p : a.placement)
    if (valid(p.region)) p.count == 0 ? board[p.region].ClearOccupant() : void(board[p.region].tokens = static_cast<uint8_t>(p.count));
  std::vector<Move> moves = a.hole_moves;
  if (a.move.from >= 0) moves.insert(moves.begin(), a.move);
  for (const Move& m : moves) {
    if (!valid(m.from) || !game.map().Valid(m.to)) continue;
    const int k = std::min<int>(m.tokens, board[m.from].tokens);
    Lift(&board, m.from, k);
    Put(&board, m.to, race, k);
    if (setup) board[m.to].owner = kOpposition;
  }
  for (const Placement& p : a.add)
    if (valid(p.region)) board[p.region].tokens = static_cast<uint8_t>(board[p.region].tokens + p.count);
  if (!a.heroes.empty())
    for (RegionState& r : board) r.hero = r.race == race ? 0 : r.hero;
  for (int h : a.heroes)
    if (valid(h)) board[h].hero = 1;
  if (valid(a.fortress)) board[a.fortress].fortress = 1;
  if (a.has_encampments) {
    for (RegionState& r : board) r.encampments = r.race == race ? 0 : r.encampments;
    for (const Placement& e : a.encampments)
      if (valid(e.region)) board[e.region].encampments = static_cast<uint8_t>(board[e.region].encampments + e.count);
  }
  return board;
}

// An erosion as the player makes it: the regions in the order named, each losing what the demand still asks after its
// defences took their share (the race's rank among those due this turn; 0 for a race not due).
Board SoloErosion(const Game& game, const Action& a) {
  Board board = game.board();
  const std::vector<Race>& due = game.solo()->turn.erosion_due;
  const auto it = std::find(due.begin(), due.end(), static_cast<Race>(a.race));
  int left = it == due.end() ? 0 : static_cast<int>(it - due.begin()) + 1;
  for (int region : a.regions) {
    if (!game.map().Valid(region) || board[region].race != a.race) continue;
    RegionState& r = board[region];
    left -= std::min(left, r.troll_lair + r.fortress + r.encampments + r.hole);
    const int take = std::min<int>(left, r.tokens);
    left -= take;
    Lift(&board, region, take);
  }
  return board;
}

}  // namespace

Board SoloAttemptedBoard(const Game& game, const Action& a) {
  if (!game.solo()) return game.board();
  switch (a.type) {
    case ActionType::kConquer:
      return SoloConquest(game, a);
    case ActionType::kRedeploy:
      return SoloRedeploy(game, a);
    case ActionType::kErode:
      return SoloErosion(game, a);
    default:
      return game.board();
  }
}

}  // namespace swref::engine
