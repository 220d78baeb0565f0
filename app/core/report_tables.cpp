#include "app/core/report_tables.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace swref::core {
namespace {

std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Row(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += Field(fields[i]);
  }
  return line + "\r\n";
}

std::string Int(int v) { return std::to_string(v); }

}  // namespace

std::string Ordinal(int rank) {
  const int tens = rank % 100, last = rank % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return std::to_string(rank) + suffix;
}

std::vector<Standing> Tournament(const std::vector<GameSummary>& games) {
  std::vector<Standing> standings;
  std::map<std::string, size_t> index;
  for (size_t g = 0; g < games.size(); ++g) {
    for (const RankRow& r : games[g].ranking) {
      auto [it, added] = index.emplace(r.player, standings.size());
      if (added) {
        standings.push_back({r.player, 0, 0, 0, 0, std::vector<int>(games.size(), 0), std::vector<int>(games.size(), 0)});
      }
      Standing& s = standings[it->second];
      ++s.games;
      s.wins += r.winner ? 1 : 0;
      s.coins += r.coins;
      s.ranks[g] = r.rank;
      s.game_coins[g] = r.coins;
    }
  }
  for (Standing& s : standings) {
    int sum = 0;
    for (int r : s.ranks) sum += r;
    s.mean_rank = s.games ? static_cast<double>(sum) / s.games : 0;
  }
  std::stable_sort(standings.begin(), standings.end(), [](const Standing& a, const Standing& b) {
    if (a.wins != b.wins) return a.wins > b.wins;
    if (a.coins != b.coins) return a.coins > b.coins;
    if (a.mean_rank != b.mean_rank) return a.mean_rank < b.mean_rank;
    return a.player < b.player;
  });
  return standings;
}

std::string TurnsCsv(const GameSummary& game) {
  std::vector<std::string> header = {"round", "player", "combo", "regions", "race", "power", "turn"};
  for (const std::string& p : game.players) header.push_back("coins " + p);
  std::string csv = Row(header);
  for (const TurnRow& t : game.turns) {
    std::vector<std::string> row = {Int(t.round), t.player, t.combo, Int(t.coins.regions), Int(t.coins.race), Int(t.coins.power), Int(t.coins.total())};
    for (int h : t.holdings) row.push_back(Int(h));
    csv += Row(row);
  }
  return csv;
}

std::string FlagsCsv(const GameSummary& game) {
  std::string csv = Row({"round", "player", "region", "action", "code", "why", "resolution", "note", "entry", "step"});
  auto optional = [](int v) { return v < 0 ? std::string() : std::to_string(v); };
  for (const FlagRow& f : game.flags)
    csv += Row({Int(f.round), f.player, optional(f.region), f.action, f.code, f.why, f.resolution, f.note, optional(f.entry), optional(f.step)});
  return csv;
}

std::string RankingCsv(const GameSummary& game) {
  std::string csv = Row({"rank", "player", "coins", "tokens", "winner"});
  for (const RankRow& r : game.ranking) csv += Row({Int(r.rank), r.player, Int(r.coins), Int(r.tokens), r.winner ? "yes" : "no"});
  return csv;
}

std::string TournamentCsv(const std::vector<GameSummary>& games, const std::vector<Standing>& standings) {
  std::vector<std::string> header = {"place", "player", "games", "wins", "coins", "mean rank"};
  for (const GameSummary& g : games) header.push_back("rank " + g.name), header.push_back("coins " + g.name);
  std::string csv = Row(header);
  for (size_t i = 0; i < standings.size(); ++i) {
    const Standing& s = standings[i];
    char mean[16];
    std::snprintf(mean, sizeof mean, "%.2f", s.mean_rank);
    std::vector<std::string> row = {Int(static_cast<int>(i) + 1), s.player, Int(s.games), Int(s.wins), Int(s.coins), mean};
    for (size_t g = 0; g < games.size(); ++g) {
      row.push_back(s.ranks[g] ? Int(s.ranks[g]) : "");
      row.push_back(s.ranks[g] ? Int(s.game_coins[g]) : "");
    }
    csv += Row(row);
  }
  return csv;
}

}  // namespace swref::core
