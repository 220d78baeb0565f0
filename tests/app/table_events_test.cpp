// The players' events (app/core/table_events.h): what each line may say, and errors that name the line and field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/core/table_events.h"

namespace swref::core {
namespace {

using nlohmann::json;

TEST(TableEvents, ParsesEveryKind) {
  auto pick = ParseTableEvent(json{{"after_frame", 3}, {"player", "Ann"}, {"do", "pick"}, {"slot", 2}}, "e");
  ASSERT_TRUE(pick) << pick.error();
  EXPECT_EQ(pick->type, EventType::kAction);
  EXPECT_EQ(pick->after_frame, 3);
  EXPECT_FALSE(pick->body.contains("after_frame"));  // the record's `event` entry holds what was told
  auto die = ParseTableEvent(json{{"player", "Ann"}, {"do", "die"}, {"face", 2}}, "e");
  ASSERT_TRUE(die);
  EXPECT_EQ(die->face, 2);
  EXPECT_EQ(die->after_frame, -1);
  EXPECT_EQ(ParseTableEvent(json{{"do", "accept"}, {"note", "fine"}}, "e")->note, "fine");
  EXPECT_EQ(ParseTableEvent(json{{"do", "take_back"}}, "e")->type, EventType::kTakeBack);
  EXPECT_EQ(ParseTableEvent(json{{"do", "answer"}, {"option", 1}}, "e")->option, 1);
  EXPECT_EQ(ParseTableEvent(json{{"do", "undo"}, {"reason", "misplaced"}}, "e")->note, "misplaced");
}

TEST(TableEvents, CorrectionsOfOneOrSeveralRegions) {
  auto one = ParseTableEvent(json{{"do", "correct"}, {"region", 5}, {"tokens", 3}}, "e");
  ASSERT_TRUE(one) << one.error();
  ASSERT_EQ(one->corrections.size(), 1u);
  EXPECT_EQ(one->corrections[0]["region"], 5);
  auto several = ParseTableEvent(json::parse(R"({"do": "correct", "regions": [{"region": 5, "tokens": 3}, {"region": 9, "race": null}]})"), "e");
  ASSERT_TRUE(several) << several.error();
  EXPECT_EQ(several->corrections.size(), 2u);
}

TEST(TableEvents, ErrorsNameTheField) {
  auto error = [](const json& doc) { return ParseTableEvent(doc, "events.jsonl:7").error(); };
  EXPECT_EQ(error(json::array()), "events.jsonl:7: expected an object, got []");
  EXPECT_EQ(error(json{{"player", "Ann"}}), "events.jsonl:7.do: missing (pick, die, end_turn, accept, answer, ...)");
  EXPECT_EQ(error(json{{"do", "fly"}}), "events.jsonl:7.do: unknown event \"fly\" (pick, decline, ally, end_turn, die, accept, take_back, answer, correct, undo)");
  EXPECT_EQ(error(json{{"do", "pick"}}), "events.jsonl:7.player: missing (whose pick it is)");
  EXPECT_EQ(error(json{{"do", "die"}, {"player", "Ann"}, {"face", 5}}), "events.jsonl:7.face: expected 0, 1, 2 or 3 (the die's faces are 0, 0, 0, 1, 2, 3)");
  EXPECT_EQ(error(json{{"do", "answer"}, {"option", -1}}), "events.jsonl:7.option: expected the number of the option chosen (0, 1, ...)");
  EXPECT_EQ(error(json{{"do", "undo"}}), "events.jsonl:7.reason: say why the last action is taken out");
  EXPECT_EQ(error(json{{"after_frame", "x"}, {"do", "take_back"}}), "events.jsonl:7.after_frame: expected an integer >= -1, got \"x\"");
  EXPECT_EQ(error(json{{"do", "correct"}, {"region", 5}}), "events.jsonl:7: say what the region holds (race, decline, tokens, lost_tribe, pieces)");
  EXPECT_EQ(error(json{{"do", "correct"}, {"region", 5}, {"race", 3}}), "events.jsonl:7.race: expected a race id or null");
  EXPECT_EQ(error(json{{"do", "correct"}, {"region", 5}, {"tokens", 1e300}}), "events.jsonl:7.tokens: expected an integer from 0 to 255");
  EXPECT_EQ(error(json::parse(R"({"do": "correct", "regions": [{"region": 1, "tokens": 1}, {"tokens": 2}]})")),
            "events.jsonl:7.regions[1].region: expected the region's id");
  EXPECT_EQ(error(json{{"do", "correct"}, {"regions", json::array()}}), "events.jsonl:7.regions: expected a list of corrections [{\"region\": id, ...}, ...]");
}

TEST(TableEvents, FileErrorsNameTheLine) {
  const auto dir = std::filesystem::temp_directory_path() / ("swref-events-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "events.jsonl").string();
  auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("{\"after_frame\": 4, \"do\": \"take_back\"}\n\n{\"after_frame\": 2, \"do\": \"take_back\"}\n");
  EXPECT_EQ(ReadEventsFile(path).error(), path + ":3.after_frame: 2 comes before the previous event's 4 (events must be in the order they were told)");
  write("{\"do\": \"take_back\"}\n{oops\n");
  EXPECT_EQ(ReadEventsFile(path).error(), path + ":2: not valid JSON");
  write("{\"after_frame\": 1, \"player\": \"Ann\", \"do\": \"end_turn\"}\n");
  auto ok = ReadEventsFile(path);
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->size(), 1u);
  EXPECT_NE(ReadEventsFile((dir / "missing.jsonl").string()).error().find("cannot open the events file"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// The documented limits (docs/architecture.md, "Limits on outside input"): the file's size before it is read, the
// number of events, a line's nesting before it is parsed; each an error naming the file (and line) and the limit.
TEST(TableEvents, EnforcesTheLimits) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("swref-events-limits-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "events.jsonl").string();
  {
    std::ofstream out(path);
    const std::string line = "{\"after_frame\": 1, \"do\": \"take_back\"}\n";
    for (uintmax_t written = 0; written <= kMaxEventsFileBytes; written += line.size()) out << line;
  }
  EXPECT_NE(ReadEventsFile(path).error().find(path + ": the events file is "), std::string::npos);
  EXPECT_NE(ReadEventsFile(path).error().find("bytes, more than the limit of 16777216 bytes"), std::string::npos)
      << ReadEventsFile(path).error();
  {
    std::ofstream out(path);
    for (size_t i = 0; i <= kMaxEvents; ++i) out << "{\"do\":\"take_back\"}\n";
  }
  EXPECT_EQ(ReadEventsFile(path).error(), path + ":100001: more than 100000 events");
  std::ofstream(path) << "{\"do\": \"take_back\"}\n{\"do\": \"correct\", \"region\": " << std::string(100000, '[')
                      << std::string(100000, ']') << "}\n";
  EXPECT_EQ(ReadEventsFile(path).error(), path + ":2: JSON nested deeper than 64 levels");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace swref::core
