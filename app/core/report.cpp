#include "app/core/report.h"

#include <fstream>
#include <set>


#include "calibration/image_io.h"
#include "app/core/report_html.h"
#include "app/core/report_tables.h"
#include "app/core/score_chart.h"

namespace swref::core {
namespace {

// Writes `content` to out_dir/name; "" or the error naming the file.
std::string WriteText(const std::filesystem::path& file, const std::string& content) {
  std::ofstream out(file, std::ios::binary);
  out << content;
  out.close();
  return out ? "" : file.string() + ": cannot write the report file";
}

GameFiles FilesOf(const std::string& name, bool tournament) {
  return {name + ".html", name + "-scores.svg", name + "-scores.png", name + "-turns.csv", name + "-flags.csv", name + "-ranking.csv",
          tournament ? "tournament.html" : ""};
}

std::string WriteGame(const GameSummary& game, const GameFiles& files, const std::filesystem::path& dir, std::vector<std::filesystem::path>* written) {
  const ScoreChart chart = ChartOf(game);
  const std::pair<std::string, std::string> texts[] = {{files.page, GameHtml(game, files)}, {files.svg, ChartSvg(chart)},
                                                       {files.turns_csv, TurnsCsv(game)}, {files.flags_csv, FlagsCsv(game)},
                                                       {files.ranking_csv, RankingCsv(game)}};
  for (const auto& [name, text] : texts) {
    if (auto e = WriteText(dir / name, text); !e.empty()) return e;
    written->push_back(dir / name);
  }
  const std::filesystem::path png = dir / files.png;
  bool ok = false;
  try {
    ok = calibration::WriteImageFile(png.string(), ChartImage(chart)).ok();
  } catch (const cv::Exception&) {
    ok = false;
  }
  if (!ok) return png.string() + ": cannot write the chart";
  written->push_back(png);
  return "";
}

}  // namespace

engine::Result<ReportOutput> WriteReports(const std::vector<std::filesystem::path>& records, const std::filesystem::path& out_dir,
                                          ReportFailure* failure) {
  using R = engine::Result<ReportOutput>;
  ReportFailure ignored;
  ReportFailure& why = failure ? *failure : ignored;
  why = ReportFailure::kUnreadable;
  if (records.empty()) return R::Error("no record given");
  ReportOutput output;
  std::set<std::string> names;
  for (const auto& record : records) {  // read and verify every record before writing anything
    bool tampered = false;
    auto game = SummariseRecord(record, &tampered);
    if (!game) {
      why = tampered ? ReportFailure::kTampered : ReportFailure::kUnreadable;
      return R::Error(game.error());
    }
    std::string name = game->name;
    for (int k = 2; !names.insert(name).second; ++k) name = game->name + "-" + std::to_string(k);
    game->name = name;
    output.games.push_back(std::move(*game));
  }
  why = ReportFailure::kWrite;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return R::Error(out_dir.string() + ": cannot create the folder: " + ec.message());
  const bool tournament = output.games.size() > 1;
  std::vector<GameFiles> files;
  for (const GameSummary& game : output.games) {
    files.push_back(FilesOf(game.name, tournament));
    if (auto e = WriteGame(game, files.back(), out_dir, &output.files); !e.empty()) return R::Error(e);
  }
  if (tournament) {
    const std::vector<Standing> standings = Tournament(output.games);
    if (auto e = WriteText(out_dir / "tournament.csv", TournamentCsv(output.games, standings)); !e.empty()) return R::Error(e);
    output.files.push_back(out_dir / "tournament.csv");
    if (auto e = WriteText(out_dir / "tournament.html", TournamentHtml(output.games, files, standings, "tournament.csv")); !e.empty()) return R::Error(e);
    output.files.push_back(out_dir / "tournament.html");
  }
  why = ReportFailure::kNone;
  return output;
}

}  // namespace swref::core
