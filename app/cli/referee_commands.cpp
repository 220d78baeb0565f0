#include "app/cli/referee_commands.h"

#include <cstdio>
#include <iostream>

#include "app/cli/progress.h"
#include "app/core/referee_run.h"

namespace swref::cli {
namespace {

int Fail(const std::string& message, int code) {
  std::cerr << "swref: " << message << "\n";
  return code;
}

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
  auto source = !command.images.empty() ? core::OpenImageFolder(command.images)
                                        : core::OpenVideo(command.camera.empty() ? command.video : command.camera, !command.camera.empty());
  if (!source) return Fail("referee: " + source.error(), 2);
  auto session = core::RefereeSession::Start(command.options, header);
  if (!session) return Fail("referee: " + session.error(), 1);
  std::printf("Refereeing %s on map %s; the record is %s.\n", [&] {
    std::string p;
    for (const auto& name : (*session)->players()) p += (p.empty() ? "" : ", ") + name;
    return p;
  }().c_str(), (*session)->game().map().key.c_str(), command.options.record.c_str());
  std::fflush(stdout);
  ProgressBar bar("referee");
  auto run = core::RunReferee(**session, **source, events, [&](const core::Notice& n) { PrintNotice(n, command.quiet); },
                              [&](int64_t d, int64_t t) {
                                if (t > 0) bar.Update(static_cast<int>(d), static_cast<int>(t));
                              });
  bar.Finish();
  if (!run) return Fail("referee: " + run.error(), 1);
  std::printf("\n%lld frames, %lld observed in full; %d actions committed, %d conquests flagged, %d questions; median %.0f ms from a still "
              "frame to its verdict.\n",
              static_cast<long long>(run->frames), static_cast<long long>(run->observed), run->committed, run->flags, run->questions,
              run->median_latency_ms());
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
  std::printf("\n%lld frames, %lld observed in full (the scene had just become still); median %.0f ms from such a frame to its "
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

}  // namespace swref::cli
