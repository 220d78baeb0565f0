#include "engine/explain_match.h"

#include <algorithm>

namespace swref::engine {
namespace {

bool SameOccupantAndPieces(const RegionState& b, const ObservedRegion& o) {
  if (b.HasRace() != o.race.has_value()) return false;
  if (b.HasRace() && (b.race_id() != *o.race || b.decline != o.decline)) return false;
  if (b.lost_tribe != o.lost_tribe) return false;
  for (Piece p : {Piece::kMountain, Piece::kTrollLair, Piece::kFortress, Piece::kEncampment, Piece::kHole, Piece::kHero, Piece::kDragon})
    if (b.Count(p) != o.Count(p)) return false;
  return true;
}

template <typename T>
void Put(std::string* key, T value) {
  key->append(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

namespace {

std::vector<LooseRace> SoloLooseRaces(const Game& game) {
  std::vector<LooseRace> loose;
  const SoloState& solo = *game.solo();
  const TurnState& t = game.turn();
  if (solo.phase != SoloPhase::kPlay || solo.turn.eroding) return loose;
  const int active = game.players()[0].active;
  auto bound = [&](int race) { return game.TokensOnBoard(static_cast<Race>(race)) + game.civs()[race].hand + game.civs()[race].aside; };
  if (active >= 0 && !t.redeployed) loose.push_back({active, bound(active), true});
  const int ghouls = game.DeclinedGhouls(0);
  if (ghouls >= 0 && !t.active_started && !t.ghouls_redeployed) loose.push_back({ghouls, bound(ghouls), true});
  return loose;
}

}  // namespace

std::vector<LooseRace> LooseRaces(const Game& game) {
  std::vector<LooseRace> loose;
  if (game.finished()) return loose;
  if (game.solo()) return SoloLooseRaces(game);
  const int p = game.current_player();
  const TurnState& t = game.turn();
  if (t.declined) return loose;
  const int active = game.players()[p].active;
  if (active >= 0 && !t.redeployed) {
    const CivState& c = game.civs()[active];
    loose.push_back({active, game.TokensOnBoard(static_cast<Race>(active)) + c.hand + c.aside});
  }
  const int ghouls = game.DeclinedGhouls(p);
  if (ghouls >= 0 && (!t.ghouls_redeployed || game.civs()[ghouls].hand > 0))
    loose.push_back({ghouls, game.TokensOnBoard(Race::kGhouls) + game.civs()[ghouls].hand});
  return loose;
}

Fit FitBoard(const Board& board, const std::vector<LooseRace>& loose, const ObservedBoard& seen, const std::vector<bool>& strict,
             std::vector<int>* misfits) {
  if (misfits) misfits->clear();
  if (seen.size() != static_cast<int>(board.size())) return Fit::kNone;
  bool exact = true, fits = true;
  std::vector<int> shown(loose.size(), 0);
  for (int i = 0; i < seen.size(); ++i) {
    const RegionState& b = board[i];
    const ObservedRegion& o = seen.regions[i];
    if (ReadsAs(b, o)) {
      for (size_t k = 0; k < loose.size(); ++k)
        if (b.race == loose[k].race) shown[k] += o.tokens;
      continue;
    }
    exact = false;
    size_t k = 0;
    while (k < loose.size() && b.race != loose[k].race) ++k;
    const bool pinned = k == loose.size() || (i < static_cast<int>(strict.size()) && strict[i]);
    if (!pinned && SameOccupantAndPieces(b, o) && o.tokens >= 1 && (!loose[k].lift_only || o.tokens <= b.tokens)) {
      shown[k] += o.tokens;
      continue;
    }
    fits = false;
    if (misfits) misfits->push_back(i);
  }
  for (size_t k = 0; k < loose.size(); ++k) {
    if (shown[k] <= loose[k].bound) continue;
    fits = false;  // more tokens on the race's regions than it has
    if (misfits)
      for (int i = 0; i < seen.size(); ++i)
        if (board[i].race == loose[k].race) misfits->push_back(i);
  }
  if (!fits) return Fit::kNone;
  return exact ? Fit::kExact : Fit::kLoose;
}

void AppendSoloKey(const Game& game, std::string* key) {
  const SoloState* solo = game.solo();
  if (!solo) return;
  Put(key, solo->phase), Put(key, solo->placing), Put(key, solo->vacant), Put(key, solo->picks), Put(key, solo->combos.size());
  for (const OppositionRace& o : solo->opposition) {
    Put(key, o.placed), Put(key, o.unplaced), Put(key, o.kept), Put(key, o.unconquerable), Put(key, o.coins.total());
    Put(key, o.events.size());
    for (const SetupEvent& e : o.events)
      Put(key, e.region), Put(key, e.lost_tribe), Put(key, e.dragon), Put(key, e.sorcery), Put(key, e.giants);
  }
  for (Race r : solo->declined) Put(key, r);
  Put(key, solo->kept_lost_tribes), Put(key, solo->defences_overcome), Put(key, solo->ended), Put(key, solo->end.total());
}

std::string StateKey(const Game& game) {
  std::string key;
  key.reserve(game.board().size() * sizeof(RegionState) + 512);
  static_assert(std::is_trivially_copyable_v<RegionState>);
  key.append(reinterpret_cast<const char*>(game.board().data()), game.board().size() * sizeof(RegionState));
  for (const CivState& c : game.civs()) {
    Put(&key, c.owner), Put(&key, c.decline), Put(&key, c.power), Put(&key, c.hand), Put(&key, c.aside);
    Put(&key, c.holes_granted), Put(&key, c.first_turn);
  }
  for (const PlayerState& p : game.players()) Put(&key, p.coins), Put(&key, p.active), Put(&key, p.peace_with);
  for (const Combo& c : game.column()) Put(&key, c.race), Put(&key, c.power), Put(&key, c.coins);
  const TurnState& t = game.turn();
  for (bool flag : {t.any_action, t.picked, t.declined, t.active_started, t.active_conquered, t.readied, t.conquests_over, t.redeployed,
                    t.ghouls_readied, t.ghouls_over, t.ghouls_redeployed, t.dragon_used, t.fortress_placed, t.ally_chosen})
    Put(&key, flag);
  Put(&key, t.nonempty_conquered), Put(&key, t.sorcery_used), Put(&key, t.attacked_active), Put(&key, t.withdrawn);
  Put(&key, game.current_player()), Put(&key, game.round()), Put(&key, game.finished());
  Put(&key, game.scores().size());
  if (const SoloState* solo = game.solo()) {
    AppendSoloKey(game, &key);
    Put(&key, solo->turn.took_empty), Put(&key, solo->turn.eroding), Put(&key, solo->turn.eroded);
  }
  return key;
}

int HandOnceReadied(const Game& game, int race, bool ghouls) {
  const CivState& c = game.civs()[race];
  const bool readied = ghouls ? game.turn().ghouls_readied : game.turn().readied;
  if (readied) return c.hand;
  int spare = 0;
  for (const RegionState& r : game.board())
    if (r.race == race && r.tokens > 1) spare += r.tokens - 1;
  return c.hand + c.aside + spare;
}

int RedeployTotal(const Game& game, int race, bool ghouls) {
  const CivState& c = game.civs()[race];
  int total = game.TokensOnBoard(static_cast<Race>(race)) + c.hand + c.aside;
  if (ghouls) return total;
  if (race == static_cast<int>(Race::kSkeletons))
    total += std::min(game.turn().nonempty_conquered / 2, game.TokensInTray(Race::kSkeletons));
  if (race == static_cast<int>(Race::kAmazons)) total -= std::min(kAmazonConquestOnlyTokens, total);
  return total;
}

}  // namespace swref::engine
