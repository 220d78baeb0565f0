// The report's tables (docs/report.md): the tournament standings over several games, and every table as CSV
// (RFC 4180: comma-separated, a header line, fields quoted when they hold a comma, a quote or a line break).
#pragma once

#include <string>
#include <vector>

#include "app/core/report_data.h"

namespace swref::core {

struct Standing {
  std::string player;
  int games = 0;                 // games the player took part in
  int wins = 0;                  // finished games the player won (a shared win counts for each winner)
  int coins = 0;                 // final coins over all games
  double mean_rank = 0;          // mean of the player's ranks
  std::vector<int> ranks;        // per game (the order given): the rank, or 0 when the player did not play
  std::vector<int> game_coins;   // per game: the final coins, or 0
};

// Players in the order: most wins, most coins, best mean rank, then name.
std::vector<Standing> Tournament(const std::vector<GameSummary>& games);

std::string TurnsCsv(const GameSummary& game);     // round, player, combo, regions, race, power, turn, then coins after per player
std::string FlagsCsv(const GameSummary& game);     // round, player, region, action, code, why, resolution, note, entry, step
std::string RankingCsv(const GameSummary& game);   // rank, player, coins, tokens, winner
std::string TournamentCsv(const std::vector<GameSummary>& games, const std::vector<Standing>& standings);

// "1st", "2nd", "3rd", "4th"... for the tables.
std::string Ordinal(int rank);

}  // namespace swref::core
