// The observed board (engine/observed.h): a perfect reading of an engine board, lower bounds, the Observation JSON.
#include <gtest/gtest.h>

#include "engine/observed.h"

namespace swref::engine {
namespace {

using nlohmann::json;

Board SmallBoard() {
  Board board(3);
  board[0].owner = 0, board[0].race = static_cast<int8_t>(Race::kRatmen), board[0].tokens = 4, board[0].mountain = 1;
  board[1].lost_tribe = 1;
  board[2].owner = 1, board[2].race = static_cast<int8_t>(Race::kTrolls), board[2].decline = true, board[2].tokens = 1;
  board[2].troll_lair = 1;
  return board;
}

TEST(ObservedBoard, PerfectReadingOfABoard) {
  const ObservedBoard seen = ObserveBoard(SmallBoard());
  ASSERT_EQ(seen.size(), 3);
  EXPECT_EQ(seen.regions[0].race, Race::kRatmen);
  EXPECT_EQ(seen.regions[0].tokens, 4);
  EXPECT_EQ(seen.regions[0].mountain, 1);
  EXPECT_FALSE(seen.regions[1].race.has_value());
  EXPECT_EQ(seen.regions[1].lost_tribe, 1);
  EXPECT_TRUE(seen.regions[2].decline);
  EXPECT_EQ(seen.regions[2].Count(Piece::kTrollLair), 1);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(ReadsAs(SmallBoard()[i], seen.regions[i]));
}

TEST(ObservedBoard, UncertainCountIsALowerBound) {
  const Board board = SmallBoard();
  ObservedRegion seen = ObserveRegion(board[0]);
  seen.tokens = 2;
  EXPECT_FALSE(ReadsAs(board[0], seen));
  seen.tokens_certain = false;
  EXPECT_TRUE(ReadsAs(board[0], seen));  // at least 2: 4 fits
  seen.tokens = 5;
  EXPECT_FALSE(ReadsAs(board[0], seen));  // at least 5: 4 does not
}

TEST(ObservedBoard, Roundtrip) {
  ObservedBoard seen = ObserveBoard(SmallBoard());
  seen.regions[0].tokens_certain = false;
  seen.regions[2].uncertain = true;
  const json doc = {{"image", "f1.jpg"}, {"status", "ok"}, {"regions", json::parse(ToJson(seen).dump())}};
  auto back = ParseObservedBoard(doc, 3, "obs");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->regions, seen.regions);
}

TEST(ObservedBoard, ReadsTheObservationFormat) {
  const json doc = json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [
    {"id": 1, "race": null, "decline": false, "tokens": 0, "tokens_certain": true, "pieces": {}, "lost_tribe": 1, "confidence": 0.9},
    {"id": 0, "race": "ratmen", "decline": false, "tokens": 3, "tokens_certain": false, "pieces": {"mountain": 1}, "lost_tribe": 0, "confidence": 0.4}]})");
  auto seen = ParseObservedBoard(doc, 2, "obs");
  ASSERT_TRUE(seen.ok()) << seen.error();
  EXPECT_EQ(seen->regions[0].race, Race::kRatmen);
  EXPECT_FALSE(seen->regions[0].tokens_certain);
  EXPECT_TRUE(seen->regions[0].uncertain);  // confidence 0.4 < 0.55
  EXPECT_EQ(seen->regions[0].mountain, 1);
  EXPECT_EQ(seen->regions[1].lost_tribe, 1);
  EXPECT_FALSE(seen->regions[1].uncertain);
}

TEST(ObservedBoard, RejectsBadObservations) {
  auto parse = [](const std::string& text, int n) { return ParseObservedBoard(json::parse(text), n, "obs"); };
  EXPECT_EQ(parse(R"({"status": "motion", "regions": []})", 0).error(), "obs.status: \"motion\": only a still board (\"ok\") can be explained");
  EXPECT_EQ(parse(R"([{"id": 0}])", 2).error(), "obs: region 1 is missing (every region of the map is listed)");
  EXPECT_EQ(parse(R"([{"id": 0}, {"id": 0}])", 2).error(), "obs[1].id: region 0 is listed twice");
  EXPECT_EQ(parse(R"([{"id": 5}])", 2).error(), "obs[0].id: 5 is not a region of the map (0..1)");
  EXPECT_EQ(parse(R"([{"id": 0, "race": "hobbits"}])", 1).error(), "obs[0].race: expected a race id or null");
  EXPECT_EQ(parse(R"([{"id": 0, "tokens": -1}])", 1).error(), "obs[0].tokens: expected an integer from 0 to 255");
  EXPECT_EQ(parse(R"([{"id": 0, "pieces": {"castle": 1}}])", 1).error(), "obs[0].pieces.castle: unknown piece");
  EXPECT_EQ(parse(R"([{"id": 0, "race": null, "tokens": 2}])", 1).error(), "obs[0].tokens: 2 race tokens but no race");
}

TEST(ObservedBoard, CorrectRegionReplacesTheFieldsGiven) {
  ObservedRegion seen;
  seen.race = Race::kElves, seen.decline = true, seen.tokens = 3, seen.tokens_certain = false, seen.uncertain = true;
  auto r = CorrectRegion(seen, {{"race", "trolls"}, {"tokens", 1}, {"pieces", {{"troll_lair", 1}}}}, "event");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->race, Race::kTrolls);
  EXPECT_TRUE(r->decline);  // not given: kept
  EXPECT_EQ(r->tokens, 1);
  EXPECT_EQ(r->troll_lair, 1);
  EXPECT_TRUE(r->tokens_certain);
  EXPECT_FALSE(r->uncertain);
  // Clearing the race clears its tokens.
  auto empty = CorrectRegion(seen, {{"race", nullptr}}, "event");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->race.has_value());
  EXPECT_EQ(empty->tokens, 0);
}

TEST(ObservedBoard, CorrectRegionNamesTheBadField) {
  const ObservedRegion seen;
  EXPECT_EQ(CorrectRegion(seen, {{"race", "gnomes"}}, "events.jsonl:4").error(), "events.jsonl:4.race: expected a race id or null");
  EXPECT_EQ(CorrectRegion(seen, {{"tokens", -1}}, "e").error(), "e.tokens: expected an integer from 0 to 255");
  EXPECT_EQ(CorrectRegion(seen, {{"tokens", 2}}, "e").error(), "e.tokens: 2 race tokens but no race");
  EXPECT_EQ(CorrectRegion(seen, {{"pieces", {{"castle", 1}}}}, "e").error(), "e.pieces.castle: unknown piece");
  EXPECT_EQ(CorrectRegion(seen, {{"decline", 1}}, "e").error(), "e.decline: expected true or false");
}

}  // namespace
}  // namespace swref::engine
