#include "app/core/referee_bench.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "app/core/camera_demo.h"
#include "app/core/demo.h"
#include "engine/map.h"

namespace swref::core {
namespace {

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

std::string RefereeBenchOptions::Check() const {
  if (games < 0 || games > 1000) return "--games: from 0 to 1000";
  if (solo_games < 0 || solo_games > 1000) return "--solo: from 0 to 1000";
  if (!demo && games == 0 && solo_games == 0) return "nothing to measure: give --games or --solo 1 or more";
  if (maps.empty()) return "--maps: at least one map";
  for (const auto& m : maps)
    if (!engine::BuiltinMap(m)) return "--maps: unknown map \"" + m + "\" (2p, 3p, 4p, 5p)";
  if (frame.width < 640 || frame.height < 480 || frame.width > 4096 || frame.height > 4096) return "--size: from 640x480 to 4096x4096";
  return "";
}

engine::Result<RefereeBenchReport> RunRefereeBench(const RefereeBenchOptions& options, const RefereeBenchProgress& progress) {
  using R = engine::Result<RefereeBenchReport>;
  if (auto problem = options.Check(); !problem.empty()) return R::Error(problem);
  RefereeBenchReport report;
  std::vector<double> latencies;
  const int standard = options.games + (options.demo ? 1 : 0);
  const int total = standard + options.solo_games;
  for (int g = 0; g < total; ++g) {
    const auto start = std::chrono::steady_clock::now();
    // 1. The script: the demo, or an injected game.
    DemoReport script;
    std::vector<std::pair<int, engine::IllegalKind>> kinds;  // script step -> kind
    RefereeBenchGame game;
    uint64_t table_seed = 7;
    if (options.demo && g == 0) {
      auto demo = RunDemo(7);
      if (!demo) return R::Error(demo.error());
      script = std::move(*demo);
      game.name = "demo";
    } else {
      const bool solo = g >= standard;
      const int i = solo ? g - standard : g - (options.demo ? 1 : 0);
      const std::string& key = options.maps[static_cast<size_t>(i) % options.maps.size()];
      table_seed = options.seed + static_cast<uint64_t>(i);
      game.name = (solo ? "solo " : "") + key + " seed " + std::to_string(table_seed);
      game.solo = solo;
      auto map = engine::BuiltinMap(key);
      auto injected = solo ? engine::PlayInjectedSoloGame(*map, table_seed, options.inject) : engine::PlayInjectedGame(*map, table_seed, options.inject);
      if (!injected) return R::Error(game.name + ": " + injected.error());
      auto s = ScriptReport(injected->record);
      if (!s) return R::Error(game.name + ": " + s.error());
      script = std::move(*s);
      for (const auto& f : injected->flags) kinds.emplace_back(f.step, f.kind);
    }
    // 2. Photographed and refereed.
    CameraDemoOptions co;
    co.seed = table_seed;
    if (!options.keep_dir.empty()) {
      std::string folder = game.name;
      std::replace(folder.begin(), folder.end(), ' ', '-');
      co.work_dir = (std::filesystem::path(options.keep_dir) / folder).string();
    }
    co.frame = options.frame;
    co.incremental = options.incremental;
    int64_t latency_frame = -1;  // one verdict a frame: the time to its last notice
    co.on_notice = [&](const Notice& n) {
      if (options.on_notice) options.on_notice(game.name, n);
      if (n.frame < 0 || n.ms <= 0 || (n.kind != NoticeKind::kCommitted && n.kind != NoticeKind::kFlag && n.kind != NoticeKind::kQuestion)) return;
      if (n.frame == latency_frame) {
        latencies.back() = std::max(latencies.back(), n.ms);
      } else {
        latencies.push_back(n.ms);
        latency_frame = n.frame;
      }
    };
    auto run = RefereeScript(script, co, [&](const std::string& stage, int64_t d, int64_t t) {
      if (progress) progress(g, total, stage, d, t);
    });
    if (!run) return R::Error(game.name + ": " + run.error());
    // 3. Against the script.
    game.frames = static_cast<int>(run->run.frames);
    game.observed = static_cast<int>(run->run.observed);
    game.flags_expected = static_cast<int>(script.flags.size());
    game.flags_raised = static_cast<int>(run->flags.size());
    game.flags_matched = run->flags_matched;
    game.flags_same_code = run->flags_same_code;
    game.turns = static_cast<int>(script.turns.size());
    game.turns_exact = run->turns_exact;
    game.questions = run->questions;
    game.corrections = run->answered;
    game.taken_back = run->taken_back;
    game.flags_withdrawn = run->flags_withdrawn;
    game.final_coins_equal = run->final_coins == script.final_coins;
    game.differences = run->differences;
    for (const auto& [step, kind] : kinds) {
      ++report.expected_by_kind[static_cast<int>(kind)];
      const DemoFlag* want = nullptr;
      for (const DemoFlag& f : script.flags)
        if (f.step == step) want = &f;
      if (!want) continue;
      for (const DemoFlag& f : run->flags)
        if (f.round == want->round && f.player == want->player && f.region == want->region) {
          ++report.found_by_kind[static_cast<int>(kind)];
          break;
        }
    }
    game.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.flags_expected += game.flags_expected, report.flags_raised += game.flags_raised, report.flags_matched += game.flags_matched;
    report.flags_same_code += game.flags_same_code, report.turns += game.turns, report.turns_exact += game.turns_exact;
    report.questions += game.questions, report.corrections += game.corrections, report.frames += game.frames;
    report.taken_back += game.taken_back, report.flags_withdrawn += game.flags_withdrawn;
    report.games.push_back(std::move(game));
  }
  report.latency_samples = static_cast<int>(latencies.size());
  report.latency_median_ms = Percentile(latencies, 0.5);
  report.latency_p90_ms = Percentile(latencies, 0.9);
  return report;
}

}  // namespace swref::core
