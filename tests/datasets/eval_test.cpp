#include "datasets/eval.h"

#include <gtest/gtest.h>

#include "engine/json_input.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace swref::datasets {
namespace {

vision::Observation Truth(const std::string& image) {
  engine::Board board(4);
  board[1].owner = 0, board[1].race = 8, board[1].tokens = 3;
  board[2].owner = 1, board[2].race = 1, board[2].tokens = 5, board[2].decline = true;
  board[3].mountain = 1;
  vision::Observation o = vision::FromBoard(board, {false, false, true, false});
  o.image = image;
  return o;
}

TEST(Evaluate, ThePerfectObserverScoresPerfectly) {
  const std::vector<vision::Observation> truth = {Truth("a.jpg"), Truth("b.jpg")};
  const EvalReport r = Evaluate(truth, truth);
  EXPECT_EQ(r.images, 2);
  EXPECT_EQ(r.regions, 8);
  EXPECT_EQ(r.region_errors, 0);
  EXPECT_DOUBLE_EQ(r.exact_rate(), 1.0);
  EXPECT_EQ(r.stacks, 2);
  EXPECT_EQ(r.silent_wrong_stacks, 0);
  EXPECT_EQ(r.confusion.at("ratmen").at("ratmen"), 2);
  EXPECT_EQ(r.confusion.at("dwarves_decline").at("dwarves_decline"), 2);
}

TEST(Evaluate, CountsKindsStacksMotionAndMissingImages) {
  std::vector<vision::Observation> truth = {Truth("a.jpg"), Truth("b.jpg"), Truth("c.jpg"), Truth("m.jpg"), Truth("gone.jpg")};
  truth[3].status = vision::Status::kMotion;
  std::vector<vision::Observation> seen = {Truth("a.jpg"), Truth("b.jpg"), Truth("c.jpg"), Truth("m.jpg")};
  seen[0].regions[1].tokens = 2;                              // a wrong count
  seen[1].regions[1].race = "elves";                          // a wrong kind
  seen[2].regions[2].tokens = 3;                              // an honest lower bound on the stack: right
  seen[2].regions[2].tokens_certain = false;
  seen[3].status = vision::Status::kMotion;
  seen[0].ms = 10, seen[1].ms = 30, seen[2].ms = 20;
  EvalReport r = Evaluate(truth, seen);
  EXPECT_EQ(r.missing, 1);
  EXPECT_EQ(r.images, 3);
  EXPECT_EQ(r.motion_images, 1);
  EXPECT_EQ(r.motion_detected, 1);
  EXPECT_EQ(r.region_errors, 2);
  EXPECT_EQ(r.count_errors, 1);
  EXPECT_EQ(r.boards_exact, 1);
  EXPECT_EQ(r.confusion.at("ratmen").at("elves"), 1);
  EXPECT_DOUBLE_EQ(r.median_ms(), 20);
  // A confident wrong number on a hidden stack is the silent error.
  seen[2].regions[2].tokens_certain = true;
  r = Evaluate(truth, seen);
  EXPECT_EQ(r.silent_wrong_stacks, 1);
  EXPECT_NE(FormatReport(r).find("silent wrong counts on stacks 1"), std::string::npos);
}

TEST(ReadObservations, NamesTheFileAndLineOfABadLine) {
  const std::string path = std::filesystem::temp_directory_path() / ("swref_obs_" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(path) << vision::ToJson(Truth("a.jpg")).dump() << "\n" << "{oops\n";
  auto r = ReadObservations(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), path + ":2: not valid JSON");
  std::filesystem::remove(path);
  EXPECT_EQ(ReadObservations("/nonexistent/o.jsonl").error(), "/nonexistent/o.jsonl: cannot open the observations file (no such file)");
}

// The limits of an observations file (docs/architecture.md, Limits): nesting, and the length of a line.
TEST(ReadObservations, EnforcesTheLimits) {
  const std::string path = std::filesystem::temp_directory_path() / ("swref_obslim_" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(path) << "{\"image\": " << std::string(100000, '[') << std::string(100000, ']') << "}\n";
  EXPECT_EQ(ReadObservations(path).error(), path + ":1: JSON nested deeper than 64 levels");
  std::ofstream(path) << vision::ToJson(Truth("a.jpg")).dump() << "\n\"" << std::string(engine::kMaxJsonLineBytes, 'x') << "\"\n";
  EXPECT_EQ(ReadObservations(path).error(), path + ":2: a line longer than the limit of 4194304 bytes");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace swref::datasets
