#include "vision/observer.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "tests/test_images.h"
#include "tests/vision/rig.h"
#include <opencv2/imgproc.hpp>

#include "calibration/layout.h"
#include "datasets/dataset.h"
#include "datasets/eval.h"
#include "engine/random_game.h"

namespace swref::vision {
namespace {

namespace fs = std::filesystem;
using test::BoardsOfAGame;
using test::LargestPlainLand;
using test::MakeRig;
using test::Rig;

// The cheap pose check keeps its patches as they were taken: checking a frame gives the same the first time and the
// fifth (cv::phaseCorrelate windows its inputs in place; the kept patches used to fade with every check, so a
// referee resumed after a crash read later frames differently from one that never stopped).
TEST(PoseCheck, ACheckLeavesTheNextOneUnchanged) {
  cv::Mat frame(240, 320, CV_8UC3);
  cv::RNG rng(5);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 255);
  cv::GaussianBlur(frame, frame, {7, 7}, 2);
  cv::Mat shifted;
  cv::warpAffine(frame, shifted, cv::Matx23d(1, 0, 0.2, 0, 1, 0.1), frame.size(), cv::INTER_LINEAR, cv::BORDER_REFLECT);
  PoseCheck check;
  check.Reset(frame, {{80, 60}, {240, 60}, {240, 180}, {80, 180}});
  double first = -1;
  ASSERT_TRUE(check.Unchanged(shifted, &first));
  EXPECT_GT(first, 0.05);
  for (int i = 0; i < 4; ++i) {
    double again = -1;
    EXPECT_TRUE(check.Unchanged(shifted, &again));
    EXPECT_EQ(again, first) << "check " << i + 2;
  }
}

TEST(Observer, BadFramesAreReportedNeverACrash) {
  Rig rig = MakeRig(1);
  Observer& obs = *rig.observer;
  auto bad = [&](const cv::Mat& m) {
    const Observation o = obs.Observe(m, "x.jpg");
    EXPECT_EQ(o.status, Status::kBadImage) << obs.last_reason();
    EXPECT_EQ(o.regions.size(), 23u);
    return obs.last_reason();
  };
  EXPECT_NE(bad(cv::Mat()).find("too small"), std::string::npos);
  EXPECT_NE(bad(cv::Mat(1, 1, CV_8UC3, cv::Scalar::all(9))).find("too small"), std::string::npos);
  EXPECT_NE(bad(cv::Mat(480, 640, CV_8UC3, cv::Scalar::all(0))).find("blank"), std::string::npos);
  EXPECT_NE(bad(cv::Mat(480, 640, CV_8UC2, cv::Scalar::all(9))).find("channels"), std::string::npos);
  EXPECT_NE(bad(cv::Mat(480, 640, CV_16UC3, cv::Scalar::all(9))).find("8 bits"), std::string::npos);
  EXPECT_NE(bad(cv::Mat(kMaxImageSide + 1, 64, CV_8UC3, cv::Scalar::all(9))).find("larger than"), std::string::npos);
  // Files: empty, truncated JPEG, not an image.
  const fs::path dir = fs::temp_directory_path() / ("swref_bad_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "empty.jpg").close();
  const auto jpeg = calibration::EncodeImage(".jpg", cv::Mat(480, 640, CV_8UC3, cv::Scalar(10, 200, 30)));
  ASSERT_TRUE(jpeg.ok()) << jpeg.error();
  std::ofstream(dir / "cut.jpg", std::ios::binary).write(jpeg->data(), 200);
  std::ofstream(dir / "text.jpg") << "hello";
  // A PNG whose header declares 60000 x 60000 (10 GB decoded) in 33 bytes: refused before decoding.
  const unsigned char bomb[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60, 8, 2, 0, 0, 0, 0, 0, 0, 0};
  std::ofstream(dir / "bomb.png", std::ios::binary).write(reinterpret_cast<const char*>(bomb), sizeof bomb);
  EXPECT_EQ(obs.ObserveFile((dir / "bomb.png").string(), "bomb.png").status, Status::kBadImage);
  EXPECT_EQ(obs.last_reason(), (dir / "bomb.png").string() + ": the picture is 60000x60000, larger than the limit of 8192 pixels a side");
  for (const char* f : {"empty.jpg", "cut.jpg", "text.jpg", "missing.jpg", "bomb.png"}) {
    const Observation o = obs.ObserveFile((dir / f).string(), f);
    EXPECT_EQ(o.status, Status::kBadImage) << f;
    EXPECT_FALSE(obs.last_reason().empty()) << f;
  }
  fs::remove_all(dir);
  // A photo of the table without the board: no_board.
  const Observation o = obs.Observe(swref::test::LoadImage(std::string(SWREF_SOURCE_DIR) + "/docs/images/tokens.jpg"), "tokens.jpg");
  EXPECT_EQ(o.status, Status::kNoBoard);
  // With a calibrated camera, a file whose header declares another size is refused from the header: the decoder
  // never sees it (this 179-byte file's data would otherwise be decoded as far as it goes, docs/fuzzing.md).
  obs.SetCamera(cv::Matx33d(800, 0, 320, 0, 800, 240, 0, 0, 1), std::vector<double>(5, 0.0), {640, 480});
  const std::string large = std::string(SWREF_SOURCE_DIR) + "/fuzz/corpus/image/slow-arith-data-ends-2112x7425.jpg";
  EXPECT_EQ(obs.ObserveFile(large, "large.jpg").status, Status::kBadImage);
  EXPECT_EQ(obs.last_reason(), "the frame is 2112x7425, the camera was calibrated at 640x480");
}

TEST(Observer, RegistrationOnSyntheticFramesIsSubpixel) {
  Rig rig = MakeRig(2);
  const cv::Size2d b = rig.table->layout.board_mm;
  double worst = 0, sum_sq = 0;
  int n = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    datasets::ShotRanges r;
    r.max_k1 = 0;
    r.max_tilt_deg = 10;
    const auto shot = datasets::RandomShot({1920, 1080}, b, r, seed);
    auto pose = RegisterFrame(datasets::RenderFrame(rig.table->empty, shot), rig.table->layout);
    ASSERT_TRUE(pose.ok()) << pose.error();
    // Error over a grid of board points, not only the corners.
    std::vector<cv::Point2d> pts;
    for (double x = 0; x <= b.width; x += b.width / 6) {
      for (double y = 0; y <= b.height; y += b.height / 4) pts.emplace_back(x, y);
    }
    const auto truth = datasets::ProjectBoardPoints(shot, b, pts);
    std::vector<cv::Point2d> got;
    cv::perspectiveTransform(pts, got, cv::Mat(pose->image_from_board));
    for (size_t i = 0; i < pts.size(); ++i) {
      const double e = cv::norm(got[i] - truth[i]);
      worst = std::max(worst, e);
      sum_sq += e * e;
      ++n;
    }
  }
  const double rms = std::sqrt(sum_sq / n);
  std::printf("registration: RMS %.3f px, worst %.3f px over 8 frames x %d board points\n", rms, worst, n / 8);
  EXPECT_LT(rms, 0.2);
  EXPECT_LT(worst, 0.5);
}

TEST(Observer, SeesArmsAsMotion) {
  Rig rig = MakeRig(3);
  auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  datasets::AddRandomArms(shot, 1, 5);
  const Observation o = rig.observer->Observe(datasets::RenderFrame(rig.table->empty, shot), "arm.jpg");
  EXPECT_EQ(o.status, Status::kMotion) << rig.observer->last_reason();
}

// Clean overhead photos of real game states (no overlaps, no stacks): the pipeline's base line.
TEST(Observer, ReadsGameStatesFromCleanPhotos) {
  Rig rig = MakeRig(4);
  const std::vector<engine::Board> boards = BoardsOfAGame(rig.table->map, 9, 12, 0);
  std::vector<Observation> truth, seen;
  const auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  for (size_t i = 0; i < boards.size() && i < 8; ++i) {
    datasets::SceneOptions so;
    so.seed = i;
    so.stack_rate = 0;
    so.overlap_rate = 0;
    datasets::Scene scene;
    const cv::Mat frame = datasets::RenderScene(*rig.table, boards[i], so, shot, &scene);
    scene.truth.image = std::to_string(i);
    truth.push_back(scene.truth);
    seen.push_back(rig.observer->Observe(frame, scene.truth.image));
  }
  const datasets::EvalReport r = datasets::Evaluate(truth, seen);
  std::printf("clean photos: region error %.1f%%, exact boards %d of %d, median %.0f ms\n", 100 * r.region_error_rate(), r.boards_exact,
              r.images, r.median_ms());
  std::printf("%s", datasets::FormatReport(r).c_str());
  EXPECT_EQ(r.images, static_cast<int>(truth.size()));
  EXPECT_LT(r.region_error_rate(), 0.02);
}

// Regions with a neat stack and without one, as the observer counted them (the stack tests below).
struct StackTally {
  int stacks = 0, stacks_certain_wrong = 0, plain = 0, plain_certain = 0;
  void Add(const Observation& truth, const Observation& seen, const std::string& frame) {
    for (const RegionObservation& t : truth.regions) {
      if (!t.race || t.tokens == 0) continue;
      const RegionObservation& s = seen.regions[t.id];
      if (t.tokens_certain) {
        ++plain;
        plain_certain += s.tokens_certain && s.tokens == t.tokens;
        continue;
      }
      ++stacks;
      if (s.tokens_certain && s.tokens != t.tokens) {
        ++stacks_certain_wrong;
        std::printf("%s region %d: a stack, %d tokens, read as %d for certain\n", frame.c_str(), t.id, t.tokens, s.tokens);
      }
    }
  }
  void Print(const char* what) const {
    std::printf("%s: %d regions with a stack, %d counted for certain and wrong; %d of %d regions without one counted for certain\n", what,
                stacks, stacks_certain_wrong, plain_certain, plain);
  }
};

// A board photographed with neat stacks at `stack_rate` (no overlaps), observed and tallied as `frame`.
void ObserveStacks(Rig& rig, const engine::Board& board, uint64_t seed, double stack_rate, const datasets::CameraShot& shot,
                   const std::string& frame, StackTally* tally) {
  datasets::SceneOptions so;
  so.seed = seed;
  so.stack_rate = stack_rate;
  so.overlap_rate = 0;
  datasets::Scene scene;
  const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot, &scene), "stacks.jpg");
  if (o.status != Status::kOk) {
    ADD_FAILURE() << frame << ": " << rig.observer->last_reason();
    return;
  }
  tally->Add(scene.truth, o, frame);
}

// Neat stacks under the shortest, faintest shadows the datasets draw (1 mm for one token), 16 frames with the light
// from six directions: a stack is read with its count right or as a lower bound, and the cue still confirms a fair
// share of the regions without one. No stack is counted wrong for certain. The last one (frame 5, region 16, a stack
// of two read as one) lay near the board's far edge and leaned into its own shadow: the camera, above the middle,
// sees its top displaced towards the shadow, over the part that would tell it from a single token; a token leaning
// 0.4 mm or more into its shadow is no longer confirmed (stacks.cpp, kLeanIntoShadowMm). Before that rule there was
// one, before the late-start rule three, before the shadows' scatter rule two.
TEST(Observer, StacksUnderFaintShadowsAreLowerBounds) {
  Rig rig = MakeRig(6);
  const std::vector<engine::Board> boards = BoardsOfAGame(rig.table->map, 11, 5, 2);
  ASSERT_GE(boards.size(), 16u);
  StackTally tally;
  for (size_t i = 0; i < 16; ++i) {
    auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
    shot.light.shadow_mm = 1.0;
    shot.light.shadow_deg = 60.0 * static_cast<double>(i);
    shot.light.ev = -0.5;
    shot.sensor.noise_sigma = 2;
    shot.sensor.jpeg_quality = 85;
    ObserveStacks(rig, boards[i], 100 + i, 0.4, shot, "frame " + std::to_string(i), &tally);
  }
  tally.Print("faint shadows");
  EXPECT_GE(tally.stacks, 25);
  EXPECT_EQ(tally.stacks_certain_wrong, 0);
  // With stacks in two regions of five, the shadows scatter widely and a stack of two could measure as one: an
  // eighth of the regions without a stack is still counted for certain (82 of 179 before the scatter rule, and 2
  // stacks counted wrong; 47 with it, and 1; 39 with the lean rule, and none; 26 with the next directions' rule,
  // stacks.cpp, which the faint shadows' noise there costs most).
  EXPECT_GE(tally.plain_certain, tally.plain / 8);
}

// Neat stacks on boards with few tokens (a game's first turns, a SoloPlay setup), where the frame's typical shadow
// comes from a handful of tokens, some of them stacks. The goal is no stack counted wrong for certain. Board 2 (a
// stack of three read as 2: four tokens, the stack's shadow on a dark border measuring 0.84 of the typical one) is
// mended by confirming nothing single with fewer than six clear shadows (stacks.cpp, kMinClear). Board 12 region 8
// (a stack of two read as 1) is still wrong: the enrolled footprint of the kind has a wedge on one side (4.5 mm past
// the token), and turned towards the light's shadow it covers the stack's shadow, so the measure starts past it.
// Opening the footprint at enrollment mended it but took the first suite's region error 53 -> 55 and 58; not kept.
// The limit is today's, so that a regression fails.
TEST(Observer, StacksOnABoardWithFewTokensAreLowerBounds) {
  Rig rig = MakeRig(7);
  const std::vector<engine::Board> boards = BoardsOfAGame(rig.table->map, 21, 1, 0);
  StackTally tally;
  for (size_t i = 2; i < boards.size() && i < 26; i += 2) {
    auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
    shot.light.shadow_deg = 45.0 * static_cast<double>(i);
    ObserveStacks(rig, boards[i], 200 + i, 0.5, shot, "board " + std::to_string(i), &tally);
  }
  tally.Print("few tokens");
  EXPECT_GE(tally.stacks, 10);
  EXPECT_LE(tally.stacks_certain_wrong, 1);
}

// The doubt about a stack outlives the frame (KeepStackDoubts): four single tokens on a board are all possibly
// stacks (too few shadows to learn a single token's from), and stay so when more tokens join them under the same
// camera (one in every other land region without a lost tribe), although judged alone, all of them together let
// the shadows confirm some of the four. Found anew (another board
// or a moved camera), the board is judged afresh. (The SoloPlay bench's 3p seed 2 had a stack of two counted as 1
// for certain in 8 frames: not confirmable with five tokens on the board, confirmed, wrongly, with the sixth.)
TEST(Observer, APossibleStackStaysSoWhileItLiesWhereItLay) {
  Rig rig = MakeRig(5);
  engine::Board full = datasets::SetupBoard(*rig.table->map);
  std::vector<int> area;  // land without a lost tribe (a mountain may stand there), the plain regions first
  for (const int mountains : {0, 1}) {
    for (const engine::Region& r : rig.table->map->regions)
      if (!r.IsWater() && !full[r.id].lost_tribe && full[r.id].mountain == mountains) area.push_back(r.id);
  }
  ASSERT_GE(area.size(), 10u);
  for (size_t k = 0; k < area.size(); ++k) {
    engine::RegionState& s = full[area[k]];
    s.owner = k < 4 ? 0 : 1;
    s.race = static_cast<int8_t>(k < 4 ? engine::Race::kRatmen : engine::Race::kGiants);
    s.tokens = 1;
  }
  datasets::SceneOptions so;
  so.stack_rate = 0;
  so.overlap_rate = 0;
  const datasets::Scene many = datasets::PlaceBoard(full, *rig.table->grid, so);
  datasets::Scene few = many;  // the same four tokens where they lie, without the others
  std::erase_if(few.placements, [&](const datasets::Placement& p) { return p.kind == "giants"; });
  const auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  const cv::Point3d camera = datasets::CameraOverBoard(shot, rig.table->layout.board_mm);
  auto photo = [&](const datasets::Scene& scene) {
    return datasets::RenderFrame(datasets::ComposeWorld(rig.table->empty, scene, shot.light, &camera), shot);
  };
  const cv::Mat few_photo = photo(few), many_photo = photo(many);
  auto certain_of_the_four = [&](const Observation& o) {
    EXPECT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
    int certain = 0;
    for (int k = 0; k < 4 && o.status == Status::kOk; ++k) {
      EXPECT_EQ(o.regions[area[k]].race, "ratmen") << "region " << area[k];
      EXPECT_EQ(o.regions[area[k]].tokens, 1) << "region " << area[k];
      certain += o.regions[area[k]].tokens_certain;
    }
    return certain;
  };
  // Judged alone, all of them let some of the four count once for certain: else this test would say nothing.
  rig.observer->ForgetPose();
  const int alone = certain_of_the_four(rig.observer->Observe(many_photo, "all.jpg"));
  ASSERT_GE(alone, 1);
  // The four first: none can be confirmed. Then all of them, the board unmoved: the four stay possible stacks.
  rig.observer->ForgetPose();
  EXPECT_EQ(certain_of_the_four(rig.observer->Observe(few_photo, "four.jpg")), 0);
  const int registrations = rig.observer->registrations();
  EXPECT_EQ(certain_of_the_four(rig.observer->Observe(many_photo, "all.jpg")), 0);
  EXPECT_EQ(rig.observer->registrations(), registrations) << "the board was found anew: the test's premise fails";
  // Found anew, the board is judged as it was alone.
  rig.observer->ForgetPose();
  EXPECT_EQ(certain_of_the_four(rig.observer->Observe(many_photo, "all.jpg")), alone);
}

// A crowd of one colour: the three largest land regions, each filled with eight magenta ghouls, are read as ghouls,
// every token counted. The light matching must not take such a crowd for a change of the light (rectify.cpp,
// FitGain): matched away, its tokens fitted no kind and were left as foreground no token explains.
TEST(Observer, ReadsACrowdOfOneColour) {
  Rig rig = MakeRig(5);
  engine::Board board = datasets::SetupBoard(*rig.table->map);
  const std::vector<int> area = LargestPlainLand(*rig.table, board);
  ASSERT_GE(area.size(), 3u);
  // Touching: with the former gain field (a 16 mm blur, the colour as the brightness) one region was left uncertain.
  constexpr int kTokens = 8;
  for (int k = 0; k < 3; ++k) {
    engine::RegionState& s = board[area[k]];
    s.owner = 0, s.race = static_cast<int8_t>(engine::Race::kGhouls), s.tokens = kTokens;
  }
  datasets::SceneOptions so;
  so.stack_rate = 0;
  so.overlap_rate = 0;
  datasets::Scene scene;
  const auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot, &scene), "crowd.jpg");
  ASSERT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
  for (int k = 0; k < 3; ++k) {
    const RegionObservation& r = o.regions[area[k]];
    EXPECT_EQ(r.race, "ghouls") << "region " << r.id;
    EXPECT_EQ(r.tokens, kTokens) << "region " << r.id;
    EXPECT_GE(r.confidence, kUncertainBelow) << "region " << r.id;
  }
}

// A grey decline side on the grey mountains shows little foreground beyond its symbol, which may lie off the
// token's centre: such a seed is named again from starts around it (instances.cpp, kRingStartMm). Four races' decline
// sides on every mountain, six scenes each (three under a warm, dimmer lamp with a gradient): without those starts 2 of
// the 96 were missed (the wizards', whose hat lies low on the token), with them 1; never silently.
TEST(Observer, GreyTokensOnTheMountainsAreFound) {
  Rig rig = MakeRig(3);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  std::vector<int> mountains;
  for (const engine::Region& r : rig.table->map->regions)
    if (board[r.id].mountain && !board[r.id].lost_tribe) mountains.push_back(r.id);
  ASSERT_GE(mountains.size(), 3u);
  int missed = 0, total = 0;
  for (const engine::Race race : {engine::Race::kWizards, engine::Race::kHalflings, engine::Race::kGiants, engine::Race::kDwarves}) {
    const std::string id(engine::Info(race).id);
    engine::Board b = board;
    for (const int r : mountains) b[r].owner = 0, b[r].race = static_cast<int8_t>(race), b[r].tokens = 1, b[r].decline = true;
    for (int k = 0; k < 6; ++k) {
      datasets::SceneOptions so;
      so.stack_rate = 0;
      so.overlap_rate = 0;
      so.seed = 11 + k;
      auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
      if (k % 2) shot.light.kelvin = 2900, shot.light.ev = -0.4, shot.light.gradient = 0.2, shot.light.gradient_deg = 30;
      const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, b, so, shot), "grey.jpg");
      ASSERT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
      for (const int r : mountains) {
        const RegionObservation& seen = o.regions[r];
        ++total;
        if (seen.race == id && seen.decline && seen.tokens == 1) continue;
        ++missed;
        std::printf("%s decline, scene %d, region %d: %s %d, confidence %.2f\n", id.c_str(), k, r, seen.race.value_or("no race").c_str(),
                    seen.tokens, seen.confidence);
        EXPECT_LT(seen.confidence, kUncertainBelow) << id << " decline, scene " << k << ", region " << r;
      }
    }
  }
  EXPECT_LE(missed, 1) << "of " << total;
}

// Things of no enrolled kind on the board (a victory coin, a die, a glass's foot, a bottle cap: not tokens): each
// region holding one is read without a race and left uncertain for the players to check. (The gold coin fits the
// stand-in hero, a gold disc too, well enough to be named one, uncertain.)
TEST(Observer, AThingOfNoKindLeavesItsRegionUncertain) {
  Rig rig = MakeRig(5);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  const cv::Mat labels = calibration::RasterizeLayout(rig.table->layout, 1.0);
  const std::vector<int> area = LargestPlainLand(*rig.table, board);
  ASSERT_GE(area.size(), 4u);
  // A coin (gold, its value in a dark ring), a die (white, its pips), a glass's round foot (clear, a grey rim) and
  // a red bottle cap, each in the middle of one of the four largest such regions, drawn on the table's world.
  cv::Mat& world = rig.table->empty.image;
  const double ppm = rig.table->empty.px_per_mm;
  const cv::Point2d origin = rig.table->empty.origin_mm;
  auto at = [&](cv::Point2d p) { return cv::Point(cvRound((p.x - origin.x) * ppm), cvRound((p.y - origin.y) * ppm)); };
  auto mm = [&](double v) { return cvRound(v * ppm); };
  for (int k = 0; k < 4; ++k) {
    const cv::Moments m = cv::moments(labels == area[k], true);
    const cv::Point c = at({m.m10 / m.m00, m.m01 / m.m00});
    if (k == 0) {
      cv::circle(world, c, mm(11), cv::Scalar(40, 170, 215), cv::FILLED, cv::LINE_AA);
      cv::circle(world, c, mm(9), cv::Scalar(20, 90, 120), mm(1), cv::LINE_AA);
      const cv::Scalar dark(20, 90, 120);
      cv::putText(world, "3", c + cv::Point(-mm(4), mm(4)), cv::FONT_HERSHEY_SIMPLEX, ppm * 0.45, dark, mm(1.5), cv::LINE_AA);
    } else if (k == 1) {
      const cv::Rect die(c - cv::Point(mm(8), mm(8)), cv::Size(mm(16), mm(16)));
      cv::rectangle(world, die, cv::Scalar(235, 238, 240), cv::FILLED, cv::LINE_AA);
      for (const cv::Point d : {cv::Point(-1, -1), cv::Point(0, 0), cv::Point(1, 1)})
        cv::circle(world, c + d * mm(4.5), mm(1.5), cv::Scalar(30, 30, 30), cv::FILLED, cv::LINE_AA);
    } else if (k == 2) {
      cv::circle(world, c, mm(20), cv::Scalar(150, 150, 150), mm(1.5), cv::LINE_AA);
    } else {
      cv::circle(world, c, mm(13), cv::Scalar(30, 30, 200), cv::FILLED, cv::LINE_AA);
      cv::circle(world, c, mm(13), cv::Scalar(20, 20, 140), mm(1), cv::LINE_AA);
    }
  }
  datasets::SceneOptions so;
  so.stack_rate = 0;
  so.overlap_rate = 0;
  const auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "things.jpg");
  ASSERT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
  for (int k = 0; k < 4; ++k) {
    const RegionObservation& r = o.regions[area[k]];
    std::string pieces;
    for (const auto& [piece, n] : r.pieces) pieces += " " + piece + " " + std::to_string(n);
    std::printf("thing %d, region %d: %s%s, confidence %.2f\n", k, r.id, r.race.value_or("no race").c_str(), pieces.c_str(), r.confidence);
    EXPECT_FALSE(r.race.has_value()) << "thing " << k << ", region " << r.id;
    EXPECT_LT(r.confidence, kUncertainBelow) << "thing " << k << ", region " << r.id;
  }
}

}  // namespace
}  // namespace swref::vision
