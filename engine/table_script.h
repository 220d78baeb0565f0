// What the table looks like while a recorded game is played: the sequence of still boards a camera above the
// table would see, with the off-board events the players tell the referee in between, the verdict of every
// record action and the coins of every turn. Pure rules: datasets/game_frames renders these boards as photos,
// and the Explain measurement feeds them to the referee as observations.
//
// The script, for each record action in order:
//   1. a conquest with `die`: the event {"do": "die", "face": f} (the roll is told before its conquest is seen);
//   2. the action is applied to the game;
//   3. pick, decline, ally, end_turn (accepted or not): the action itself as an event;
//   4. an accepted action that changed the board: a kMove scene of the new board;
//      a rejected conquest that the table can show: a kAttempt scene (the conquest as the player made it,
//      AttemptedBoard) and then a kTakeBack scene (the board as it was: the player took it back after the flag).
//      In a SoloPlay game the same for a rejected conquest, redeploy or erosion (SoloAttemptedBoard).
// The set-up board is the first scene (kSetup). A house-ruled conquest (`"ruling": "house"`) is a kMove.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/action.h"
#include "engine/board.h"
#include "engine/game.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::engine {

enum class SceneKind : uint8_t {
  kSetup,     // the set-up board, before the first action
  kMove,      // the board after an accepted action changed it
  kAttempt,   // a conquest the rules reject, as the player made it
  kTakeBack,  // the same board as before the attempt: the player took it back
};

struct TableScene {
  SceneKind kind = SceneKind::kSetup;
  int step = -1;             // the record action that made this board; -1 for the set-up board
  Board board;
};

// An off-board fact as the players tell it (a line of a demo's events.jsonl without `after_frame`).
struct TableEvent {
  int after_scene = -1;      // the last scene shown before the event; -1: before the first scene
  int step = -1;             // the record action it comes from
  Action action;             // the record action (pick, decline, ally, end_turn; for a die roll: its conquest)
  bool die = false;          // a die roll: {"player", "do": "die", "face": action.die}
};

struct TableScript {
  std::vector<TableScene> scenes;
  std::vector<TableEvent> events;
  std::vector<Verdict> verdicts;     // one per record action, as the rules give it
  std::vector<TurnScore> turns;      // the coins of every ended turn, in order
};

// Replays `record` (maps relative to base_dir) into its table script. Errors only when the game cannot start.
Result<TableScript> ScriptTable(const Record& record, const std::filesystem::path& base_dir);

// The event as a JSON object with the documented key order: player, do, then the action's fields.
nlohmann::ordered_json EventJson(const TableEvent& event, const std::vector<std::string>& players);

// The board as a player leaves it after making the conquest `a`, legal or not: the conquering race readied
// (1 token left per region, as the engine does at a turn's first conquest), the region's defenders and the
// conquering race's pieces there gone, the player's tokens put down (`tokens`, else the cost; 1 for a Sorcerers'
// conversion or the dragon, which also moves there). The conquering race is the in-decline Ghouls for `with:
// ghouls`, else the active race, else on a decline turn `declined_race` shown on its active side (a player who
// declined and still attacks). A reinforcement attempt (a `die` on a non-Berserk conquest) puts nothing down
// before the roll, and without a race the board stays as it is.
Board AttemptedBoard(const Game& game, const Action& a, int declined_race = -1);

// The same in a SoloPlay game (table_script_solo.cpp), for a conquest, a redeploy or an erosion: the attackers lifted
// from the regions named in `from` (or taken from the hand: setup, a race's first turn) and put down in the region,
// its defenders gone and the opposition's retreating tokens put into the regions named (else where the rules send
// them); a redeploy's balancing counts, moves, tokens added and pieces as given; an erosion's regions losing what the
// demand asks in the order named. A reinforcement attempt lifts its attackers and puts nothing down before the roll.
Board SoloAttemptedBoard(const Game& game, const Action& a);

}  // namespace swref::engine
