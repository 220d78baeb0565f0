#include "app/cli/commands.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/progress.h"
#include "app/core/demo.h"
#include "app/core/engine_bench.h"
#include "app/core/play.h"

namespace swref::cli {
namespace {

constexpr const char* kVersion = "0.1.0";

struct CommandInfo {
  const char* name;
  const char* usage;
  const char* summary;
};

// The commands of this version, in the order `swref help` lists them.
constexpr CommandInfo kCommands[] = {
    {"demo", "swref demo [--seed N] [--record-out FILE]", "play a complete seeded 2-player game through the rules; print each turn's coins and the illegal conquests flagged"},
    {"play", "swref play RECORD [--pretty]", "replay a game record (docs/record.md): verdict of every action, coins of every turn, final board, as JSON"},
    {"bench", "swref bench [engine] [--games N] [--seed S] [--json]", "benchmarks: random full 4-player games per second, legality checks, with a deterministic signature"},
    {"help", "swref help [COMMAND]", "this overview, or one command's options"},
    {"version", "swref version", "print the version"},
};

int Fail(const std::string& message, int code = 2) {
  std::cerr << "swref: " << message << "\n";
  return code;
}

void PrintOverview() {
  std::cout << "swref " << kVersion << " - a referee for the board game Small World played on a real table.\n\n"
            << "Commands:\n";
  for (const CommandInfo& c : kCommands) std::printf("  %-52s %s\n", c.usage, c.summary);
  std::cout << "\nStart with `swref demo`. A game record is JSON: see docs/record.md for the format and an example;\n"
            << "`swref play game.json` then gives every verdict and every player's coins.\n"
            << "Camera refereeing (calibrate, setup, enroll, observe, referee) is not in this version yet.\n";
}

int RunPlay(const std::string& path, bool pretty) {
  auto replay = core::ReplayRecordFile(path);
  if (!replay) return Fail(replay.error());
  std::cout << engine::PlayDocument(*replay).dump(pretty ? 2 : -1) << "\n";
  return 0;
}

int RunDemo(uint64_t seed, const std::string& record_out) {
  auto demo = core::RunDemo(seed);
  if (!demo) return Fail(demo.error(), 1);
  std::printf("swref demo: a complete game on the 2-player map (seed %llu), every action checked by the rules engine.\n",
              static_cast<unsigned long long>(seed));
  std::printf("The moves come from the built-in random legal player; the camera referee is not in this version yet.\n\n");
  std::printf("%5s  %-6s %-30s %7s %5s %5s %5s %6s\n", "Round", "Player", "Combo", "Regions", "Race", "Power", "Turn", "Coins");
  for (const core::DemoTurn& t : demo->turns)
    std::printf("%5d  %-6s %-30s %7d %5d %5d %5d %6d\n", t.round, t.player.c_str(), t.combo.c_str(), t.coins.regions, t.coins.race, t.coins.power,
                t.coins.total(), t.coins_after);
  std::printf("\nIllegal conquests flagged (the action is refused; the game goes on unchanged):\n");
  for (const core::DemoFlag& f : demo->flags)
    std::printf("  round %d, %s, action %d: conquer region %d -> %s: %s\n", f.round, f.player.c_str(), f.step, f.region, f.code.c_str(), f.why.c_str());
  std::printf("\nFinal coins:");
  for (const auto& [name, coins] : demo->final_coins) std::printf(" %s %d", name.c_str(), coins);
  std::printf(".  %s: %s\n", demo->winners.size() > 1 ? "Shared win" : "Winner", [&] {
    std::string w;
    for (const auto& name : demo->winners) w += (w.empty() ? "" : " and ") + name;
    return w;
  }().c_str());
  if (!record_out.empty()) {
    std::ofstream out(record_out);
    if (!out) return Fail(record_out + ": cannot write the record");
    out << engine::ToJson(demo->record).dump(1) << "\n";
    std::printf("Record written to %s: replay it with `swref play %s`.\n", record_out.c_str(), record_out.c_str());
  } else {
    std::printf("Save the game record with --record-out FILE and replay it with `swref play FILE`.\n");
  }
  return 0;
}

int RunBench(const std::string& which, const core::EngineBenchOptions& options, bool json) {
  if (which != "engine" && which != "all") return Fail("bench: unknown benchmark \"" + which + "\" (engine)");
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

}  // namespace

int Main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "help") {  // `swref help [COMMAND]` is handled before option parsing
    if (argc == 2) return PrintOverview(), 0;
    const std::string topic = argv[2];
    if (std::none_of(std::begin(kCommands), std::end(kCommands), [&](const CommandInfo& c) { return topic == c.name; }) || topic == "help")
      return topic == "help" ? (PrintOverview(), 0) : Fail("help: no command \"" + topic + "\" (see `swref help`)");
    std::vector<std::string> args = {argv[0], argv[2], "--help"};
    std::vector<char*> ptrs;
    for (auto& a : args) ptrs.push_back(a.data());
    return Main(3, ptrs.data());
  }
  CLI::App app{"swref: a referee for Small World played on a real table", "swref"};
  app.set_help_flag("-h,--help", "show help");
  int exit_code = 0;

  auto* version = app.add_subcommand("version", "print the version");

  auto* play = app.add_subcommand("play", kCommands[1].summary);
  std::string record;
  bool pretty = false;
  play->add_option("RECORD", record, "a game record (JSON, docs/record.md)")->required();
  play->add_flag("--pretty", pretty, "indent the JSON output");

  auto* demo = app.add_subcommand("demo", kCommands[0].summary);
  uint64_t demo_seed = 7;
  std::string record_out;
  demo->add_option("--seed", demo_seed, "the game's seed (default 7)");
  demo->add_option("--record-out", record_out, "write the game record to this file");

  auto* bench = app.add_subcommand("bench", kCommands[2].summary);
  std::string bench_which = "all";
  core::EngineBenchOptions bench_options;
  bool bench_json = false;
  bench->add_option("WHICH", bench_which, "engine (default: all available)");
  bench->add_option("--games", bench_options.games, "random games to play (default 2000)");
  bench->add_option("--seed", bench_options.seed, "first game's seed (default 1)");
  bench->add_option("--map", bench_options.map, "map of the random games (default 4p)");
  bench->add_flag("--json", bench_json, "one JSON line instead of text");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "swref: " << e.what() << "\n(see `swref help`)\n";
    return 2;
  }
  try {
    if (*version) std::cout << "swref " << kVersion << "\n";
    else if (*play) exit_code = RunPlay(record, pretty);
    else if (*demo) exit_code = RunDemo(demo_seed, record_out);
    else if (*bench) exit_code = RunBench(bench_which, bench_options, bench_json);
    else PrintOverview();
  } catch (const std::exception& e) {
    return Fail(std::string("error: ") + e.what(), 1);
  }
  return exit_code;
}

}  // namespace swref::cli
