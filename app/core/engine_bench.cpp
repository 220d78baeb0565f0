#include "app/core/engine_bench.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/core/hash.h"
#include "engine/legal.h"
#include "engine/random_game.h"

namespace swref::core {
namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))];
}

}  // namespace

std::string EngineBenchOptions::Check() const {
  if (games < 10) return "--games: at least 10";
  if (check_batches < 1) return "check batches: at least 1";
  return "";
}

EngineBenchReport RunEngineBench(const EngineBenchOptions& options, const std::function<void(int, int)>& progress) {
  auto map = engine::BuiltinMap(options.map);
  if (!map) throw std::runtime_error(map.error());
  EngineBenchReport report;
  report.games = options.games;
  std::string digest_input;
  long long actions = 0;
  const int batches = 10, per_batch = options.games / batches;
  const int total_steps = batches * per_batch + options.check_batches;
  std::vector<double> rates;
  // Step 1: full random games, timed in batches.
  std::vector<engine::Game> sample_states;
  for (int b = 0; b < batches; ++b) {
    const auto start = Clock::now();
    for (int g = 0; g < per_batch; ++g) {
      const uint64_t seed = options.seed + static_cast<uint64_t>(b * per_batch + g);
      auto game = engine::PlayRandomGame(*map, seed);
      if (!game) throw std::runtime_error(game.error());
      actions += static_cast<long long>(game->record.actions.size());
      digest_input += std::to_string(game->record.actions.size());
      for (const auto& p : game->game.players()) digest_input.append(",").append(std::to_string(p.coins));
      digest_input += ";";
    }
    rates.push_back(per_batch / std::chrono::duration<double>(Clock::now() - start).count());
    if (progress) progress((b + 1) * per_batch, total_steps);
  }
  report.games = batches * per_batch;
  report.actions_per_game = static_cast<double>(actions) / report.games;
  report.games_per_second = Median(rates);
  report.ms_per_game = 1000.0 / report.games_per_second;
  report.signature = Sha256Hex(digest_input).substr(0, 16);

  // Step 2: legality checks on states taken along a few games: the legal actions and as many illegal ones.
  std::vector<std::pair<engine::Game, engine::Action>> probes;
  for (uint64_t s = 0; probes.size() < 1000; ++s) {
    engine::Rng rng(options.seed * 7919 + s);
    std::vector<engine::Action> legal;
    auto observe = [&](const engine::Game& game, const engine::Action&) {
      if (probes.size() >= 1000 || rng.Below(8) != 0) return;
      engine::EnumerateLegal(game, &legal);
      for (const auto& a : legal) probes.emplace_back(game, a);
      engine::Action wild;  // an arbitrary conquest, mostly illegal
      wild.type = engine::ActionType::kConquer;
      wild.player = game.current_player();
      for (int k = 0; k < static_cast<int>(legal.size()); ++k) {
        wild.region = static_cast<int>(rng.Below(static_cast<uint32_t>(game.map().size())));
        probes.emplace_back(game, wild);
      }
    };
    if (auto game = engine::PlayRandomGame(*map, options.seed + 100000 + s, observe); !game) throw std::runtime_error(game.error());
  }
  probes.erase(probes.begin() + 1000, probes.end());
  int legal_count = 0;
  for (const auto& [game, action] : probes) legal_count += game.Check(action) == engine::Code::kOk;
  report.checks_legal_percent = legal_count / 10;
  std::vector<double> per_check_ns;
  volatile int sink = 0;
  for (int b = 0; b < options.check_batches; ++b) {
    const auto start = Clock::now();
    for (const auto& [game, action] : probes) sink = sink + static_cast<int>(game.Check(action));
    per_check_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() / probes.size());
    if (progress && (b + 1) % 20 == 0) progress(report.games + b + 1, total_steps);
  }
  report.check_ns_median = Median(per_check_ns);
  report.check_ns_p90 = Percentile(per_check_ns, 0.9);
  if (progress) progress(total_steps, total_steps);
  return report;
}

}  // namespace swref::core
