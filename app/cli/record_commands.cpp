#include "app/cli/record_commands.h"

#include <cstdio>
#include <iostream>

#include "app/cli/output.h"
#include "app/core/report.h"
#include "app/core/verify.h"

namespace swref::cli {
namespace {

void PrintScores(const engine::ReplayResult& replay) {
  const engine::Game& game = replay.game;
  int rejected = 0;
  for (size_t i = 0; i < replay.steps.size(); ++i)
    rejected += !replay.steps[i].ok() && !(i < replay.house_ruled.size() && replay.house_ruled[i]);
  std::printf("Replayed %zu actions (%d rejected by the rules): %s.\n", replay.steps.size(), rejected,
              game.finished() ? ("the game finished after round " + std::to_string(game.round())).c_str()
                              : ("the game is in round " + std::to_string(game.round()) + ", not finished").c_str());
  std::printf("Final scores:");
  for (size_t p = 0; p < game.players().size(); ++p)
    std::printf("%s %s %d", p ? "," : "", game.players()[p].name.c_str(), game.players()[p].coins);
  std::printf(".\n");
  if (game.solo()) {
    std::printf("Solo score %d (the opposition scored %d)", game.SoloScore(), game.solo()->OppositionTotal());
    if (game.finished()) std::printf(", rating: %s", std::string(engine::ToString(game.SoloRating())).c_str());
    std::printf(".\n");
    return;
  }
  const std::vector<int> winners = game.Winners();
  if (winners.empty()) return;
  std::printf("%s:", winners.size() > 1 ? "Shared win" : "Winner");
  for (size_t i = 0; i < winners.size(); ++i) std::printf("%s %s", i ? " and" : "", game.players()[winners[i]].name.c_str());
  std::printf(".\n");
}

}  // namespace

int RunVerify(const std::string& record) {
  auto v = core::VerifyRecordFile(record);
  if (!v) return Fail("verify: " + v.error(), 2);
  if (v->integrity == core::Integrity::kTampered) return Fail("verify: " + record + ": " + v->problem, 1);
  if (v->integrity == core::Integrity::kNoChain) {
    std::printf("%s: no hash chain: the record has no journal, so nothing proves it was not edited (exit 3).\n", record.c_str());
  } else {
    std::printf("%s: verified. The hash chain of %d journal entries is intact from the header to the head;\n"
                "record.actions matches the journal, and the replay agrees with every recorded verdict, flag and tally.\n"
                "Head: %s\n",
                record.c_str(), v->entries, v->head_hash.c_str());
  }
  PrintScores(*v->replay);
  return v->integrity == core::Integrity::kVerified ? 0 : 3;
}

int RunReport(const std::vector<std::string>& records, const std::string& out) {
  std::vector<std::filesystem::path> paths(records.begin(), records.end());
  core::ReportFailure failure;
  auto report = core::WriteReports(paths, out, &failure);
  if (!report) return Fail("report: " + report.error(), failure == core::ReportFailure::kUnreadable ? 2 : 1);
  std::printf("Wrote %zu files to %s:\n", report->files.size(), out.c_str());
  for (const auto& f : report->files) std::printf("  %s\n", f.filename().string().c_str());
  const std::string start = report->games.size() > 1 ? "tournament.html" : report->games[0].name + ".html";
  std::printf("Open %s in a browser.\n", (std::filesystem::path(out) / start).string().c_str());
  return 0;
}

}  // namespace swref::cli
