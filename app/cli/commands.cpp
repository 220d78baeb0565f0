#include "app/cli/commands.h"

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_commands.h"
#include "app/cli/calibrate.h"
#include "app/cli/output.h"
#include "app/cli/progress.h"
#include "app/cli/record_commands.h"
#include "app/cli/referee_commands.h"
#include "app/core/demo.h"
#include "app/core/engine_bench.h"
#include "app/core/vision_bench.h"
#include "app/core/journal_import.h"
#include "app/core/play.h"
#include "app/core/print_targets.h"
#include "app/core/observe.h"
#include "app/core/setup.h"
#include "app/core/synthetic.h"
#include "datasets/eval.h"

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
    {"demo", "swref demo [--seed N] [--record-out FILE] [--keep DIR] [--verbose] [--rules-only]", "a complete 2-player game refereed from the table camera's frames: each turn's coins, the two illegal conquests flagged with their reasons, the final scores against the script's (--rules-only: the rules engine alone)"},
    {"referee", "swref referee --setup SETUP (--camera N | --video F | --images DIR) [--events F] (--game GAME.json | --resume) --record OUT.json [--truth T] [--quiet] [--observe-in-full]", "referee a game from a camera, a video or photos (each still scene observed where it changed since the last): commit what the board shows, flag illegal conquests, ask when unsure, tally every turn; the record is written as the game goes (docs/referee.md)"},
    {"play", "swref play RECORD [--pretty]", "replay a game record, standard or SoloPlay (docs/record.md, docs/solo.md): verdict of every action, coins of every turn, final board (solo: opposition, end items, rating), as JSON"},
    {"verify", "swref verify RECORD", "prove a record unedited: its hash chain, its actions against the journal, the replay against every recorded verdict and tally; print the final scores. Exit 0 verified, 1 tampered (naming the first bad entry), 2 unreadable, 3 no journal"},
    {"report", "swref report RECORD... --out DIR", "per game an HTML page, the coins-by-turn chart (PNG, SVG), CSV of turns, flags and ranking; several records: a tournament table (docs/report.md)"},
    {"dataset", "swref dataset generate --out DIR [--map 2p] [--scenes N] [--seed S]", "synthetic photos of game states with exact truth, and the setup material (docs/datasets.md)"},
    {"dataset demo", "swref dataset demo --out DIR [--seed N | --record GAME.json] [--size WxH]", "the demo game (or any game record, standard or SoloPlay) as camera frames: hands, a bump, illegal actions put down and taken back, events and expected verdicts"},
    {"dataset eval", "swref dataset eval DIR (--setup SETUP | --observations FILE)", "run the observer over a dataset (or score given observations): region error, exact boards, confusion by kind, silent wrong stack counts, ms"},
    {"calibrate camera", "swref calibrate camera (--chessboard 9x6 | --charuco 5x7 --marker-mm M) --square-mm S IMAGES... --out camera.json", "the camera's lens from photos of a printed chessboard or ChArUco board: RMS, per-photo errors, dropped photos and why"},
    {"setup board", "swref setup board --map 2p (--layout L.json | --points P.json --board-mm WxH) --reference EMPTY.jpg --out SETUP", "register the board in the camera's view of the empty board, check the layout against the map, write the setup folder"},
    {"enroll", "swref enroll --setup SETUP (--crops DIR | --mat FRONT.jpg --flipped BACK.jpg)", "learn what the tokens look like, from crops DIR/<kind>/*.png or photos of the enrollment mat; per-kind quality, look-alikes, off-centre kinds, sides whose outlines disagree"},
    {"observe", "swref observe --setup SETUP IMAGE... [--debug-dir DIR] [--incremental]", "one Observation JSON line per image: every region's race, side, count (certain or a lower bound), pieces; why a frame is a bad image, shows no board or shows motion on stderr"},
    {"print", "swref print tokens --out FILE.pdf [--paper a4|letter]", "the stand-in token set as a printable PDF at true size (duplex: decline sides on the back)"},
    {"print targets", "swref print markers|charuco|mat --out FILE.pdf [--paper a4|letter]", "the board's corner markers, a ChArUco calibration board, the token enrollment mat, at true scale with instructions"},
    {"dataset suite", "swref dataset suite --out DIR [--scenes 80] [--seed 1]", "the observer's accuracy suite: a synthetic dataset on each of the four maps, set up and enrolled from its own photos, observed and scored (per map and together, against the goals)"},
    {"bench", "swref bench [engine|scene|vision|referee] [--json]", "benchmarks: random games per second and legality checks; synthetic scene generation ms; the observer on one core (per-frame path, full observation, a game's scenes after a move observed incrementally, each against a 1080p BGR->Lab conversion; peak memory of swref observe); the referee on injected games from camera frames, standard and SoloPlay (--solo N, --keep DIR; flag precision and recall, exact tallies, still frame to verdict ms)"},
    {"help", "swref help [COMMAND]", "this overview, or one command's options"},
    {"version", "swref version", "print the version"},
};

const char* SummaryOf(std::string_view name) {
  for (const CommandInfo& c : kCommands) {
    if (name == c.name) return c.summary;
  }
  return "";
}

void PrintOverview() {
  std::cout << "swref " << kVersion << " - a referee for the board game Small World played on a real table.\n\n"
            << "Commands:\n";
  for (const CommandInfo& c : kCommands) std::printf("  %s\n      %s\n", c.usage, c.summary);
  std::cout << "\nStart with `swref demo`. A game record is JSON: see docs/record.md for the format and an example;\n"
            << "`swref play game.json` then gives every verdict and every player's coins; `swref verify game.json` proves\n"
            << "a journaled record unedited, and `swref report game.json --out DIR` makes its HTML page, chart and CSV.\n"
            << "`swref dataset generate` and `swref dataset demo` make synthetic camera photos with exact truth;\n"
            << "`swref print tokens` prints the stand-in token set.\n"
            << "A camera table: print markers and a calibration board, `calibrate camera`, `setup board`, `enroll`, then\n"
            << "`swref referee` follows the game from the camera (or a video, or photos) and the players' events, asking\n"
            << "when it is unsure (docs/referee.md). The camera still misreads some tokens: expect its questions.\n";
}

int RunPlay(const std::string& path, bool pretty) {
  auto replay = core::ReplayRecordFile(path);
  if (!replay) return Fail(replay.error());
  std::cout << engine::PlayDocument(*replay).dump(pretty ? 2 : -1) << "\n";
  return 0;
}

int RunDemo(uint64_t seed, const std::string& record_out, bool journal) {
  auto demo = core::RunDemo(seed);
  if (!demo) return Fail(demo.error(), 1);
  std::printf("swref demo: a complete game on the 2-player map (seed %llu), every action checked by the rules engine.\n",
              static_cast<unsigned long long>(seed));
  std::printf("The moves come from the built-in random legal player; no camera here:\nwithout --rules-only, `swref demo` referees this game from the table camera's frames.\n\n");
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
  if (!record_out.empty() && journal) {
    std::error_code ec;
    std::filesystem::remove(record_out, ec);  // --record-out replaces the file, as without --journal
    auto written = core::JournalRecord(demo->record, record_out, {{"software", std::string("swref ") + kVersion}, {"source", "swref demo"}});
    if (!written) return Fail(written.error(), 1);
    std::printf("Journaled record written to %s (%d hash-chained entries): check it with `swref verify %s`.\n", record_out.c_str(), written->size(),
                record_out.c_str());
  } else if (!record_out.empty()) {
    std::ofstream out(record_out);
    if (!out) return Fail(record_out + ": cannot write the record");
    out << engine::ToJson(demo->record).dump(1) << "\n";
    std::printf("Record written to %s: replay it with `swref play %s`.\n", record_out.c_str(), record_out.c_str());
  } else {
    std::printf("Save the game record with --record-out FILE and replay it with `swref play FILE`.\n");
  }
  return 0;
}

// "1920x1080" -> size; false on anything else.
// This executable's path (for a benchmark that runs another swref command), "" when unknown.
std::string SelfPath() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "" : p.string();
}

bool ParseSize(const std::string& text, cv::Size* size) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  *size = cv::Size(w, h);
  return true;
}

int RunDatasetGenerate(datasets::DatasetOptions options, const std::string& size) {
  if (!size.empty() && !ParseSize(size, &options.frame)) return Fail("dataset generate: --size: expected WIDTHxHEIGHT, e.g. 1920x1080");
  ProgressBar bar("dataset generate");
  auto summary = core::GenerateDataset(options, [&](int done, int total) { bar.Update(done, total); });
  bar.Finish();
  if (!summary) return Fail("dataset generate: " + summary.error(), 1);
  std::printf("Wrote %s: %d images (%d with arms over the board), truth.jsonl, frames.jsonl, reference.png, layout.json, map.json, "
              "%d enrollment crops.\n", options.out.c_str(), summary->images, summary->motion, summary->crops);
  std::printf("%d regions hold a neat stack (tokens_certain false). Median %.0f ms per image.\n", summary->uncertain_regions,
              summary->median_scene_ms);
  return 0;
}

int RunDatasetDemo(uint64_t seed, const std::string& record, datasets::GameFramesOptions options, const std::string& size) {
  if (!size.empty() && !ParseSize(size, &options.frame)) return Fail("dataset demo: --size: expected WIDTHxHEIGHT, e.g. 1280x720");
  ProgressBar bar("dataset demo");
  auto on_progress = [&](int done, int total) { bar.Update(done, total); };
  auto summary = record.empty() ? core::GenerateDemoFrames(seed, options, on_progress) : core::GenerateRecordFrames(record, options, on_progress);
  bar.Finish();
  if (!summary) return Fail("dataset demo: " + summary.error(), 1);
  const std::string game = record.empty() ? "the demo game (seed " + std::to_string(seed) + ")" : record;
  std::printf("Wrote %s: %s as %d camera frames (%d with a hand over the board), %d off-board events,\n"
              "%d illegal actions photographed and taken back, record.json and expected.json (`swref play` of the record).\n"
              "Median %.0f ms per frame.\n",
              options.out.c_str(), game.c_str(), summary->frames, summary->motion_frames, summary->events, summary->flagged,
              summary->median_frame_ms);
  return 0;
}

int RunDatasetEval(const std::string& dir, const std::string& observations, const std::string& setup, const std::string& save) {
  auto truth = datasets::ReadObservations(dir + "/truth.jsonl");
  if (!truth) return Fail("dataset eval: " + truth.error());
  if (!observations.empty()) {
    auto seen = datasets::ReadObservations(observations);
    if (!seen) return Fail("dataset eval: " + seen.error());
    std::cout << datasets::FormatReport(datasets::Evaluate(*truth, *seen));
    return 0;
  }
  if (setup.empty()) return Fail("dataset eval: give --setup SETUP (run the observer) or --observations FILE (score an observer's output)");
  ProgressBar bar("dataset eval");
  auto report = core::EvaluateWithObserver(setup, dir, save, [&](int done, int total) { bar.Update(done, total); });
  bar.Finish();
  if (!report) return Fail("dataset eval: " + report.error(), 1);
  std::cout << datasets::FormatReport(*report);
  return 0;
}

int RunDatasetSuite(const core::SuiteOptions& options) {
  if (auto problem = options.Check(); !problem.empty()) return Fail("dataset suite: " + problem);
  ProgressBar bar("dataset suite");
  std::string stage;
  auto report = core::RunVisionSuite(options, [&](const std::string& map, const std::string& s, int done, int total) {
    if (map + s != stage) bar.Finish(), bar = ProgressBar("dataset suite " + map + ": " + s), stage = map + s;
    bar.Update(done, total);
  });
  bar.Finish();
  if (!report) return Fail(report.error(), 1);
  std::printf("map  photos  region error  boards exact  token kinds  silent stack counts  median ms\n");
  for (const auto& [map, r] : report->maps)
    std::printf("%-4s %6d  %11.2f%%  %11.1f%%  %10.2f%%  %19d  %9.0f\n", map.c_str(), r.images, 100 * r.region_error_rate(), 100 * r.exact_rate(),
                100 * r.token.kind_accuracy(), r.silent_wrong_stacks, r.median_ms());
  std::printf("\nAll %zu maps together (goals: region error <= 0.1%%, boards exact >= 97%%, token kinds >= 99.5%%, no silent stack counts):\n",
              report->maps.size());
  std::cout << datasets::FormatReport(report->all);
  return 0;
}

int RunObserve(const core::ObserveRequest& request) {
  // The observation on stdout exactly as specified; why a frame was not read (a bad image, no board, motion) on
  // stderr, naming the file: the status alone does not say what to do about it.
  auto n = core::ObserveImages(request, [](const vision::Observation& o, const std::string& reason) {
    std::cout << vision::ToJson(o).dump() << std::endl;
    if (o.status == vision::Status::kOk) return;
    const std::string named = o.image + ": ";  // most reasons already start with the file's name
    const char* what = o.status == vision::Status::kBadImage ? "bad image" : o.status == vision::Status::kNoBoard ? "no board" : "motion";
    std::cerr << "swref: observe: " << o.image << ": " << what << ": " << (reason.rfind(named, 0) == 0 ? reason.substr(named.size()) : reason) << "\n";
  });
  if (!n) return Fail("observe: " + n.error(), 1);
  return 0;
}

int RunSetupBoard(calibration::SetupRequest request, const std::string& board_mm) {
  if (!board_mm.empty()) {
    cv::Size size;
    if (!ParseSize(board_mm, &size)) return Fail("setup board: --board-mm: expected WIDTHxHEIGHT in mm, e.g. 600x400");
    request.board_mm = cv::Size2d(size.width, size.height);
  }
  auto setup = core::SetupBoard(request);
  if (!setup) return Fail("setup board: " + setup.error(), 1);
  std::printf("Wrote %s: setup.json, reference.png, layout.json%s.\n", request.out.c_str(), setup->has_camera ? ", camera.json" : "");
  std::printf("Registration: %s", calibration::ToString(setup->pose.mode));
  if (setup->pose.mode == calibration::Registration::kMarkers) {
    std::printf(" (%zu of 4 markers found, fit residual %.2f px)", setup->pose.markers_found.size(), setup->pose.residual_px);
  }
  std::printf(".\nLayout: %zu regions, adjacency equals map %s's. Next: `swref enroll --setup %s --crops DIR`.\n",
              setup->layout.regions.size(), request.map.c_str(), request.out.c_str());
  return 0;
}

int RunEnroll(const std::string& setup, const std::string& crops, const std::vector<std::string>& mat,
              const std::vector<std::string>& flipped, const std::string& paper) {
  if (crops.empty() == mat.empty()) {
    return Fail("enroll: give --crops DIR (DIR/<token kind>/*.png) or --mat FRONT.jpg --flipped BACK.jpg (photos of `swref print mat`)");
  }
  if (!mat.empty() && flipped.empty()) return Fail("enroll: --flipped: a photo of the mat with the race tokens turned over (their decline side)");
  auto report = crops.empty() ? core::EnrollFromMat(setup, mat, flipped, paper) : core::EnrollFromCrops(setup, crops);
  if (!report) return Fail("enroll: " + report.error(), 1);
  std::printf("Enrolled %d crops of %zu token kinds into %s.\n\n", report->samples, report->kinds.size(), report->model_path.c_str());
  std::printf("%-20s %7s %10s  %s\n", "kind", "samples", "quality", "most confused with");
  for (const auto& k : report->kinds) {
    char quality[16] = "-";
    if (k.compared) std::snprintf(quality, sizeof quality, "%.0f%%", 100 * k.loo_accuracy);
    std::printf("%-20s %7d %10s  %s\n", k.kind.c_str(), k.samples, quality, k.most_confused_with.c_str());
  }
  std::printf("\n(quality: share of a kind's photos named right by its other photos, leave-one-out; -: a single photo, not measured)\n");
  if (!report->look_alikes.empty()) {
    std::printf("Look-alikes, check them under the game's light:");
    for (const auto& [a, b] : report->look_alikes) std::printf(" %s/%s", a.c_str(), b.c_str());
    std::printf("\n");
  }
  const std::string off_centre = core::OffCentreAdvice(*report, [](const std::string& kind) { return kind; }, " ");
  if (!off_centre.empty()) std::printf("%s\n", off_centre.c_str());
  const std::string other_side = core::OtherSideAdvice(*report, [](const std::string& kind) { return kind; }, " ");
  if (!other_side.empty()) std::printf("%s\n", other_side.c_str());
  if (!report->missing_kinds.empty()) {
    std::printf("No crops of %zu kinds (the observer cannot name them):", report->missing_kinds.size());
    for (const auto& k : report->missing_kinds) std::printf(" %s", k.c_str());
    std::printf("\n");
  }
  return 0;
}

int RunPrintTokens(const std::string& out, const datasets::TokenSheetOptions& options) {
  if (out.empty()) return Fail("print tokens: give the PDF to write with --out FILE.pdf");
  if (options.paper != "a4" && options.paper != "letter") return Fail("print tokens: --paper: a4 or letter");
  auto pages = core::PrintTokens(out, options);
  if (!pages) return Fail("print tokens: " + pages.error(), 1);
  std::printf("Wrote %s: %d pages. Print at 100%% (no \"fit to page\"); the 50 mm bar on each page checks the scale.%s\n", out.c_str(), *pages,
              options.duplex ? " Print double-sided, flipping on the long edge: each token's decline side lands on its back." : "");
  return 0;
}

}  // namespace

int Main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "help") {  // `swref help [COMMAND]` is handled before option parsing
    if (argc == 2) return PrintOverview(), 0;
    // A topic is a command ("play"), a command of two words ("setup board", or as two arguments), or the first
    // word of such commands ("setup", "dataset"): its options, or its subcommands.
    std::string topic = argv[2];
    for (int i = 3; i < argc; ++i) topic += std::string(" ") + argv[i];
    if (topic == "help") return PrintOverview(), 0;
    const bool known = std::any_of(std::begin(kCommands), std::end(kCommands), [&](const CommandInfo& c) {
      const std::string name = c.name;
      return topic == name || name.rfind(topic + " ", 0) == 0;
    });
    if (!known) return Fail("help: no command \"" + topic + "\" (see `swref help`)");
    std::vector<std::string> args = {argv[0]};
    std::stringstream words(topic);
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    std::vector<char*> ptrs;
    for (auto& a : args) ptrs.push_back(a.data());
    return Main(static_cast<int>(ptrs.size()), ptrs.data());
  }
  CLI::App app{"swref: a referee for Small World played on a real table", "swref"};
  app.set_help_flag("-h,--help", "show help");
  int exit_code = 0;

  auto* version = app.add_subcommand("version", "print the version");

  auto* play = app.add_subcommand("play", SummaryOf("play"));
  std::string record;
  bool pretty = false;
  play->add_option("RECORD", record, "a game record (JSON, docs/record.md)")->required();
  play->add_flag("--pretty", pretty, "indent the JSON output");

  auto* demo = app.add_subcommand("demo", SummaryOf("demo"));
  uint64_t demo_seed = 7;
  std::string record_out;
  demo->add_option("--seed", demo_seed, "the game's seed (default 7)");
  demo->add_option("--record-out", record_out, "write the game record to this file");
  bool demo_journal = false, demo_rules_only = false;
  core::CameraDemoOptions camera_demo;
  auto* journal_flag =
      demo->add_flag("--journal", demo_journal, "with --rules-only --record-out: the record as the referee journals it (hash-chained)");
  auto* rules_only_flag = demo->add_flag("--rules-only", demo_rules_only, "the scripted game through the rules engine alone (no camera, a second)");
  // The camera demo's record is the referee's journal already: --journal would change nothing there, so it is
  // refused rather than ignored.
  journal_flag->needs(rules_only_flag);
  demo->add_option("--keep", camera_demo.work_dir, "keep the frames, the setup and the record in this (new) folder");
  bool demo_verbose = false;
  demo->add_flag("--verbose", demo_verbose, "print every notice of the referee (commits, questions, corrections) as it comes");

  auto* referee = app.add_subcommand("referee", SummaryOf("referee"));
  RefereeCommand referee_command;
  referee->add_option("--setup", referee_command.options.setup, "the setup folder (`swref setup board`, `swref enroll`)")->required();
  referee->add_option("--camera", referee_command.camera, "a camera's number (0, 1, ...)");
  referee->add_option("--video", referee_command.video, "a video file");
  referee->add_option("--images", referee_command.images, "a folder of photos, taken in name order");
  referee->add_option("--events", referee_command.events, "the players' events, one JSON object a line (docs/referee.md)");
  referee->add_option("--game", referee_command.game, "the game's header: players, map, stacks (a record file)");
  referee->add_option("--record", referee_command.options.record, "the game record to write as the game goes")->required();
  referee->add_flag("--resume", referee_command.options.resume,
                    "continue the game in --record (verified first): a video or a folder from its resume point, a camera from now");
  referee->add_option("--truth", referee_command.truth, "a synthetic game's truth.jsonl: players answer every question from it, as in `swref demo`");
  referee->add_flag("--quiet", referee_command.quiet, "print only flags, questions, coins and the end");
  referee->add_flag_callback("--observe-in-full", [&] { referee_command.options.incremental = false; },
                    "observe every still scene in full (by default a scene is observed anew only where it changed since the last)");

  auto* verify = app.add_subcommand("verify", SummaryOf("verify"));
  std::string verify_record;
  verify->add_option("RECORD", verify_record, "a game record (JSON, docs/record.md)")->required();

  auto* report = app.add_subcommand("report", SummaryOf("report"));
  std::vector<std::string> report_records;
  std::string report_out;
  report->add_option("RECORD", report_records, "one or more game records")->required();
  report->add_option("--out", report_out, "the folder to write (created when missing)")->required();

  auto* bench = app.add_subcommand("bench", SummaryOf("bench"));
  std::string bench_which = "all";
  core::EngineBenchOptions bench_options;
  bool bench_json = false;
  bench->add_option("WHICH", bench_which, "engine, scene, vision, referee (default: all = engine and scene)");
  bench->add_option("--games", bench_options.games, "random games to play (default 2000)");
  bench->add_option("--seed", bench_options.seed, "first game's seed (default 1)");
  bench->add_option("--map", bench_options.map, "map of the random games (default 4p)");
  bench->add_flag("--json", bench_json, "one JSON line instead of text");

  auto* dataset = app.add_subcommand("dataset", "synthetic datasets: generate, demo, suite, eval");
  dataset->require_subcommand(1);
  auto* generate = dataset->add_subcommand("generate", SummaryOf("dataset"));
  datasets::DatasetOptions dataset_options;
  std::string dataset_size;
  bool no_markers = false;
  generate->add_option("--out", dataset_options.out, "folder to write (new or empty)")->required();
  generate->add_option("--map", dataset_options.table.map, "2p..5p or a map file (default 2p)");
  generate->add_option("--scenes", dataset_options.scenes, "photos of game states (default 20)");
  generate->add_option("--seed", dataset_options.table.seed, "seed: the same seed gives the same dataset (default 1)");
  generate->add_option("--size", dataset_size, "frame size WIDTHxHEIGHT (default 1920x1080)");
  generate->add_option("--motion", dataset_options.motion_rate, "share of photos with arms over the board (default 0.1)");
  generate->add_option("--crops", dataset_options.crops_per_kind, "enrollment crops per token kind (default 6)");
  generate->add_option("--max-tilt", dataset_options.max_tilt_deg, "the camera's largest tilt from overhead, degrees (default 15)")->check(CLI::Range(0.0, 15.0));
  generate->add_flag("--no-markers", no_markers, "a board without the ArUco corner markers");
  auto* ds_demo = dataset->add_subcommand("demo", SummaryOf("dataset demo"));
  datasets::GameFramesOptions frames_options;
  uint64_t frames_game_seed = 7;
  std::string frames_size;
  ds_demo->add_option("--out", frames_options.out, "folder to write (new or empty)")->required();
  ds_demo->add_option("--seed", frames_game_seed, "the demo game's seed, as `swref demo --seed` (default 7)");
  ds_demo->add_option("--size", frames_size, "frame size WIDTHxHEIGHT (default 1920x1080)");
  std::string frames_record;
  ds_demo->add_option("--record", frames_record, "photograph this game record (standard or SoloPlay) instead of the demo game")->excludes("--seed");
  auto* ds_suite = dataset->add_subcommand("suite", SummaryOf("dataset suite"));
  core::SuiteOptions suite;
  ds_suite->add_option("--out", suite.dir, "the suite's folder (made, or reused when it holds the same suite)")->required();
  ds_suite->add_option("--scenes", suite.scenes, "photos per map (default 80)");
  ds_suite->add_option("--seed", suite.seed, "the first map's seed (default 1)");
  auto* ds_eval = dataset->add_subcommand("eval", SummaryOf("dataset eval"));
  std::string eval_dir, eval_observations, eval_setup;
  ds_eval->add_option("DIR", eval_dir, "a dataset folder (with truth.jsonl)")->required();
  ds_eval->add_option("--observations", eval_observations, "score these observations (JSON lines, one per image)");
  ds_eval->add_option("--setup", eval_setup, "run the observer with this setup folder");
  std::string eval_save;
  ds_eval->add_option("--save", eval_save, "with --setup: also write the observations (JSON lines) to this file");

  auto* observe = app.add_subcommand("observe", SummaryOf("observe"));
  core::ObserveRequest observe_request;
  observe->add_option("--setup", observe_request.setup, "the setup folder (with enrolled tokens)")->required();
  observe->add_option("IMAGE", observe_request.images, "images to observe")->required();
  observe->add_option("--debug-dir", observe_request.debug_dir, "write each stage's intermediate image to DIR/<image>/");
  observe->add_flag("--incremental", observe_request.incremental,
                    "the images are one fixed camera's frames in order: name tokens again only where the board changed since the last "
                    "still frame");

  auto* print = app.add_subcommand("print", "printable material: tokens, markers, charuco, mat");
  print->require_subcommand(1);
  auto* tokens = print->add_subcommand("tokens", SummaryOf("print"));
  std::string tokens_out;
  datasets::TokenSheetOptions sheet;
  bool simplex = false, sample = false;
  tokens->add_option("--out", tokens_out, "the PDF to write")->required();
  tokens->add_option("--paper", sheet.paper, "a4 (default) or letter");
  tokens->add_flag("--simplex", simplex, "one-sided: the decline sides as separate tokens on their own pages");
  tokens->add_flag("--sample", sample, "2 of each kind instead of the box's counts");

  auto* calibrate = app.add_subcommand("calibrate", "calibrate the camera: calibrate camera");
  calibrate->require_subcommand(1);
  auto* calibrate_camera = calibrate->add_subcommand("camera", SummaryOf("calibrate camera"));
  core::CalibrateRequest calib;
  std::string calib_chessboard, calib_charuco;
  calib.dictionary = "DICT_6X6_250";
  calibrate_camera->add_option("--chessboard", calib_chessboard, "inner corners COLSxROWS of a printed chessboard, e.g. 9x6");
  calibrate_camera->add_option("--charuco", calib_charuco, "squares COLSxROWS of a ChArUco board (`swref print charuco`), e.g. 5x7");
  calibrate_camera->add_option("--square-mm", calib.square_mm, "the printed square's side in mm")->required();
  calibrate_camera->add_option("--marker-mm", calib.marker_mm, "ChArUco: the marker's side in mm");
  calibrate_camera->add_option("--dictionary", calib.dictionary, "ChArUco: the marker dictionary (default DICT_6X6_250)");
  calibrate_camera->add_option("IMAGES", calib.files, "photos of the board from several angles (at least 3)")->required();
  calibrate_camera->add_option("--out", calib.out, "the camera file to write (default camera.json)");

  auto* setup_cmd = app.add_subcommand("setup", "set up a table: setup board");
  setup_cmd->require_subcommand(1);
  auto* setup_board = setup_cmd->add_subcommand("board", SummaryOf("setup board"));
  calibration::SetupRequest setup_request;
  std::string setup_board_mm;
  bool setup_no_markers = false;
  setup_board->add_option("--map", setup_request.map, "2p..5p or a map file (default 2p)");
  setup_board->add_option("--layout", setup_request.layout, "the board's layout file (smallworld-layout/1)");
  setup_board->add_option("--points", setup_request.points, "instead of a layout: one point per region, {\"points_px\": {\"id\": [x, y]}} on the reference");
  setup_board->add_option("--board-mm", setup_board_mm, "with --points: the printed board's size WIDTHxHEIGHT in mm");
  setup_board->add_flag("--no-markers", setup_no_markers, "with --points: the board has no corner markers (its outline is used)");
  setup_board->add_option("--reference", setup_request.reference, "the empty board, photographed by the table camera")->required();
  setup_board->add_option("--camera", setup_request.camera, "camera.json from `swref calibrate camera` (optional)");
  setup_board->add_option("--out", setup_request.out, "the setup folder to write (new or empty)")->required();

  auto* enroll = app.add_subcommand("enroll", SummaryOf("enroll"));
  std::string enroll_setup, enroll_crops;
  enroll->add_option("--setup", enroll_setup, "the setup folder")->required();
  enroll->add_option("--crops", enroll_crops, "crops DIR/<token kind>/*.png, one token per image, centred, about 2/3 of the crop");
  std::vector<std::string> enroll_mat, enroll_flipped;
  std::string enroll_paper = "a4";
  enroll->add_option("--mat", enroll_mat, "photos of the enrollment mat, every token's active side up");
  enroll->add_option("--flipped", enroll_flipped, "photos of the mat with the race tokens turned over");
  enroll->add_option("--paper", enroll_paper, "the paper the mat was printed on: a4 (default) or letter");

  std::map<std::string, CLI::App*> print_targets;
  std::string target_out;
  core::PrintTargetOptions target_options;
  for (const std::string& name : core::PrintTargetNames()) {
    auto* t = print->add_subcommand(name, name == "markers"   ? "the 4 board-corner ArUco markers (ids 0-3)"
                                          : name == "charuco" ? "a ChArUco board for `swref calibrate camera --charuco`"
                                                              : "the token enrollment mat for `swref enroll --mat`");
    t->add_option("--out", target_out, "the PDF to write")->required();
    t->add_option("--paper", target_options.paper, "a4 (default) or letter");
    if (name == "markers") t->add_option("--size-mm", target_options.marker_mm, "the markers' side in mm (default 40)");
    print_targets[name] = t;
  }

  core::SceneBenchOptions scene_bench;
  bench->add_option("--scenes", scene_bench.scenes, "scene: scenes to time (default 40)");
  core::VisionBenchOptions vision_bench;
  bench->add_option("--frames", vision_bench.frames, "vision: photos to observe (default 30)");
  bench->add_option("--moves", vision_bench.moves, "vision: a game's scenes after a move to observe, at most (default 60)");
  core::RefereeBenchOptions referee_bench;
  std::string referee_bench_maps, referee_bench_size;
  bool referee_bench_no_demo = false;
  bench->add_option("--maps", referee_bench_maps, "referee: the maps of the injected games, in turn (default 2p,3p,4p,5p)");
  bench->add_option("--size", referee_bench_size, "referee, vision: the camera's frame WIDTHxHEIGHT (default 1920x1080)");
  bench->add_flag("--no-demo", referee_bench_no_demo, "referee: only the injected games, not the demo game");
  bench->add_flag_callback("--observe-in-full", [&] { referee_bench.incremental = false; }, "referee: observe every still scene in full (not only where it changed)");
  bench->add_option("--keep", referee_bench.keep_dir, "referee: keep each game's frames, setup and record in DIR/<game> (new folders)");
  bench->add_option("--solo", referee_bench.solo_games, "referee: SoloPlay games with illegal solo actions, after the others (default 4)");
  // `referee` is also a top-level command, which CLI11 would take it for: here it is bench's own subcommand, the
  // options after it going to bench.
  auto* bench_referee = bench->add_subcommand("referee", "the referee on injected games from camera frames");
  bench_referee->fallthrough();
  bool bench_verbose = false;
  bench->add_flag("--verbose", bench_verbose, "referee: print every notice of the referee, game by game");

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
    else if (*demo && demo_rules_only) exit_code = RunDemo(demo_seed, record_out, demo_journal);
    else if (*demo) {
      camera_demo.seed = demo_seed;
      camera_demo.record_out = record_out;
      exit_code = cli::RunCameraDemo(camera_demo, demo_verbose);
    } else if (*referee) exit_code = cli::RunReferee(referee_command);
    else if (*verify) exit_code = RunVerify(verify_record);
    else if (*report) exit_code = RunReport(report_records, report_out);
    else if (*generate) {
      dataset_options.table.markers = !no_markers;
      exit_code = RunDatasetGenerate(dataset_options, dataset_size);
    } else if (*ds_demo) exit_code = RunDatasetDemo(frames_game_seed, frames_record, frames_options, frames_size);
    else if (*ds_eval) exit_code = RunDatasetEval(eval_dir, eval_observations, eval_setup, eval_save);
    else if (*ds_suite) exit_code = RunDatasetSuite(suite);
    else if (*observe) exit_code = RunObserve(observe_request);
    else if (*tokens) {
      sheet.duplex = !simplex;
      sheet.full_box = !sample;
      exit_code = RunPrintTokens(tokens_out, sheet);
    } else if (auto hit = std::find_if(print_targets.begin(), print_targets.end(), [](const auto& t) { return t.second->parsed(); });
               hit != print_targets.end()) {
      auto pages = core::PrintTarget(hit->first, target_out, target_options);
      if (!pages) return Fail("print " + hit->first + ": " + pages.error(), 1);
      std::printf("Wrote %s: %d page%s. Print at 100%% (no \"fit to page\"); check the 50 mm bar with a ruler.\n", target_out.c_str(), *pages,
                  *pages == 1 ? "" : "s");
    } else if (*calibrate_camera) {
      if (calib_chessboard.empty() == calib_charuco.empty()) return Fail("calibrate camera: give either --chessboard COLSxROWS or --charuco COLSxROWS");
      calib.kind = calib_chessboard.empty() ? core::CalibrateRequest::Kind::kCharuco : core::CalibrateRequest::Kind::kChessboard;
      if (!ParsePattern(calib_chessboard.empty() ? calib_charuco : calib_chessboard, &calib.pattern)) {
        return Fail("calibrate camera: the pattern must be COLSxROWS, e.g. 9x6");
      }
      exit_code = RunCalibrateCamera(calib);
    } else if (*setup_board) {
      setup_request.markers = !setup_no_markers;
      exit_code = RunSetupBoard(setup_request, setup_board_mm);
    } else if (*enroll) {
      exit_code = RunEnroll(enroll_setup, enroll_crops, enroll_mat, enroll_flipped, enroll_paper);
    } else if (*bench) {
      if (bench->count("--seed") > 0) scene_bench.seed = bench_options.seed;
      if (bench->count("--map") > 0) scene_bench.map = bench_options.map;
      if (bench->got_subcommand(bench_referee)) {
        if (bench->count("--games") > 0) referee_bench.games = bench_options.games;
        if (bench->count("--seed") > 0) referee_bench.seed = bench_options.seed;
        if (!referee_bench_maps.empty()) {
          referee_bench.maps.clear();
          std::stringstream list(referee_bench_maps);
          for (std::string m; std::getline(list, m, ',');) referee_bench.maps.push_back(m);
        }
        if (!referee_bench_size.empty() && !ParseSize(referee_bench_size, &referee_bench.frame)) return Fail("bench referee: --size: expected WIDTHxHEIGHT, e.g. 1920x1080");
        referee_bench.demo = !referee_bench_no_demo;
        if (bench_verbose) referee_bench.on_notice = [](const std::string& game, const core::Notice& n) { PrintRefereeNotice(game, n); };
        if (auto problem = referee_bench.Check(); !problem.empty()) return Fail("bench referee: " + problem);
        exit_code = RunRefereeBench(referee_bench, bench_json);
      } else if (bench_which == "vision") {
        if (bench->count("--seed") > 0) vision_bench.seed = bench_options.seed;
        if (bench->count("--map") > 0) vision_bench.map = bench_options.map;
        if (!referee_bench_size.empty() && !ParseSize(referee_bench_size, &vision_bench.frame)) return Fail("bench vision: --size: expected WIDTHxHEIGHT, e.g. 1920x1080");
        vision_bench.swref_exe = SelfPath();
        if (auto problem = vision_bench.Check(); !problem.empty()) return Fail("bench vision: " + problem);
        exit_code = RunVisionBench(vision_bench, bench_json);
      } else if (bench_which == "scene") {
        if (auto problem = scene_bench.Check(); !problem.empty()) return Fail("bench scene: " + problem);
        exit_code = RunSceneBench(scene_bench, bench_json);
      } else {
        exit_code = RunBench(bench_which, bench_options, bench_json);
        if (exit_code == 0 && bench_which == "all") exit_code = RunSceneBench(scene_bench, bench_json);
      }
    }
    else PrintOverview();
  } catch (const std::exception& e) {
    return Fail(std::string("error: ") + e.what(), 1);
  }
  return exit_code;
}

}  // namespace swref::cli
