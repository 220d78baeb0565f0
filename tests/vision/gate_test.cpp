// The motion gate and the table around the board (vision/gate.cpp WatchTable): a lamp's reflection beside the board
// is not an arm, on felt, linen or wood; arms over every kind of table, with or without a reflection beside them,
// are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "tests/vision/rig.h"

#include "datasets/dataset.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

using test::MakeRig;
using test::Rig;

// Rig seeds by the kind of their table (the kind follows the seed, datasets/dataset.cpp MakeSyntheticTable).
constexpr uint64_t kWalnutRig = 1, kOakRig = 4, kPineRig = 6, kFeltRig = 7, kLinenRig = 8;

// 24 places 5 mm outside the board's edge, 6 along each side (board mm).
std::vector<cv::Point2d> BesideTheEdge(cv::Size2d board_mm) {
  std::vector<cv::Point2d> places;
  for (int i = 0; i < 6; ++i) {
    const double t = (i + 0.5) / 6;
    places.push_back({t * board_mm.width, -5});
    places.push_back({t * board_mm.width, board_mm.height + 5});
    places.push_back({-5, t * board_mm.height});
    places.push_back({board_mm.width + 5, t * board_mm.height});
  }
  return places;
}

// The empty board from above with one reflection (140 x 105 frame pixels) centred at each place beside its edge, at
// three strengths: how many of the 72 photos read as motion.
int GlareBesideTheEdgeReadAsMotion(Rig& rig) {
  const cv::Size2d board_mm = rig.table->layout.board_mm;
  const datasets::CameraShot shot = datasets::OverheadShot({1920, 1080}, board_mm, 0.85);
  const std::vector<cv::Point2d> places = datasets::ProjectBoardPoints(shot, board_mm, BesideTheEdge(board_mm));
  int motion = 0;
  for (double strength : {0.3, 0.5, 0.7}) {
    for (size_t i = 0; i < places.size(); ++i) {
      datasets::CameraShot glared = shot;
      glared.light.glare = {datasets::Glare{places[i], {140, 105}, 15.0 * static_cast<double>(i), strength}};
      const Observation o = rig.observer->Observe(datasets::RenderFrame(rig.table->empty, glared), "glare.png");
      if (o.status == Status::kMotion) {
        ++motion;
        std::printf("strength %.1f, place %zu (%.0f, %.0f): motion (%s)\n", strength, i, places[i].x, places[i].y,
                    rig.observer->last_reason().c_str());
      }
    }
  }
  return motion;
}

// Random arms over the empty board (`shots` arms whose hand is over the board), each photographed without and with
// a reflection beside it: how many of the photos were not read as motion, of how many.
std::pair<int, int> ArmsMissed(Rig& rig, int shots) {
  const cv::Size2d board_mm = rig.table->layout.board_mm;
  int missed = 0, tried = 0;
  for (int seed = 100; tried < 2 * shots && seed < 100 + 20 * shots; ++seed) {
    auto shot = datasets::OverheadShot({1920, 1080}, board_mm, 0.85);
    datasets::AddRandomArms(shot, 1, seed);
    const std::vector<cv::Point2d> quad = datasets::ProjectBoardPoints(
        shot, board_mm, {{0, 0}, {board_mm.width, 0}, {board_mm.width, board_mm.height}, {0, board_mm.height}});
    const std::vector<cv::Point2f> quad_f(quad.begin(), quad.end());
    const datasets::Arm& arm = shot.arms[0];
    if (cv::pointPolygonTest(quad_f, cv::Point2f(arm.hand), true) < 30) continue;  // the hand is not over the board
    for (bool glare : {false, true}) {
      datasets::CameraShot s = shot;
      if (glare) {  // beside the arm, halfway from its hand to its shoulder
        const cv::Point2d along = arm.hand - arm.shoulder;
        const cv::Point2d across = cv::Point2d(-along.y, along.x) * (100 / std::max(1.0, cv::norm(along)));
        s.light.glare = {datasets::Glare{arm.hand - 0.5 * along + across, {140, 105}, 30, 0.5}};
      }
      const Observation o = rig.observer->Observe(datasets::RenderFrame(rig.table->empty, s), "arm.png");
      ++tried;
      if (o.status != Status::kMotion) {
        ++missed;
        std::printf("arm seed %d%s: read as %s\n", seed, glare ? " with glare" : "", ToString(o.status));
      }
    }
  }
  return {missed, tried};
}

// The ring's glare test once needed the table's grain to show through, and a cloth has none: a reflection beside the
// board on felt was an arm (22 of 24 photos at strength 0.3, all at 0.5 and 0.7; 72 of 72 in all).
TEST(Gate, GlareOnFeltBesideTheBoardIsNotAnArm) {
  Rig rig = MakeRig(kFeltRig);
  const int motion = GlareBesideTheEdgeReadAsMotion(rig);
  std::printf("felt: %d of 72 photos with glare beside the board read as motion\n", motion);
  EXPECT_EQ(motion, 0);
}

TEST(Gate, GlareOnLinenBesideTheBoardIsNotAnArm) {
  Rig rig = MakeRig(kLinenRig);
  const int motion = GlareBesideTheEdgeReadAsMotion(rig);
  std::printf("linen: %d of 72 photos with glare beside the board read as motion\n", motion);
  EXPECT_EQ(motion, 0);
}

// A reflection on wood: the grain shows through it, except where the camera clipped it. On pale pine under the
// strongest reflection some photos still read as motion: 8 of 72 before the ring's tolerance went from 0.35 to 0.2
// and its shadows were told from arms (vision/gate.cpp), 4 since.
TEST(Gate, GlareOnPineBesideTheBoardIsSeldomAnArm) {
  Rig rig = MakeRig(kPineRig);
  const int motion = GlareBesideTheEdgeReadAsMotion(rig);
  std::printf("pine: %d of 72 photos with glare beside the board read as motion\n", motion);
  EXPECT_LE(motion, 4);
}

// 8 arms over the empty board on the rig `seed`, each photographed without and with a reflection beside it: at
// most `most_missed` of the 16 photos may not read as motion.
void ExpectArmsSeen(uint64_t seed, const char* table, int most_missed) {
  Rig rig = MakeRig(seed);
  const auto [missed, tried] = ArmsMissed(rig, 8);
  std::printf("%s: %d of %d photos of an arm over the board not read as motion\n", table, missed, tried);
  EXPECT_EQ(tried, 16);
  EXPECT_LE(missed, most_missed);
}

// Pale arms over green felt gain light in every channel as glare does (85-96 % of their pixels fit the glare's
// colour): their sharp edges tell them apart.
TEST(Gate, ArmsOverFeltAreMotion) { ExpectArmsSeen(kFeltRig, "felt", 0); }

// A pale arm over linen or light wood differs from it by 15-30 % in a channel. With the ring's tolerance at 0.35
// (vision/gate.cpp kChangeTolerance) 5 of these 16 photos over linen were missed, 2 over oak.
TEST(Gate, ArmsOverLinenAreMotion) { ExpectArmsSeen(kLinenRig, "linen", 0); }
TEST(Gate, ArmsOverWalnutAreMotion) { ExpectArmsSeen(kWalnutRig, "walnut", 0); }
TEST(Gate, ArmsOverOakAreMotion) { ExpectArmsSeen(kOakRig, "oak", 0); }

// Not yet: a pale arm over pale pine, where the frame shows little of the table beyond the board's edge (4 of 16
// missed, as at the tolerance of 0.35; docs/vision.md).
TEST(Gate, ArmsOverPineAreMostlyMotion) { ExpectArmsSeen(kPineRig, "pine", 4); }

}  // namespace
}  // namespace swref::vision
