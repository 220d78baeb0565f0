// Tokens and pieces partly hidden under others (vision/instances.cpp, step 3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/vision/rig.h"

#include "datasets/dataset.h"
#include "datasets/scene.h"

namespace swref::vision {
namespace {

using test::LargestPlainLand;
using test::MakeRig;
using test::Rig;

// A piece partly under a race token (the halflings stand on their holes in the ground; a crowd on its encampments) is
// named from what shows of it, and a piece missed is never silent. In each of the largest plain regions a piece lies at
// the spot farthest from the border and a halflings token 17 mm from it, on the light's side, its shadow falling on
// the piece (about a quarter of the piece under the token); four tilted cameras, four lights, noise and JPEG.
// Measured: 24 of 24 found. (What a token hides reaches beyond its footprint, its wall and its shadow: instances.cpp
// kHiddenRimMm. Its gain shows on the accuracy suites, with glare; here the pieces are found without it too.)
TEST(Observer, PiecesPartlyUnderATokenAreFound) {
  Rig rig = MakeRig(5);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  const datasets::PlacementGrid& grid = *rig.table->grid;
  constexpr double kApartMm = 17;
  std::vector<std::pair<int, cv::Point2d>> spots;  // (region, the point farthest from its border)
  for (const int region : LargestPlainLand(*rig.table, board)) {
    cv::Point2d best;
    double clearance = 0;
    for (const cv::Point& p : grid.Pixels(region)) {
      const cv::Point2d mm(p.x + 0.5, p.y + 0.5);
      if (grid.Clearance(mm) > clearance) clearance = grid.Clearance(mm), best = mm;
    }
    if (clearance >= kApartMm + 15) spots.emplace_back(region, best);  // the token wholly inside the region
  }
  ASSERT_GE(spots.size(), 6u);
  int found = 0, total = 0;
  for (int shot_k = 0; shot_k < 4; ++shot_k) {
    datasets::ShotRanges ranges = datasets::ShotRanges::Clean();
    ranges.max_tilt_deg = 10;
    ranges.lighting = ranges.noise = ranges.blur = ranges.jpeg = true;
    const datasets::CameraShot shot = datasets::RandomShot({1920, 1080}, rig.table->layout.board_mm, ranges, 1 + shot_k);
    datasets::Scene scene;
    std::vector<std::string> kinds;
    for (size_t k = 0; k < spots.size(); ++k) {
      const auto& [region, at] = spots[k];
      kinds.push_back((k + shot_k) % 2 ? "hole" : "encampment");
      // The token on the light's side of the piece, its shadow falling on it (the regions turned 30 degrees apart).
      const double turn = (shot.light.shadow_deg + 180 + 30 * (static_cast<double>(k) - 2.5)) * CV_PI / 180;
      const cv::Point2d token = at + kApartMm * cv::Point2d(std::cos(turn), std::sin(turn));
      ASSERT_EQ(grid.RegionAt(token), region);
      scene.placements.push_back({kinds.back(), region, at, 30.0 * k + 10 * shot_k, 1});
      scene.placements.push_back({"halflings", region, token, 17.0 * k + 40 * shot_k, 1});
    }
    const cv::Point3d camera = datasets::CameraOverBoard(shot, rig.table->layout.board_mm);
    const cv::Mat photo = datasets::RenderFrame(datasets::ComposeWorld(rig.table->empty, scene, shot.light, &camera), shot);
    rig.observer->ForgetPose();
    const Observation o = rig.observer->Observe(photo, "under.jpg");
    ASSERT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
    for (size_t k = 0; k < spots.size(); ++k) {
      const RegionObservation& r = o.regions[spots[k].first];
      ++total;
      const auto it = r.pieces.find(kinds[k]);
      if (it != r.pieces.end() && it->second == 1 && r.race == "halflings") {
        ++found;
        continue;
      }
      std::printf("shot %d, region %d: %s %s, confidence %.2f\n", shot_k, r.id, kinds[k].c_str(),
                  it == r.pieces.end() ? "not seen" : "seen", r.confidence);
      // Never read wrong with confidence: a piece missed leaves something no token explains.
      EXPECT_LT(r.confidence, kUncertainBelow) << "shot " << shot_k << ", region " << r.id;
    }
  }
  std::printf("found %d of %d\n", found, total);
  EXPECT_GE(found, total - 2) << "of " << total;
}

// The halflings' holes among their tokens, the tokens overlapping: a hole partly under the halflings around it shows
// their walls and shadows along its visible rim, and a piece of one flat dark colour, whose enrollment photos are all
// but identical, then fits many times its typical error. instances.cpp kDistinctError takes such a piece when no
// other kind and not the empty board come near (on this table the hole's typical error is 1.7). Seven halflings and
// their hole on each of the six largest plain land regions, eight shots in random table light (one shows an arm):
// without that rule 8 of the 42 holes were missed, with it 4; never silently.
TEST(Observer, HolesAmongTheHalflingsAreFound) {
  Rig rig = MakeRig(3);
  engine::Board board = datasets::SetupBoard(*rig.table->map);
  std::vector<int> land = LargestPlainLand(*rig.table, board);
  ASSERT_GE(land.size(), 6u);
  land.resize(6);
  for (const int region : land) {
    engine::RegionState& s = board[region];
    s.owner = 0, s.race = static_cast<int8_t>(engine::Race::kHalflings), s.tokens = 7, s.hole = 1;
  }
  int readings = 0, missed = 0, silent = 0;
  for (int i = 0; i < 8; ++i) {
    datasets::SceneOptions so;
    so.overlap_rate = 1;
    so.stack_rate = 0;
    so.seed = static_cast<uint64_t>(70 + i);
    datasets::ShotRanges ranges;
    ranges.max_tilt_deg = 10;
    const auto shot = datasets::RandomShot({1920, 1080}, rig.table->layout.board_mm, ranges, static_cast<uint64_t>(700 + i));
    const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "holes.jpg");
    if (o.status != Status::kOk) continue;  // an arm over the board
    for (const int region : land) {
      const RegionObservation& r = o.regions[region];
      ++readings;
      const auto hole = r.pieces.find("hole");
      if (hole != r.pieces.end() && hole->second == 1) continue;
      ++missed;
      silent += r.confidence >= kUncertainBelow;
      std::printf("shot %d, region %d: no hole seen, confidence %.2f\n", i, region, r.confidence);
    }
  }
  std::printf("holes among the halflings: %d readings, %d holes missed (%d not flagged)\n", readings, missed, silent);
  ASSERT_GE(readings, 36);
  EXPECT_LE(missed, 4);
  EXPECT_EQ(silent, 0);
}

}  // namespace
}  // namespace swref::vision
