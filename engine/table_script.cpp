#include "engine/table_script.h"

#include <cstring>

namespace swref::engine {
namespace {

bool SameBoard(const Board& a, const Board& b) {
  static_assert(std::is_trivially_copyable_v<RegionState>);
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(RegionState)) == 0;
}

bool OffBoard(ActionType t) {
  return t == ActionType::kPick || t == ActionType::kDecline || t == ActionType::kEndTurn || t == ActionType::kAlly;
}

int PiecesOnBoard(const Board& board, Piece piece) {
  int n = 0;
  for (const RegionState& r : board) n += r.Count(piece);
  return n;
}

}  // namespace

Board AttemptedBoard(const Game& game, const Action& a, int declined_race) {
  Board board = game.board();
  if (!game.map().Valid(a.region) || a.player < 0 || a.player >= game.player_count()) return board;
  const bool ghouls = a.with == With::kGhouls;
  int race = ghouls ? game.DeclinedGhouls(a.player) : game.players()[a.player].active;
  const bool on_decline_turn = race < 0 && !ghouls && game.turn().declined && declined_race >= 0;
  if (on_decline_turn) race = declined_race;
  if (race < 0) return board;
  const CivState& civ = game.civ(static_cast<Race>(race));
  const bool dragon = a.with == With::kDragon;
  const bool berserk = !ghouls && !dragon && civ.power == Power::kBerserk;
  if (a.die >= 0 && !berserk) return board;  // the region is named, the die rolled: nothing is put down first

  // The player readied the troops before conquering, as the engine does at the turn's first conquest.
  const bool readied = ghouls ? game.turn().ghouls_readied : game.turn().readied;
  if (!on_decline_turn && a.player == game.current_player() && !readied)
    for (RegionState& r : board)
      if (r.race == race && r.tokens > 1) r.tokens = 1;

  int tokens = a.tokens > 0 ? a.tokens : game.ConquestCost(static_cast<Race>(race), a.region, ghouls).total;
  if (a.with == With::kSorcery) tokens = 1;
  if (dragon && a.tokens <= 0) tokens = 1;
  RegionState& r = board[a.region];
  r.ClearOccupant();
  r.lost_tribe = 0;
  r.owner = static_cast<int8_t>(a.player);
  r.race = static_cast<int8_t>(race);
  r.decline = ghouls;
  r.tokens = static_cast<uint8_t>(tokens);
  // The pieces a conquest brings, put down with the tokens.
  if (!ghouls && !on_decline_turn && race == static_cast<int>(Race::kHalflings) && civ.holes_granted < 2) r.hole = 1;
  if (!ghouls && !on_decline_turn && race == static_cast<int>(Race::kTrolls) &&
      PiecesOnBoard(board, Piece::kTrollLair) < Info(Piece::kTrollLair).in_box)
    r.troll_lair = 1;
  if (dragon) {
    for (RegionState& other : board) other.dragon = 0;
    r.dragon = 1;
  }
  return board;
}

Result<TableScript> ScriptTable(const Record& record, const std::filesystem::path& base_dir) {
  auto started = StartGame(record, base_dir);
  if (!started) return Result<TableScript>::Error(started.error());
  Game game = std::move(*started);
  TableScript script;
  auto shoot = [&](SceneKind kind, int step, const Board& board) { script.scenes.push_back({kind, step, board}); };
  auto tell = [&](int step, const Action& a, bool die) {
    script.events.push_back({static_cast<int>(script.scenes.size()) - 1, step, a, die});
  };
  shoot(SceneKind::kSetup, -1, game.board());
  int declined_race = -1;  // the race the current player put in decline this turn
  for (size_t i = 0; i < record.actions.size(); ++i) {
    const int step = static_cast<int>(i);
    const Action& a = record.actions[i];
    const Board before = game.board();
    const int active = a.player >= 0 && a.player < game.player_count() ? game.players()[a.player].active : -1;
    const size_t scored = game.scores().size();
    if (a.type == ActionType::kConquer && a.die >= 0) tell(step, a, true);
    const bool solo_move =
        game.solo() && (a.type == ActionType::kConquer || a.type == ActionType::kRedeploy || a.type == ActionType::kErode);
    const Board attempted = solo_move                        ? SoloAttemptedBoard(game, a)
                            : a.type == ActionType::kConquer ? AttemptedBoard(game, a, declined_race)
                                                             : before;
    bool ruled = false;
    const Verdict v = a.house_ruling ? game.ApplyHouseRuling(a, &ruled) : game.Apply(a);
    script.verdicts.push_back(v);
    if (OffBoard(a.type)) tell(step, a, false);
    if (v.ok() || ruled) {
      if (!SameBoard(before, game.board())) shoot(SceneKind::kMove, step, game.board());
    } else if ((a.type == ActionType::kConquer || solo_move) && !SameBoard(before, attempted)) {
      shoot(SceneKind::kAttempt, step, attempted);
      shoot(SceneKind::kTakeBack, step, before);
    }
    if (v.ok() && a.type == ActionType::kDecline) declined_race = active;
    if (game.scores().size() > scored) {
      script.turns.push_back(game.scores().back());
      declined_race = -1;
    }
  }
  return script;
}

nlohmann::ordered_json EventJson(const TableEvent& event, const std::vector<std::string>& players) {
  nlohmann::ordered_json j;
  if (event.die) {
    j["player"] = players[event.action.player];
    j["do"] = "die";
    j["face"] = event.action.die;
    return j;
  }
  const nlohmann::json action = ToJson(event.action, players);
  j["player"] = action.value("player", "");  // the documented key order: player, do, the rest
  j["do"] = action.value("do", "");
  for (const auto& [k, val] : action.items()) j[k] = val;
  return j;
}

}  // namespace swref::engine
