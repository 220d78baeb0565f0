#include <gtest/gtest.h>

#include "app/core/calibrate.h"
#include "app/core/demo.h"
#include "app/core/engine_bench.h"
#include "app/core/frame_source.h"
#include "app/core/hash.h"
#include "app/core/play.h"
#include "app/core/synthetic.h"

#include <filesystem>
#include <functional>
#include <fstream>
#include <unistd.h>


namespace swref::core {
namespace {

TEST(Sha256Hex, KnownVector) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ReplayRecordFile, TheShippedExample) {
  auto replay = ReplayRecordFile(std::string(SWREF_SOURCE_DIR) + "/examples/first-game.json");
  ASSERT_TRUE(replay.ok()) << replay.error();
  const auto doc = engine::PlayDocument(*replay);
  EXPECT_EQ(doc["final"]["coins"]["Ann"], 25);
  EXPECT_EQ(doc["final"]["coins"]["Bob"], 12);
  EXPECT_EQ(doc["steps"][4]["code"], "not_adjacent");
  EXPECT_EQ(doc["steps"][12]["code"], "not_enough_tokens");
  EXPECT_EQ(doc["steps"][12]["why"], "region 13 needs 6 tokens: 2 + 4 defending tokens; 3 placed");
  EXPECT_EQ(doc["turns"].size(), 4u);
}

TEST(ReplayRecordFile, NamesTheFileOfAMissingRecord) {
  auto replay = ReplayRecordFile("/nonexistent/game.json");
  ASSERT_FALSE(replay.ok());
  EXPECT_EQ(replay.error(), "/nonexistent/game.json: cannot open the record (no such file)");
}

TEST(RunDemo, FlagsTwoIllegalConquestsAndFinishes) {
  auto demo = RunDemo(7);
  ASSERT_TRUE(demo.ok()) << demo.error();
  ASSERT_EQ(demo->flags.size(), 2u);
  EXPECT_EQ(demo->flags[0].code, "not_enough_tokens");
  EXPECT_EQ(demo->flags[1].code, "not_adjacent");
  EXPECT_EQ(demo->turns.size(), 20u);  // 10 rounds x 2 players
  // The record it makes replays to the same coins.
  auto replay = engine::Replay(demo->record, ".");
  ASSERT_TRUE(replay.ok());
  for (const auto& [name, coins] : demo->final_coins) EXPECT_EQ(engine::PlayDocument(*replay)["final"]["coins"][name], coins);
}

TEST(RunDemo, SameSeedSameGame) {
  auto a = RunDemo(3), b = RunDemo(3);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(engine::ToJson(a->record), engine::ToJson(b->record));
}

TEST(RunEngineBench, SignatureIsDeterministic) {
  EngineBenchOptions options;
  options.games = 20;
  options.check_batches = 2;
  const EngineBenchReport a = RunEngineBench(options), b = RunEngineBench(options);
  EXPECT_EQ(a.signature, b.signature);
  EXPECT_EQ(a.signature.size(), 16u);
  options.seed = 2;
  EXPECT_NE(RunEngineBench(options).signature, a.signature);
  EXPECT_GT(a.games_per_second, 0);
  EXPECT_GT(a.check_ns_median, 0);
}

// The demo game as camera frames: every frame has its truth, the two illegal conquests are photographed and taken
// back, the off-board events are the record's picks, declines and ends of turn, and expected.json is `swref play`.
TEST(GenerateDemoFrames, TheDemoGameAsFramesWithEventsAndExpectedVerdicts) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / ("swref_demo_frames_" + std::to_string(::getpid()));
  fs::remove_all(out);
  datasets::GameFramesOptions o;
  o.out = out.string();
  o.frame = {320, 180};
  o.crops_per_kind = 0;
  auto summary = GenerateDemoFrames(7, o, nullptr);
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->flagged, 2);
  EXPECT_GT(summary->motion_frames, 10);
  auto demo = RunDemo(7);
  ASSERT_TRUE(demo.ok());
  int off_board = 0, dice = 0;
  for (const auto& a : demo->record.actions) {
    off_board += a.type == engine::ActionType::kPick || a.type == engine::ActionType::kEndTurn ||
                 a.type == engine::ActionType::kDecline || a.type == engine::ActionType::kAlly;
    dice += a.type == engine::ActionType::kConquer && a.die >= 0;
  }
  EXPECT_EQ(summary->events, off_board + dice);
  std::ifstream truth(out / "truth.jsonl"), frames(out / "frames.jsonl"), events(out / "events.jsonl");
  std::string line;
  int n = 0, bumped = 0;
  while (std::getline(truth, line)) {
    ASSERT_TRUE(fs::exists(out / nlohmann::json::parse(line)["image"].get<std::string>()));
    ++n;
  }
  EXPECT_EQ(n, summary->frames);
  while (std::getline(frames, line)) bumped += nlohmann::json::parse(line)["bump_deg"].get<double>() != 0;
  EXPECT_GT(bumped, 0);
  EXPECT_LT(bumped, n);
  int last = -1;
  while (std::getline(events, line)) {
    const auto e = nlohmann::json::parse(line);
    EXPECT_GE(e["after_frame"].get<int>(), last) << "events in order";
    last = e["after_frame"].get<int>();
  }
  std::ifstream expected(out / "expected.json");
  const auto doc = nlohmann::json::parse(expected);
  int flags = 0;
  for (const auto& step : doc["steps"]) flags += step["ok"] == false;
  EXPECT_EQ(flags, 2);
  EXPECT_EQ(doc["final"]["coins"]["Ann"], demo->final_coins[0].second);
  fs::remove_all(out);
}

// `swref calibrate camera` as the CLI and the GUI call it: the request is checked before any photo is read, and
// a calibration writes camera.json.
TEST(CalibrateCamera, ChecksTheRequestAndWritesTheCameraFile) {
  namespace fs = std::filesystem;
  const std::string data = std::string(SWREF_SOURCE_DIR) + "/tests/data/opencv-aruco-charuco/";
  const fs::path out = fs::temp_directory_path() / ("swref_calibrate_" + std::to_string(::getpid()));
  fs::remove_all(out);
  fs::create_directories(out);
  CalibrateRequest request;
  request.kind = CalibrateRequest::Kind::kCharuco;
  request.pattern = {5, 7};
  request.square_mm = 40;
  request.marker_mm = 20;
  request.dictionary = "DICT_6X6_250";
  for (const char* f : {"img_00.jpg", "img_01.jpg", "img_02.jpg", "img_03.jpg"}) request.files.push_back(data + f);
  request.out = (out / "camera.json").string();
  EXPECT_EQ(request.Check(), "");

  struct Case {
    std::function<void(CalibrateRequest&)> change;
    std::string error;
  };
  const Case cases[] = {
      {[](CalibrateRequest& r) { r.pattern = {2, 7}; }, "ChArUco board 2x7: expected at least 3x3 squares, e.g. 5x7"},
      {[](CalibrateRequest& r) { r.pattern = {3, 3}; }, "ChArUco board 3x3: its 4 inner corners are fewer than the 8 a photo needs"},
      {[](CalibrateRequest& r) { r.square_mm = 0; }, "square size: expected a positive number of mm"},
      {[](CalibrateRequest& r) { r.marker_mm = 40; }, "marker size: expected a positive number of mm, smaller than the square"},
      {[](CalibrateRequest& r) { r.dictionary.clear(); }, "ChArUco board: give its ArUco dictionary, e.g. DICT_6X6_250"},
      {[](CalibrateRequest& r) { r.files.resize(2); }, "give at least 3 photos of the target (got 2)"},
      {[&](CalibrateRequest& r) { r.files[1] = data + "img_09.jpg"; }, data + "img_09.jpg: no such file"},
      {[&](CalibrateRequest& r) { r.files[1] = data + "tutorial_dict.yml"; }, data + "tutorial_dict.yml: not a PNG or JPEG image"},
      {[](CalibrateRequest& r) { r.out = "/nonexistent/camera.json"; }, "/nonexistent/camera.json: the folder /nonexistent does not exist"},
      {[](CalibrateRequest& r) { r.kind = CalibrateRequest::Kind::kChessboard, r.pattern = {9, 2}; },
       "chessboard 9x2: expected at least 3x3 inner corners, e.g. 9x6"},
  };
  for (const Case& c : cases) {
    CalibrateRequest bad = request;
    c.change(bad);
    EXPECT_EQ(bad.Check(), c.error);
    auto model = CalibrateCamera(bad);
    ASSERT_FALSE(model.ok());
    EXPECT_EQ(model.error(), c.error);
  }

  int last = 0;
  auto model = CalibrateCamera(request, [&](int done, int total) {
    EXPECT_EQ(total, 4);
    last = done;
  });
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(last, 4);
  auto written = calibration::ReadCameraFile(request.out);
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_DOUBLE_EQ(written->fx(), model->fx());
  EXPECT_EQ(written->used_views(), 4);
  fs::remove_all(out);
}

}  // namespace
}  // namespace swref::core
