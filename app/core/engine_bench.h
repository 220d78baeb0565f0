// `swref bench engine`: random legal full games per second and the median time of one legality check, with a
// deterministic signature (the same seed gives the same games, so the same signature on every machine).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace swref::core {

struct EngineBenchOptions {
  std::string map = "4p";   // the map the games are played on
  int games = 2000;         // random full games to play (split in 10 batches; the median batch rate is reported)
  uint64_t seed = 1;        // the first game's seed; game i uses seed + i
  int check_batches = 200;  // legality-check batches (each times 1,000 checks of varied actions)
  std::string Check() const;  // "" or the first problem
};

struct EngineBenchReport {
  std::string signature;          // SHA-256 prefix over every game's actions and final coins
  int games = 0;
  double actions_per_game = 0;    // mean
  double games_per_second = 0;    // median over batches, one core
  double ms_per_game = 0;         // 1000 / games_per_second
  double check_ns_median = 0;     // median over batches of the mean time of one Game::Check
  double check_ns_p90 = 0;
  int checks_legal_percent = 0;   // share of the timed checks that were legal
};

// progress(done, total) is called now and then from the calling thread.
EngineBenchReport RunEngineBench(const EngineBenchOptions& options, const std::function<void(int, int)>& progress = nullptr);

}  // namespace swref::core
