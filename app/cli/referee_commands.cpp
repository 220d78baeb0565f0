#include "app/cli/referee_commands.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/output.h"
#include "app/cli/progress.h"
#include "app/core/referee_run.h"
#include "app/core/truth_players.h"
#include "datasets/eval.h"

namespace swref::cli {
namespace {

void PrintNotice(const core::Notice& n, bool quiet) {
  using core::NoticeKind;
  if (quiet && (n.kind == NoticeKind::kCommitted || n.kind == NoticeKind::kPending || n.kind == NoticeKind::kVision)) return;
  const std::string where = n.frame >= 0 ? "frame " + std::to_string(n.frame) : "event";
  std::printf("%-12s %-10s %s\n", where.c_str(), core::ToString(n.kind), n.text.c_str());
  if (n.kind == NoticeKind::kCoins) {
    const auto& c = n.data["coins"];
    std::printf("%-12s %-10s   regions %d, race %d, power %d\n", "", "", c.value("regions", 0), c.value("race", 0), c.value("power", 0));
  }
  std::fflush(stdout);  // in order with the progress bar on stderr
}

}  // namespace

void PrintRefereeNotice(const std::string& game, const core::Notice& n) {
  std::printf("%s: ", game.c_str());
  PrintNotice(n, false);
}

int RunReferee(const RefereeCommand& command) {
  const int sources = !command.camera.empty() + !command.video.empty() + !command.images.empty();
  if (sources != 1) return Fail("referee: give exactly one of --camera N, --video FILE, --images DIR", 2);
  engine::Record header;
  if (!command.options.resume) {
    if (command.game.empty()) return Fail("referee: --game FILE: the game's header (players, map, the combo stacks; a record file) for a new record", 2);
    auto h = core::ReadGameHeader(command.game);
    if (!h) return Fail("referee: " + h.error(), 2);
    header = std::move(*h);
  }
  std::vector<core::TableEvent> events;
  if (!command.events.empty()) {
    auto e = core::ReadEventsFile(command.events);
    if (!e) return Fail("referee: " + e.error(), 2);
    events = std::move(*e);
  }
  std::vector<vision::Observation> truth;
  if (!command.truth.empty()) {
    auto t = datasets::ReadObservations(command.truth);
    if (!t) return Fail("referee: " + t.error(), 2);
    truth = std::move(*t);
  }
  auto source = !command.images.empty() ? core::OpenImageFolder(command.images)
                                        : core::OpenVideo(command.camera.empty() ? command.video : command.camera, !command.camera.empty());
  if (!source) return Fail("referee: " + source.error(), 2);
  core::RefereeOptions options = command.options;
  options.rejudge = options.resume && command.camera.empty();  // a video or a folder is judged again from its resume point
  auto session = core::RefereeSession::Start(options, header);
  if (!session) return Fail("referee: " + session.error(), 1);
  core::RefereeSession& s = **session;
  std::printf(
      "Refereeing %s on map %s; the record is %s.\n",
      [&] {
        std::string p;
        for (const auto& name : s.players()) p += (p.empty() ? "" : ", ") + name;
        return p;
      }()
          .c_str(),
      s.game().map().key.c_str(), command.options.record.c_str());
  if (!s.resume_note().empty()) std::printf("Resume: %s.\n", s.resume_note().c_str());
  std::fflush(stdout);
  if (s.journal().closed()) return 0;
  // Notices re-judged on resume were shown before the crash: only a stop is shown again.
  int replayed = 0;
  auto print = [&](const core::Notice& n) {
    if (n.replayed && n.kind != core::NoticeKind::kStopped) return void(++replayed);
    PrintNotice(n, command.quiet);
  };
  core::TruthPlayers players(s, std::move(truth));
  ProgressBar bar("referee");
  auto run = core::RunReferee(
      s, **source, events, [&](const core::Notice& n) { command.truth.empty() ? print(n) : players.OnNotice(n, print); },
      [&](int64_t d, int64_t t) {
        if (t > 0) bar.Update(static_cast<int>(d), static_cast<int>(t));
      });
  bar.Finish();
  if (!run) return Fail("referee: " + run.error(), 1);
  std::printf(
      "\n%lld frames, %lld observed; %d actions committed, %d conquests flagged, %d questions; median %.0f ms from a still "
      "frame to its verdict.\n",
      static_cast<long long>(run->frames), static_cast<long long>(run->observed), run->committed, run->flags, run->questions,
      run->median_latency_ms());
  if (replayed > 0) std::printf("Re-judging after the resume point gave %d notices already in the record (not shown again).\n", replayed);
  if (!command.truth.empty())
    std::printf("The players answered %d questions from the truth, correcting %d region readings.\n", players.questions(),
                players.corrected());
  std::printf("Check the record with `swref verify %s`.\n", command.options.record.c_str());
  return run->stopped ? 1 : 0;
}

int RunCameraDemo(core::CameraDemoOptions options, bool verbose) {
  if (verbose) options.on_notice = [](const core::Notice& n) { PrintNotice(n, false); };
  std::printf("swref demo: a complete 2-player game (seed %llu) played on a synthetic table, watched by the table camera and refereed\n"
              "from its frames: the board is set up and the tokens enrolled from the camera's own photos, then every move is read\n"
              "off the board and judged by the rules.\n\n",
              static_cast<unsigned long long>(options.seed));
  std::string stage;
  std::unique_ptr<ProgressBar> bar;
  auto report = core::RunCameraDemo(options, [&](const std::string& s, int64_t d, int64_t t) {
    if (s != stage) {
      if (bar) bar->Finish();
      stage = s;
      bar = std::make_unique<ProgressBar>(s == "frames" ? "photographing the game" : s == "setup" ? "setting up the table" : "refereeing the frames");
    }
    if (t > 0) bar->Update(static_cast<int>(d), static_cast<int>(t));
  });
  if (bar) bar->Finish();
  if (!report) return Fail("demo: " + report.error(), 1);
  std::printf("%5s  %-6s %-30s %7s %5s %5s %5s %6s\n", "Round", "Player", "Combo", "Regions", "Race", "Power", "Turn", "Coins");
  for (const core::DemoTurn& t : report->turns)
    std::printf("%5d  %-6s %-30s %7d %5d %5d %5d %6d\n", t.round, t.player.c_str(), t.combo.c_str(), t.coins.regions, t.coins.race, t.coins.power,
                t.coins.total(), t.coins_after);
  std::printf("\nIllegal conquests the referee flagged from the board (each taken back by the player):\n");
  for (const core::DemoFlag& f : report->flags) std::printf("  round %d, %s: region %d -> %s: %s\n", f.round, f.player.c_str(), f.region, f.code.c_str(), f.why.c_str());
  std::printf("\nFinal coins:");
  for (const auto& [name, coins] : report->final_coins) std::printf(" %s %d", name.c_str(), coins);
  std::string winners;
  for (const auto& w : report->winners) winners += (winners.empty() ? "" : " and ") + w;
  std::printf(".  %s: %s\n", report->winners.size() > 1 ? "Shared win" : "Winner", winners.c_str());
  std::printf("\n%lld frames, %lld observed (the scene had just become still); median %.0f ms from such a frame to its "
              "verdict; the players answered %d question%s, correcting %d region reading%s.\n",
              static_cast<long long>(report->run.frames), static_cast<long long>(report->run.observed), report->run.median_latency_ms(),
              report->questions, report->questions == 1 ? "" : "s", report->answered, report->answered == 1 ? "" : "s");
  if (report->differences.empty()) {
    std::printf("Every turn's coins, both flags and the final scores equal the script's.\n");
  } else {
    std::printf("The refereed game differs from the script:\n");
    for (const auto& d : report->differences) std::printf("  %s\n", d.c_str());
  }
  if (!report->record.empty()) std::printf("The refereed record is %s: check it with `swref verify %s`.\n", report->record.c_str(), report->record.c_str());
  return report->differences.empty() ? 0 : 1;
}

int RunRefereeBench(const core::RefereeBenchOptions& options, bool json) {
  std::unique_ptr<ProgressBar> bar;
  int current = -1;
  std::string stage;
  auto report = core::RunRefereeBench(options, [&](int game, int games, const std::string& s, int64_t d, int64_t t) {
    if (game != current || s != stage) {
      if (bar) bar->Finish();
      current = game, stage = s;
      const std::string what = s == "frames" ? "photographing" : s == "setup" ? "setting up" : "refereeing";
      bar = std::make_unique<ProgressBar>("game " + std::to_string(game + 1) + "/" + std::to_string(games) + " " + what);
    }
    if (t > 0) bar->Update(static_cast<int>(d), static_cast<int>(t));
  });
  if (bar) bar->Finish();
  if (!report) return Fail("bench referee: " + report.error(), 1);
  const core::RefereeBenchReport& r = *report;
  const int kinds_shown = options.solo_games > 0 ? engine::kIllegalKindCount : engine::kStandardIllegalKindCount;
  if (json) {
    nlohmann::json games = nlohmann::json::array();
    for (const auto& g : r.games)
      games.push_back({{"game", g.name}, {"solo", g.solo}, {"frames", g.frames}, {"flags_expected", g.flags_expected}, {"flags_raised", g.flags_raised},
                       {"flags_matched", g.flags_matched}, {"turns", g.turns}, {"turns_exact", g.turns_exact}, {"questions", g.questions},
                       {"corrections", g.corrections}, {"taken_back", g.taken_back}, {"flags_withdrawn", g.flags_withdrawn}, {"final_coins_equal", g.final_coins_equal}, {"seconds", g.seconds}});
    nlohmann::json kinds = nlohmann::json::object();
    for (int k = 0; k < kinds_shown; ++k)
      kinds[std::string(engine::ToString(static_cast<engine::IllegalKind>(k)))] = {{"expected", r.expected_by_kind[k]}, {"found", r.found_by_kind[k]}};
    nlohmann::json j = {{"bench", "referee"}, {"frame", {options.frame.width, options.frame.height}}, {"games", games},
                        {"precision", r.precision()}, {"recall", r.recall()}, {"flags_expected", r.flags_expected}, {"flags_raised", r.flags_raised},
                        {"flags_matched", r.flags_matched}, {"flags_same_code", r.flags_same_code}, {"by_kind", kinds}, {"turns", r.turns},
                        {"turns_exact", r.turns_exact}, {"questions", r.questions}, {"corrections", r.corrections}, {"frames", r.frames}, {"taken_back", r.taken_back}, {"flags_withdrawn", r.flags_withdrawn},
                        {"latency_median_ms", r.latency_median_ms}, {"latency_p90_ms", r.latency_p90_ms}, {"latency_samples", r.latency_samples}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("%-18s %6s %5s %5s %5s %7s %9s %10s %s\n", "game", "frames", "flags", "found", "extra", "turns", "exact", "questions", "final");
  for (const auto& g : r.games)
    std::printf("%-18s %6d %5d %5d %5d %7d %9d %10d %s  (%.0f s)\n", g.name.c_str(), g.frames, g.flags_expected, g.flags_matched,
                g.flags_raised - g.flags_matched, g.turns, g.turns_exact, g.questions, g.final_coins_equal ? "equal" : "DIFFERS", g.seconds);
  std::printf("\nillegal conquests by kind (found / slipped in):");
  for (int k = 0; k < kinds_shown; ++k)
    std::printf("%s %s %d/%d", k ? "," : "", std::string(engine::ToString(static_cast<engine::IllegalKind>(k))).c_str(), r.found_by_kind[k], r.expected_by_kind[k]);
  std::printf("\nflags: precision %.1f%% (%d of %d raised), recall %.1f%% (%d of %d), the script's rule on %d   goals >= 99%%, >= 95%%\n",
              100 * r.precision(), r.flags_matched, r.flags_raised, 100 * r.recall(), r.flags_matched, r.flags_expected, r.flags_same_code);
  std::printf("coin tallies exact: %d of %d turns (%.1f%%)   goal 100%%\n", r.turns_exact, r.turns, r.turns ? 100.0 * r.turns_exact / r.turns : 100.0);
  std::printf("still frame to verdict: %.0f ms median, %.0f ms p90 over %d verdicts   goal <= 300 ms median\n", r.latency_median_ms, r.latency_p90_ms,
              r.latency_samples);
  std::printf("questions to the players: %d (%d region readings corrected) over %d frames; flags the players said were taken back: %d;\n"
              "flags raised on a misreading and withdrawn when the players corrected it (not counted above): %d\n",
              r.questions, r.corrections, r.frames, r.taken_back, r.flags_withdrawn);
  // Standard and SoloPlay games apart, when both ran (the goals are the standard game's).
  const bool any_solo = std::any_of(r.games.begin(), r.games.end(), [](const core::RefereeBenchGame& g) { return g.solo; });
  const bool any_standard = std::any_of(r.games.begin(), r.games.end(), [](const core::RefereeBenchGame& g) { return !g.solo; });
  for (int solo = 0; solo < 2 && any_solo && any_standard; ++solo) {
    int games = 0, raised = 0, matched = 0, expected = 0, turns = 0, exact = 0, equal = 0;
    for (const auto& g : r.games) {
      if (g.solo != (solo == 1)) continue;
      ++games, raised += g.flags_raised, matched += g.flags_matched, expected += g.flags_expected;
      turns += g.turns, exact += g.turns_exact, equal += g.final_coins_equal;
    }
    auto pct = [](int a, int b) { return b ? 100.0 * a / b : 100.0; };
    std::printf("%s %d game%s: precision %.1f%% (%d/%d), recall %.1f%% (%d/%d), tallies exact %d of %d (%.1f%%), %d as scripted\n",
                solo ? "SoloPlay" : "standard", games, games == 1 ? "" : "s", pct(matched, raised), matched, raised, pct(matched, expected), matched,
                expected, exact, turns, pct(exact, turns), equal);
  }
  return 0;
}

}  // namespace swref::cli
