#include "engine/legal.h"

namespace swref::engine {
namespace {

void PushIfLegal(const Game& game, const Action& a, std::vector<Action>* out) {
  if (game.Check(a) == Code::kOk) out->push_back(a);
}

void Conquests(const Game& game, int player, std::vector<Action>* out) {
  Action a;
  a.type = ActionType::kConquer;
  a.player = player;
  for (int r = 0; r < game.map().size(); ++r) {
    a.region = r;
    for (With with : {With::kNone, With::kDragon, With::kSorcery, With::kGhouls}) {
      a.with = with;
      a.die = -1;
      const Code code = game.Check(a);
      const bool outright = code == Code::kOk;
      if (outright) out->push_back(a);
      if (with == With::kDragon || with == With::kSorcery) continue;
      const int race = with == With::kGhouls ? game.DeclinedGhouls(player) : game.players()[player].active;
      const bool berserk = with != With::kGhouls && race >= 0 && game.civs()[race].power == Power::kBerserk;
      if (outright && !berserk) continue;  // a reinforcement attempt is for a region the tokens in hand cannot take
      // ... and only that: a conquest refused for another reason (not adjacent, immune, the phase) is refused with
      // the die too.
      if (!outright && code != Code::kNotEnoughTokens) continue;
      for (int face : {0, 1, 2, 3}) {      // the attempt (or the Berserk roll) with each face of the die
        a.die = face;
        PushIfLegal(game, a, out);
      }
    }
  }
}

}  // namespace

std::vector<Placement> EvenRedeploy(const Game& game, Race race, int total) {
  std::vector<Placement> placement;
  for (int r = 0; r < game.map().size(); ++r)
    if (game.board()[r].race == static_cast<int>(race)) placement.push_back({r, 0});
  const int n = static_cast<int>(placement.size());
  for (int i = 0; i < n; ++i) placement[i].count = total / n + (i < total % n ? 1 : 0);
  return placement;
}

void EnumerateLegal(const Game& game, std::vector<Action>* out) {
  out->clear();
  if (game.finished()) return;
  if (game.solo()) return EnumerateSoloLegal(game, out);
  const int p = game.current_player();
  Action a;
  a.player = p;
  a.type = ActionType::kPick;
  for (int slot = 0; slot < static_cast<int>(game.column().size()); ++slot) a.slot = slot, PushIfLegal(game, a, out);
  a = Action{};
  a.player = p;
  a.type = ActionType::kDecline;
  PushIfLegal(game, a, out);
  Conquests(game, p, out);
  a.type = ActionType::kAbandon;
  for (int r = 0; r < game.map().size(); ++r) a.region = r, PushIfLegal(game, a, out);

  // Representative redeploys of the active race and of in-decline Ghouls.
  for (With with : {With::kNone, With::kGhouls}) {
    const int race = with == With::kGhouls ? game.DeclinedGhouls(p) : game.players()[p].active;
    if (race < 0) continue;
    const CivState& c = game.civs()[race];
    int total = game.TokensOnBoard(static_cast<Race>(race)) + c.hand + c.aside;
    if (with == With::kNone && race == static_cast<int>(Race::kAmazons)) total -= std::min(kAmazonConquestOnlyTokens, total);
    if (with == With::kNone && race == static_cast<int>(Race::kSkeletons))
      total += std::min(game.turn().nonempty_conquered / 2, game.TokensInTray(Race::kSkeletons));
    Action r;
    r.type = ActionType::kRedeploy;
    r.player = p;
    r.with = with;
    r.placement = EvenRedeploy(game, static_cast<Race>(race), total);
    PushIfLegal(game, r, out);
  }
  a = Action{};
  a.player = p;
  a.type = ActionType::kAlly;
  for (int t = 0; t < game.player_count(); ++t) a.target = t, PushIfLegal(game, a, out);
  a = Action{};
  a.player = p;
  a.type = ActionType::kEndTurn;
  PushIfLegal(game, a, out);
  a.decline = true;
  PushIfLegal(game, a, out);

  // Defenders: all withdrawn tokens of each race to its first region.
  for (int d = 0; d < game.player_count(); ++d) {
    if (d == p) continue;
    Action w;
    w.type = ActionType::kWithdraw;
    w.player = d;
    for (int race = 0; race < kRaceCount; ++race) {
      const CivState& c = game.civs()[race];
      if (c.owner != d || c.hand == 0) continue;
      for (int r = 0; r < game.map().size(); ++r)
        if (game.board()[r].race == race) {
          w.placement.push_back({r, c.hand});
          break;
        }
    }
    if (!w.placement.empty()) PushIfLegal(game, w, out);
  }
}

}  // namespace swref::engine
