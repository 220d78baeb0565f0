#include "app/core/hidden_arrangement.h"

#include <algorithm>
#include <map>

#include "engine/components.h"

namespace swref::core {
namespace {

using engine::Action;
using engine::ActionType;

bool Shows(const engine::ObservedRegion& seen, int race, bool decline) {
  return seen.race && static_cast<int>(*seen.race) == race && seen.decline == decline;
}
bool ShowsActive(const engine::ObservedRegion& seen, int race) { return Shows(seen, race, false); }

// How `seen` shares the active `race`'s tokens differently from `board`: the regions whose count differs (`moved`,
// each differing only in a count read for certain) and those the player whose turn it is has just taken (`lost`:
// the attack the question or flag is about, their count unseen). None when the difference is not a rearrangement:
// the same regions held (or just taken), and the same number of tokens on them in all (at least 2 regions moved),
// or, with one region just taken, any number (its count before the attack then differs by what the others gained).
struct Shared {
  std::vector<int> moved;
  std::vector<int> lost;
  int lost_change = 0;  // on the one region lost: the tokens the rearrangement took from it (< 0) or gave it
};

std::optional<Shared> Rearranged(const engine::Game& game, const engine::ObservedBoard& seen, int race) {
  const engine::Board& board = game.board();
  const int attacker = game.players()[game.current_player()].active;
  Shared out;
  int before = 0, after = 0;
  for (int i = 0; i < seen.size(); ++i) {
    const engine::RegionState& r = board[i];
    const engine::ObservedRegion& s = seen.regions[i];
    const bool held = r.race == race && !r.decline && r.tokens > 0;
    if (held && attacker >= 0 && ShowsActive(s, attacker)) {
      out.lost.push_back(i);
      continue;
    }
    if (held != ShowsActive(s, race)) return std::nullopt;
    if (!held || engine::ReadsAs(r, s)) continue;
    engine::RegionState recounted = r;
    recounted.tokens = static_cast<uint8_t>(s.tokens);
    if (s.uncertain || !s.tokens_certain || s.tokens < 1 || !engine::ReadsAs(recounted, s)) return std::nullopt;  // not the count alone
    out.moved.push_back(i);
    before += r.tokens, after += s.tokens;
  }
  if (out.lost.empty() ? out.moved.size() < 2 || before != after : out.moved.empty() || (before != after && out.lost.size() != 1))
    return std::nullopt;
  if (!out.lost.empty() && before != after) out.lost_change = before - after;
  return out;
}

// Whether the amended `board` reads as `seen` on `regions`, and on every region `before` (the game not amended) read
// as seen.
bool ReadsNoWorse(const engine::Board& board, const engine::Board& before, const engine::ObservedBoard& seen,
                  const std::vector<int>& regions) {
  for (int i = 0; i < seen.size(); ++i) {
    const bool fit = engine::ReadsAs(board[i], seen.regions[i]);
    if (!fit && (engine::ReadsAs(before[i], seen.regions[i]) || std::count(regions.begin(), regions.end(), i))) return false;
  }
  return true;
}

std::string CountsText(const std::vector<int>& regions, const std::map<int, int>& counts) {
  std::string s;
  for (int r : regions) s += (s.empty() ? "" : ", ") + std::to_string(counts.at(r)) + " in region " + std::to_string(r);
  return s;
}

bool IsWithdrawalOrGhouls(const Action& a, int owner) {
  return (a.type == ActionType::kWithdraw && a.player != owner) ||
         (a.type == ActionType::kRedeploy && a.player == owner && a.with == engine::With::kGhouls);
}

// The owner's last turn amended so that the race's tokens lie as `seen` shows them on `moved`; none when that turn
// is further back than `max_undo` actions, it or an action after it stands as a house ruling, or any action after it
// is not taken again.
std::optional<Amendment> Amend(GameTimeline t, const engine::ObservedBoard& seen, int owner, int race, const Shared& shared,
                               int max_undo) {
  const std::vector<int>& moved = shared.moved;
  const engine::Board final_board = t.game().board();
  std::vector<Action> undone;  // the last first, down to the owner's end of turn
  auto take_back = [&](std::vector<Action>* into) {
    if (t.actions().empty() || t.actions().back().house_ruling) return false;
    into->push_back(t.actions().back());
    t.Undo();
    return true;
  };
  for (;;) {
    if (static_cast<int>(undone.size()) >= max_undo || !take_back(&undone)) return std::nullopt;
    if (undone.back().type == ActionType::kEndTurn && undone.back().player == owner) break;
  }
  // Between the turn's redeployment and its end come the defenders' withdrawals and the in-decline Ghouls' placement
  // (the order the referee commits them in): taken back too, and made again after the amended redeployment.
  std::vector<Action> between;  // the last first
  while (!t.actions().empty() && IsWithdrawalOrGhouls(t.actions().back(), owner))
    if (static_cast<int>(undone.size() + between.size()) >= max_undo || !take_back(&between)) return std::nullopt;
  if (t.game().players()[owner].active != race) return std::nullopt;
  Amendment out;
  out.owner = owner, out.race = race, out.round = t.game().round();

  // The turn's arrangement: its redeployment (taken back too and made anew), or the board as its end leaves it.
  Action redeploy;
  redeploy.type = ActionType::kRedeploy;
  redeploy.player = owner;
  std::map<int, int> counts;
  const Action* last = t.actions().empty() ? nullptr : &t.actions().back();
  bool had_redeploy = false;
  if (last && last->type == ActionType::kRedeploy && last->player == owner && last->with == engine::With::kNone && !last->house_ruling) {
    redeploy = *last;
    t.Undo();
    had_redeploy = true;
    for (const engine::Placement& p : redeploy.placement) counts[p.region] = p.count;
  } else {
    engine::Game ended = t.game();
    for (size_t i = between.size(); i-- > 0;)
      if (!ended.Apply(between[i]).ok()) return std::nullopt;
    if (!ended.Apply(undone.back()).ok()) return std::nullopt;
    for (int i = 0; i < static_cast<int>(ended.board().size()); ++i) {
      const engine::RegionState& r = ended.board()[i];
      if (r.race == race && !r.decline && r.tokens > 0) counts[i] = r.tokens;
    }
  }
  out.undo = static_cast<int>(undone.size() + between.size()) + (had_redeploy ? 1 : 0);
  std::map<int, int> was;
  std::vector<int> changed = moved;  // the regions whose counts the amendment changes
  if (shared.lost_change != 0) changed.push_back(shared.lost[0]);
  std::sort(changed.begin(), changed.end());
  for (int r : changed) {
    auto it = counts.find(r);
    if (it == counts.end()) return std::nullopt;
    was[r] = it->second;
    it->second += std::count(moved.begin(), moved.end(), r) ? seen.regions[r].tokens - final_board[r].tokens : shared.lost_change;
    if (it->second < 1) return std::nullopt;
  }
  redeploy.placement.clear();
  for (const auto& [region, n] : counts) redeploy.placement.push_back({region, n});

  // Made again: the amended redeployment, the withdrawals, the end of the turn and every action after it, each as
  // legal as before.
  out.redo.push_back(redeploy);
  for (size_t i = between.size(); i-- > 0;) out.redo.push_back(between[i]);
  for (size_t i = undone.size(); i-- > 0;) out.redo.push_back(undone[i]);
  for (const Action& a : out.redo)
    if (!t.Apply(a).verdict.ok()) return std::nullopt;
  // The race's regions read as seen; no region that read as seen before reads otherwise now.
  if (!ReadsNoWorse(t.game().board(), final_board, seen, moved)) return std::nullopt;
  out.regions = changed;
  out.after = t.game();
  out.text = t.game().players()[owner].name + "'s " + std::string(engine::Info(static_cast<engine::Race>(race)).name) +
             " at the end of round " + std::to_string(out.round) + ": " + CountsText(changed, counts) + " (the game had " +
             CountsText(changed, was) + ")";
  return out;
}

// Whether `a` sets the count of `owner`'s tokens on `region` outright: its conquest there (made plainly or with the
// Dragon, without the die), or its redeployment's placement there.
bool SetsCount(const Action& a, int owner, int region) {
  if (a.player != owner) return false;
  if (a.type == ActionType::kConquer)
    return a.region == region && a.die < 0 && (a.with == engine::With::kNone || a.with == engine::With::kDragon);
  return a.type == ActionType::kRedeploy && a.with == engine::With::kNone &&
         std::any_of(a.placement.begin(), a.placement.end(), [&](const engine::Placement& p) { return p.region == region; });
}

// `owner`'s actions that set the counts of `regions` amended so that each reads as seen; none when an action that
// set one is further back than `max_undo` actions, it or an action after it stands as a house ruling, or any action
// taken back is not made again.
std::optional<Amendment> Recount(GameTimeline t, const engine::ObservedBoard& seen, int owner, int race, const std::vector<int>& regions,
                                 int max_undo) {
  const engine::Board final_board = t.game().board();
  std::vector<Action> undone;  // the last first
  std::map<int, int> had;      // region -> the count its setting action left
  std::string what;            // for people, the setting actions found, the last first
  int round = 0;
  while (had.size() < regions.size()) {
    if (static_cast<int>(undone.size()) >= max_undo || t.actions().empty() || t.actions().back().house_ruling) return std::nullopt;
    Action a = t.actions().back();
    const engine::Board& after = t.game().board();
    std::string counts;
    for (int r : regions) {
      if (had.count(r) || !SetsCount(a, owner, r)) continue;
      if (after[r].race != race || after[r].decline) return std::nullopt;  // the count another race set
      const int amended = after[r].tokens + seen.regions[r].tokens - final_board[r].tokens;
      if (amended < 1) return std::nullopt;
      had[r] = after[r].tokens;
      counts += (counts.empty() ? "" : ", ") + std::to_string(amended) + " in region " + std::to_string(r) + " (the game had " +
                std::to_string(after[r].tokens) + ")";
      if (a.type == ActionType::kConquer) a.tokens = amended;
      for (engine::Placement& p : a.placement)
        if (p.region == r) p.count = amended;
    }
    if (!counts.empty()) {
      round = t.game().round();
      const std::string made = a.type == ActionType::kConquer ? "conquest of region " + std::to_string(a.region) : "redeployment";
      what = made + " in round " + std::to_string(round) + ": " + counts + (what.empty() ? "" : "; " + what);
    }
    undone.push_back(a);
    t.Undo();
  }
  Amendment out;
  out.owner = owner, out.race = race, out.round = round, out.undo = static_cast<int>(undone.size());
  for (size_t i = undone.size(); i-- > 0;) {
    out.redo.push_back(undone[i]);
    if (!t.Apply(undone[i]).verdict.ok()) return std::nullopt;
  }
  if (!ReadsNoWorse(t.game().board(), final_board, seen, regions)) return std::nullopt;
  out.regions = regions;
  out.after = t.game();
  out.text = t.game().players()[owner].name + "'s " + what;
  return out;
}

// A defender's withdrawal the camera saw only after the attacker's turn had ended (the turn's end is told by the
// players, the tokens come down a moment later): made before the last end of turn of another player. None when the
// regions did not gain tokens, that end is further back than `max_undo` actions, or an action is not made again.
std::optional<Amendment> LateWithdrawal(GameTimeline t, const engine::ObservedBoard& seen, int owner, int race,
                                        const std::vector<int>& regions, int max_undo) {
  const engine::Board final_board = t.game().board();
  Action withdraw;
  withdraw.type = ActionType::kWithdraw;
  withdraw.player = owner;
  for (int r : regions) {
    const int gained = seen.regions[r].tokens - final_board[r].tokens;
    if (gained < 1) return std::nullopt;
    withdraw.placement.push_back({r, gained});
  }
  std::vector<Action> undone;  // the last first, down to the attacker's end of turn
  do {
    if (static_cast<int>(undone.size()) >= max_undo || t.actions().empty() || t.actions().back().house_ruling) return std::nullopt;
    undone.push_back(t.actions().back());
    t.Undo();
  } while (undone.back().type != ActionType::kEndTurn || undone.back().player == owner);
  Amendment out;
  out.owner = owner, out.race = race, out.round = t.game().round(), out.undo = static_cast<int>(undone.size());
  out.redo.push_back(withdraw);
  for (size_t i = undone.size(); i-- > 0;) out.redo.push_back(undone[i]);
  for (const Action& a : out.redo)
    if (!t.Apply(a).verdict.ok()) return std::nullopt;
  if (!ReadsNoWorse(t.game().board(), final_board, seen, regions)) return std::nullopt;
  std::string counts;
  for (const engine::Placement& p : withdraw.placement)
    counts += (counts.empty() ? "" : ", ") + std::to_string(p.count) + " in region " + std::to_string(p.region);
  out.regions = regions;
  out.after = t.game();
  out.text = t.game().players()[owner].name + "'s withdrawal in round " + std::to_string(out.round) + ": " + counts + " (seen after " +
             t.game().players()[undone.back().player].name + "'s turn had ended)";
  return out;
}

}  // namespace

std::optional<Amendment> FindMiscount(const GameTimeline& timeline, const engine::ObservedBoard& seen, const std::vector<int>& confirmed,
                                      int max_undo) {
  const engine::Game& now = timeline.game();
  if (now.solo() || seen.size() != static_cast<int>(now.board().size())) return std::nullopt;
  for (int owner = 0; owner < static_cast<int>(now.players().size()); ++owner) {
    // The player's races on the board: the active one, and every one in decline (Ghouls in decline keep every
    // token, so an attack on them is followed by a withdrawal as on an active race; with the Spirit power a player
    // holds two races in decline).
    struct Side {
      int race;
      bool decline;
    };
    std::vector<Side> sides;
    if (now.players()[owner].active >= 0) sides.push_back({now.players()[owner].active, false});
    for (const engine::RegionState& r : now.board()) {
      const bool known = std::any_of(sides.begin(), sides.end(), [&](const Side& s) { return s.decline && s.race == r.race; });
      if (r.owner == owner && r.decline && r.tokens > 0 && !known) sides.push_back({r.race, true});
    }
    for (const Side& side : sides) {
      // The confirmed regions of that race and side that differ from the game in their count alone, read for certain.
      std::vector<int> regions;
      for (int i : confirmed) {
        if (i < 0 || i >= seen.size()) continue;
        const engine::RegionState& r = now.board()[i];
        const engine::ObservedRegion& s = seen.regions[i];
        const bool same_side = r.race == side.race && r.decline == side.decline && Shows(s, side.race, side.decline);
        if (!same_side || r.tokens == 0 || engine::ReadsAs(r, s)) continue;
        engine::RegionState recounted = r;
        recounted.tokens = static_cast<uint8_t>(s.tokens);
        if (s.uncertain || !s.tokens_certain || s.tokens < 1 || !engine::ReadsAs(recounted, s)) continue;
        regions.push_back(i);
      }
      std::sort(regions.begin(), regions.end());
      regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
      if (regions.empty()) continue;
      // A count set by a conquest or a redeployment: the active race's (Recount holds the active side alone).
      if (!side.decline)
        if (auto a = Recount(timeline, seen, owner, side.race, regions, max_undo)) return a;
      if (auto a = LateWithdrawal(timeline, seen, owner, side.race, regions, max_undo)) return a;
    }
  }
  return std::nullopt;
}

std::optional<Amendment> FindHiddenArrangement(const GameTimeline& timeline, const engine::ObservedBoard& seen, int max_undo) {
  const engine::Game& now = timeline.game();
  if (now.solo() || seen.size() != static_cast<int>(now.board().size())) return std::nullopt;
  for (int owner = 0; owner < static_cast<int>(now.players().size()); ++owner) {
    const int race = now.players()[owner].active;
    if (race < 0 || owner == now.current_player()) continue;
    const std::optional<Shared> shared = Rearranged(now, seen, race);
    if (!shared) continue;
    if (auto a = Amend(timeline, seen, owner, race, *shared, max_undo)) return a;
  }
  return std::nullopt;
}

}  // namespace swref::core
