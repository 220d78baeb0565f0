// swref report (app/core/report*.h, score_chart.h): the summary of a record with and without a journal, the
// files written, the chart in both forms, the CSV tables and the tournament standings.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/test_images.h"

#include "app/core/journal_import.h"
#include "app/core/report.h"
#include "app/core/report_tables.h"
#include "app/core/score_chart.h"
#include "engine/replay.h"
#include "journal_fixture.h"

namespace swref::core {
namespace {

std::string ReadFileText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int Lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

const std::string kFirstGame = std::string(SWREF_SOURCE_DIR) + "/examples/first-game.json";

TEST(SummariseRecord, ARefereedRecord) {
  testing::TempDir dir;
  JournalOptions fast;
  fast.write = testing::FastReplace;
  testing::RefereedGame game;
  testing::RefereeInjectedGame(dir / "night.json", "2p", 5, fast, &game);
  auto s = SummariseRecord(dir / "night.json");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->integrity, Integrity::kVerified);
  EXPECT_EQ(s->name, "night");
  auto replay = engine::Replay(game.injected.record, ".");
  ASSERT_TRUE(replay.ok());
  const engine::Game& truth = replay->game;
  ASSERT_EQ(s->turns.size(), truth.scores().size());  // undone actions leave no turn behind
  for (size_t t = 0; t < s->turns.size(); ++t) EXPECT_EQ(s->turns[t].coins.total(), truth.scores()[t].coins.total()) << t;
  for (int p = 0; p < 2; ++p) EXPECT_EQ(s->turns.back().holdings[p], truth.players()[p].coins);
  ASSERT_EQ(static_cast<int>(s->flags.size()), game.flags);
  for (const FlagRow& f : s->flags) {
    EXPECT_EQ(f.resolution, "taken back");
    EXPECT_GE(f.entry, 0);
    EXPECT_FALSE(f.code.empty());
  }
  EXPECT_TRUE(s->finished);
  ASSERT_EQ(s->ranking.size(), 2u);
  EXPECT_GE(s->ranking[0].coins, s->ranking[1].coins);
  EXPECT_EQ(s->ranking[0].winner, !s->winners.empty() && s->winners[0] == s->ranking[0].player);
}

TEST(SummariseRecord, ARecordWithoutAJournal) {
  auto s = SummariseRecord(kFirstGame);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->integrity, Integrity::kNoChain);
  ASSERT_EQ(s->flags.size(), 2u);
  EXPECT_EQ(s->flags[0].code, "not_adjacent");
  EXPECT_EQ(s->flags[0].step, 4);
  EXPECT_EQ(s->flags[0].resolution, "rejected");
  EXPECT_EQ(s->flags[1].why, "region 13 needs 6 tokens: 2 + 4 defending tokens; 3 placed");
  ASSERT_EQ(s->turns.size(), 4u);
  EXPECT_EQ(s->turns[0].player, "Ann");
  EXPECT_EQ(s->turns[0].coins.total(), 8);
  EXPECT_EQ(s->ranking[0].player, "Ann");
  EXPECT_EQ(s->ranking[0].coins, 25);
  EXPECT_FALSE(s->finished);
}

TEST(SummariseRecord, AHouseRulingShowsAsSuch) {
  testing::TempDir dir;
  auto demo = engine::ParseRecord(nlohmann::json::parse(ReadFileText(kFirstGame)));
  ASSERT_TRUE(demo.ok());
  demo->actions[4].house_ruling = true;  // let the non-adjacent conquest stand
  auto j = JournalRecord(*demo, dir / "house.json", nlohmann::json::object());
  ASSERT_TRUE(j.ok()) << j.error();
  auto s = SummariseRecord(dir / "house.json");
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_FALSE(s->flags.empty());
  EXPECT_EQ(s->flags[0].resolution, "house ruling");
  EXPECT_EQ(s->flags[0].note, "accepted by the players");
}

TEST(WriteReports, OneRecordEveryFile) {
  testing::TempDir dir;
  ReportFailure failure;
  auto out = WriteReports({kFirstGame}, dir / "out", &failure);
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_EQ(failure, ReportFailure::kNone);
  EXPECT_EQ(out->files.size(), 6u);
  for (const char* f : {"first-game.html", "first-game-scores.svg", "first-game-scores.png", "first-game-turns.csv", "first-game-flags.csv",
                        "first-game-ranking.csv"})
    EXPECT_TRUE(std::filesystem::exists(dir / "out" / f)) << f;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "tournament.html"));
  const cv::Mat png = swref::test::LoadImage((dir / "out" / "first-game-scores.png").string());
  ASSERT_FALSE(png.empty());
  EXPECT_EQ(png.cols, 1440);
  EXPECT_EQ(png.rows, 810);
  const std::string turns = ReadFileText(dir / "out" / "first-game-turns.csv");
  EXPECT_EQ(Lines(turns), 5);
  EXPECT_EQ(turns.substr(0, turns.find('\r')), "round,player,combo,regions,race,power,turn,coins Ann,coins Bob");
  const std::string flags = ReadFileText(dir / "out" / "first-game-flags.csv");
  EXPECT_NE(flags.find(",region 13 needs 6 tokens: 2 + 4 defending tokens; 3 placed,"), std::string::npos) << flags;  // no comma: no quotes
  EXPECT_NE(flags.find(",\"conquer region 13, 3 tokens\","), std::string::npos) << flags;                            // a comma: quoted
  const std::string html = ReadFileText(dir / "out" / "first-game.html");
  EXPECT_NE(html.find("No hash chain"), std::string::npos);
  EXPECT_NE(html.find("first-game-scores.svg"), std::string::npos);
}

TEST(WriteReports, ATournamentOfThreeGames) {
  testing::TempDir dir;
  std::ofstream(dir / "a.json") << ReadFileText(kFirstGame);
  std::filesystem::create_directory(dir / "x");
  std::ofstream(dir / "x" / "a.json") << ReadFileText(kFirstGame);
  auto out = WriteReports({kFirstGame, dir / "a.json", dir / "x" / "a.json"}, dir / "out");
  ASSERT_TRUE(out.ok()) << out.error();
  EXPECT_EQ(out->games[1].name, "a");
  EXPECT_EQ(out->games[2].name, "a-2");
  EXPECT_EQ(out->files.size(), 3 * 6u + 2);
  const std::string csv = ReadFileText(dir / "out" / "tournament.csv");
  EXPECT_EQ(Lines(csv), 3);
  EXPECT_NE(csv.find("1,Ann,3,0,75,1.00,1,25,1,25,1,25"), std::string::npos) << csv;
  EXPECT_NE(ReadFileText(dir / "out" / "tournament.html").find("a-2.html"), std::string::npos);
}

TEST(WriteReports, RefusesATamperedRecordAndWritesNothing) {
  testing::TempDir dir;
  auto record = engine::ParseRecord(nlohmann::json::parse(ReadFileText(kFirstGame)));
  ASSERT_TRUE(JournalRecord(*record, dir / "j.json", nlohmann::json::object()).ok());
  std::string text = ReadFileText(dir / "j.json");
  text.replace(text.find("\"seed\": 7"), 9, "\"seed\": 8");
  std::ofstream(dir / "j.json", std::ios::binary) << text;
  ReportFailure failure;
  auto out = WriteReports({kFirstGame, dir / "j.json"}, dir / "out", &failure);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(failure, ReportFailure::kTampered);
  EXPECT_NE(out.error().find("record header: its hash does not match journal[0].prev"), std::string::npos) << out.error();
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  EXPECT_FALSE(WriteReports({dir / "none.json"}, dir / "out", &failure).ok());
  EXPECT_EQ(failure, ReportFailure::kUnreadable);
}

TEST(Tournament, OrdersByWinsThenCoins) {
  GameSummary a, b;
  a.name = "a", b.name = "b";
  a.ranking = {{1, "Cy", 80, 10, true}, {2, "Ann", 70, 9, false}, {2, "Bob", 70, 9, false}};
  b.ranking = {{1, "Ann", 60, 8, true}, {2, "Dee", 50, 8, false}};
  const auto s = Tournament({a, b});
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].player, "Ann");  // 1 win, 130 coins
  EXPECT_EQ(s[1].player, "Cy");   // 1 win, 80 coins
  EXPECT_EQ(s[0].ranks, (std::vector<int>{2, 1}));
  EXPECT_DOUBLE_EQ(s[0].mean_rank, 1.5);
  EXPECT_EQ(s[3].player, "Dee");
  EXPECT_EQ(s[3].ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(Ordinal(1) + Ordinal(2) + Ordinal(3) + Ordinal(11) + Ordinal(22), "1st2nd3rd11th22nd");
}

TEST(ScoreChart, SvgAndPngDrawTheSameChart) {
  auto s = SummariseRecord(kFirstGame);
  ASSERT_TRUE(s.ok());
  const ScoreChart chart = ChartOf(*s);
  ASSERT_EQ(chart.coins.size(), 2u);
  EXPECT_EQ(chart.coins[0].size(), s->turns.size() + 1);
  EXPECT_EQ(chart.coins[0].front(), 5);
  EXPECT_EQ(chart.coins[0].back(), 25);
  const std::string svg = ChartSvg(chart);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find(">Ann</text>"), std::string::npos);
  size_t polylines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  EXPECT_EQ(polylines, 2u);
  const cv::Mat image = ChartImage(chart);
  EXPECT_EQ(image.size(), cv::Size(1440, 810));
  // Ann's line (the first palette colour, blue) is drawn: some pixels are close to it.
  int blue = 0;
  for (int y = 0; y < image.rows; ++y)
    for (int x = 0; x < image.cols; ++x) {
      const cv::Vec3b p = image.at<cv::Vec3b>(y, x);
      blue += std::abs(p[0] - 178) < 20 && std::abs(p[1] - 114) < 20 && p[2] < 30;
    }
  EXPECT_GT(blue, 500);
}

}  // namespace
}  // namespace swref::core
