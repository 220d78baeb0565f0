#include "app/cli/bench_commands.h"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/output.h"
#include "app/cli/progress.h"

namespace swref::cli {

int RunSceneBench(const core::SceneBenchOptions& options, bool json) {
  ProgressBar bar("bench scene");
  auto r = core::RunSceneBench(options, [&](int done, int total) { bar.Update(done, total); });
  bar.Finish();
  if (!r) return Fail(r.error());
  if (json) {
    nlohmann::json j = {{"bench", "scene"}, {"signature", r->signature}, {"map", options.map}, {"scenes", r->scenes},
                        {"frame", {options.width, options.height}}, {"median_ms", r->median_ms}, {"p90_ms", r->p90_ms},
                        {"place_ms", r->place_ms}, {"compose_ms", r->compose_ms}, {"camera_ms", r->camera_ms},
                        {"encode_ms", r->encode_ms}, {"table_ms", r->table_ms}, {"peak_rss_mb", r->peak_rss_mb}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("scene signature %s  (map %s, %d scenes of %dx%d from seed %llu, one thread)\n", r->signature.c_str(), options.map.c_str(),
              r->scenes, options.width, options.height, static_cast<unsigned long long>(options.seed));
  std::printf("one scene:  %.1f ms median, %.1f ms p90 (place %.1f + compose %.1f + camera %.1f + JPEG %.1f)   goal <= 100 ms\n",
              r->median_ms, r->p90_ms, r->place_ms, r->compose_ms, r->camera_ms, r->encode_ms);
  std::printf("the table once: %.0f ms (layout, board art, table); peak memory %.0f MB\n", r->table_ms, r->peak_rss_mb);
  return 0;
}

int RunVisionBench(const core::VisionBenchOptions& options, bool json) {
  ProgressBar bar("bench vision");
  std::string stage;
  auto r = core::RunVisionBench(options, [&](const std::string& s, int done, int total) {
    if (s != stage) bar.Finish(), bar = ProgressBar("bench vision: " + s), stage = s;
    bar.Update(done, total);
  });
  bar.Finish();
  if (!r) return Fail(r.error(), 1);
  const auto& t = r->stages;
  if (json) {
    nlohmann::json j = {{"bench", "vision"}, {"map", options.map}, {"frames", r->frames}, {"frame", {options.frame.width, options.frame.height}},
                        {"lab_ms", r->lab_ms}, {"per_frame_ms", r->per_frame_ms}, {"observe_ms", r->observe_ms}, {"observe_p90_ms", r->observe_p90_ms},
                        {"cold_ms", r->cold_ms}, {"per_frame_ratio", r->per_frame_ms / r->lab_ms}, {"observe_ratio", r->observe_ms / r->lab_ms},
                        {"stages_ms", {{"rectify", t.rectify}, {"foreground", t.foreground}, {"gate", t.gate}, {"instances", t.instances}, {"count", t.count}}},
                        {"observe_peak_mb", r->observe_peak_mb}, {"observe_images", r->observe_images},
                        {"moves", r->moves}, {"moves_in_full", r->moves_in_full}, {"move_ms", r->move_ms}, {"move_p90_ms", r->move_p90_ms},
                        {"move_full_ms", r->move_full_ms},
                        {"move_ratio", r->move_ms / r->lab_ms}, {"move_changed_share", r->move_changed_share},
                        {"move_stages_ms",
                         {{"rectify", r->move_stages.rectify}, {"foreground", r->move_stages.foreground}, {"gate", r->move_stages.gate},
                          {"instances", r->move_stages.instances}, {"count", r->move_stages.count}}}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("vision  (map %s, %d photos of %dx%d from seed %llu, one thread)\n", options.map.c_str(), r->frames, options.frame.width,
              options.frame.height, static_cast<unsigned long long>(options.seed));
  std::printf("yardstick, BGR -> Lab of one frame:   %6.1f ms median\n", r->lab_ms);
  std::printf("per-frame path (pose check + gate):    %6.1f ms median = %.2f x the yardstick   goal <= 10 ms\n", r->per_frame_ms,
              r->per_frame_ms / r->lab_ms);
  std::printf("full observation of a stable frame:    %6.1f ms median (p90 %.1f) = %.1f x the yardstick   goal <= 60 ms\n", r->observe_ms,
              r->observe_p90_ms, r->observe_ms / r->lab_ms);
  std::printf("  of which rectify %.1f, foreground %.1f, arms %.1f, tokens %.1f, count %.1f ms\n", t.rectify, t.foreground, t.gate, t.instances,
              t.count);
  std::printf("... with the board found anew:          %6.1f ms median\n", r->cold_ms);
  std::printf("after a move, as the referee observes:  %6.1f ms median (p90 %.1f) = %.1f x the yardstick   goal <= 60 ms\n", r->move_ms,
              r->move_p90_ms, r->move_ms / r->lab_ms);
  std::printf("  (%d scenes of a game, each just still after a move, %d of them observed in full, as one still scene in %d is; %.1f %% "
              "of the board changed (median); the same frames in full: %.1f ms median)\n",
              r->moves, r->moves_in_full, r->full_every, 100 * r->move_changed_share, r->move_full_ms);
  const auto& m = r->move_stages;
  std::printf("  of which rectify %.1f, foreground %.1f, arms %.1f, tokens %.1f, count %.1f ms\n", m.rectify, m.foreground, m.gate,
              m.instances, m.count);
  if (r->observe_peak_mb > 0)
    std::printf("swref observe over %d photos: peak memory %.0f MB   goal <= 150 MB\n", r->observe_images, r->observe_peak_mb);
  return 0;
}

int RunBench(const std::string& which, const core::EngineBenchOptions& options, bool json) {
  if (which != "engine" && which != "all") return Fail("bench: unknown benchmark \"" + which + "\" (engine, scene, vision, referee)");
  if (auto problem = options.Check(); !problem.empty()) return Fail("bench: " + problem);
  ProgressBar bar("bench engine");
  const core::EngineBenchReport r = core::RunEngineBench(options, [&](int done, int total) { bar.Update(done, total); });
  bar.Finish();
  if (json) {
    nlohmann::json j = {{"bench", "engine"}, {"signature", r.signature}, {"map", options.map}, {"games", r.games},
                        {"actions_per_game", r.actions_per_game}, {"games_per_second", r.games_per_second}, {"ms_per_game", r.ms_per_game},
                        {"check_ns_median", r.check_ns_median}, {"check_ns_p90", r.check_ns_p90}, {"checks_legal_percent", r.checks_legal_percent}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("engine signature %s  (map %s, %d games from seed %llu)\n", r.signature.c_str(), options.map.c_str(), r.games,
              static_cast<unsigned long long>(options.seed));
  std::printf("random full games: %.0f games/s median over 10 batches (%.3f ms/game, %.0f actions/game)   goal >= 1000 games/s\n",
              r.games_per_second, r.ms_per_game, r.actions_per_game);
  std::printf("legality check:    %.0f ns median, %.0f ns p90 (1,000 varied actions, %d%% legal)   goal <= 1000 ns\n", r.check_ns_median,
              r.check_ns_p90, r.checks_legal_percent);
  return 0;
}

}  // namespace swref::cli
