#include "vision/observation.h"

#include <gtest/gtest.h>

#include "engine/components.h"
#include "engine/map.h"

namespace swref::vision {
namespace {

engine::Board SampleBoard() {
  engine::Board board(5);
  board[1].owner = 0, board[1].race = static_cast<int8_t>(engine::Race::kRatmen), board[1].tokens = 4, board[1].mountain = 1;
  board[2].lost_tribe = 1;
  board[3].owner = 1, board[3].race = static_cast<int8_t>(engine::Race::kTrolls), board[3].tokens = 2, board[3].decline = true;
  board[3].troll_lair = 1;
  board[4].mountain = 1;
  return board;
}

TEST(Observation, FromBoardListsEveryRegionWithItsContents) {
  const Observation obs = FromBoard(SampleBoard(), {false, true});
  ASSERT_EQ(obs.regions.size(), 5u);
  EXPECT_FALSE(obs.regions[0].race.has_value());
  EXPECT_EQ(obs.regions[0].tokens, 0);
  EXPECT_EQ(*obs.regions[1].race, "ratmen");
  EXPECT_EQ(obs.regions[1].tokens, 4);
  EXPECT_FALSE(obs.regions[1].tokens_certain);
  EXPECT_EQ(obs.regions[1].pieces.at("mountain"), 1);
  EXPECT_EQ(obs.regions[2].lost_tribe, 1);
  EXPECT_TRUE(obs.regions[3].decline);
  EXPECT_EQ(obs.regions[3].pieces.at("troll_lair"), 1);
  EXPECT_TRUE(obs.regions[3].tokens_certain);
}

TEST(Observation, JsonRoundTripKeepsEverythingInTheDocumentedOrder) {
  Observation obs = FromBoard(SampleBoard());
  obs.image = "f001.jpg";
  obs.ms = 11.84;
  const auto doc = ToJson(obs);
  const std::string text = doc.dump();
  EXPECT_LT(text.find("\"image\""), text.find("\"status\""));
  EXPECT_LT(text.find("\"status\""), text.find("\"ms\""));
  EXPECT_NE(text.find("\"race\":null"), std::string::npos);
  auto back = ParseObservation(nlohmann::json::parse(text), "line 1");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->image, "f001.jpg");
  EXPECT_NEAR(*back->ms, 11.8, 1e-9);
  ASSERT_EQ(back->regions.size(), obs.regions.size());
  for (size_t i = 0; i < obs.regions.size(); ++i) EXPECT_EQ(back->regions[i], obs.regions[i]) << "region " << i;
}

TEST(Observation, ParseErrorsNameTheField) {
  auto doc = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "race": "elfs", "tokens": 1}]})");
  auto r = ParseObservation(doc, "truth.jsonl:3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "truth.jsonl:3.regions[0].race: expected a race id or null");
  doc = nlohmann::json::parse(R"({"image": "a.jpg", "status": "blurry", "regions": []})");
  EXPECT_NE(ParseObservation(doc, "x").error().find("x.status: unknown status"), std::string::npos);
  doc = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 1, "pieces": {"castle": 1}}]})");
  EXPECT_EQ(ParseObservation(doc, "x").error(), "x.regions[0].pieces.castle: unknown piece");
  doc = nlohmann::json::parse(R"({"status": "ok", "regions": []})");
  EXPECT_EQ(ParseObservation(doc, "x").error(), "x: missing \"image\"");
}

// Integers were read with nlohmann's get<int>, which casts a float (1e300) or a large integer without a check:
// undefined behaviour, or a silently wrapped count.
TEST(Observation, RejectsNumbersOutOfRange) {
  const char* lines[] = {
      R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 1e300, "tokens": 1}]})",
      R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 4294967297}]})",
      R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 1, "lost_tribe": -1e300}]})",
  };
  const char* errors[] = {"x.regions[0].id: expected an integer", "x.regions[0].tokens: expected an integer",
                          "x.regions[0].lost_tribe: expected an integer"};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ParseObservation(nlohmann::json::parse(lines[i]), "x").error(), errors[i]);
  auto pieces = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 0, "pieces": {"hero": 4294967297}}]})");
  EXPECT_EQ(ParseObservation(pieces, "x").error(), "x.regions[0].pieces.hero: expected a count >= 0");
  nlohmann::json many = {{"image", "a.jpg"}, {"status", "ok"}, {"regions", nlohmann::json::array()}};
  for (int i = 0; i <= engine::kMaxRegions; ++i) many["regions"].push_back({{"id", i}, {"tokens", 0}});
  EXPECT_EQ(ParseObservation(many, "x").error(), "x.regions: more than 250 regions");
}

// Found by the `observation` fuzz target (435,791 inputs in): a confidence of 1.3333333333333333 was read as is and
// written to 3 decimals, so the line did not read back the same; 5.99 was accepted. Now a confidence is a share
// from 0 to 1, read at the precision it is written.
TEST(Observation, AConfidenceIsAShareReadAsWritten) {
  auto out_of_range = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 0, "confidence": 5.99}]})");
  EXPECT_EQ(ParseObservation(out_of_range, "x").error(), "x.regions[0].confidence: expected a number from 0 to 1");
  auto negative = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 0, "confidence": -0.1}]})");
  EXPECT_EQ(ParseObservation(negative, "x").error(), "x.regions[0].confidence: expected a number from 0 to 1");
  auto fine = nlohmann::json::parse(R"({"image": "a.jpg", "status": "ok", "regions": [{"id": 0, "tokens": 0, "confidence": 0.33333333}]})");
  auto read = ParseObservation(fine, "x");
  ASSERT_TRUE(read.ok()) << read.error();
  auto again = ParseObservation(nlohmann::json::parse(ToJson(*read).dump()), "again");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->regions, read->regions);
  EXPECT_DOUBLE_EQ(read->regions[0].confidence, 0.333);
}

}  // namespace
}  // namespace swref::vision
