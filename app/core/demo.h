// `swref demo`: a complete seeded game on the 2-player map, played by the random legal player, with two
// illegal conquests slipped in (too few tokens; not adjacent) that the rules flag with their reason: the script
// the camera demo (camera_demo.h) is photographed from and checked against, and `swref demo --rules-only`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::core {

struct DemoTurn {
  int round = 0;
  std::string player;
  std::string combo;               // "Ratmen + Merchant", "Ratmen (decline turn)", or "-"
  engine::CoinBreakdown coins;
  int coins_after = 0;             // the player's coins after this turn
};

struct DemoFlag {
  int step = 0;                    // index of the action in the record
  int round = 0;
  std::string player;
  int region = -1;
  std::string code;                // stable code, e.g. "not_adjacent"
  std::string why;                 // the sentence with the numbers
};

struct DemoReport {
  engine::Record record;
  std::vector<DemoTurn> turns;
  std::vector<DemoFlag> flags;
  std::vector<std::pair<std::string, int>> final_coins;  // seating order
  std::vector<std::string> winners;
  std::string solo_result;         // SoloPlay: SoloResultLine of the game's end; empty otherwise
};

// A SoloPlay game's end in one line: "solo score 41 (the opposition 23), Victory" ("" for a standard game; the
// rating only once the game is finished).
std::string SoloResultLine(const engine::Game& game);

engine::Result<DemoReport> RunDemo(uint64_t seed);

// A record's turns, coins and final scores as the rules replay it; each action the rules reject (an illegal
// conquest, in a script of the table) is a flag. Any other rejected action is an error.
engine::Result<DemoReport> ScriptReport(const engine::Record& record);

}  // namespace swref::core
