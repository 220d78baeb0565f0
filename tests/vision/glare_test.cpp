// The observer under a lamp's reflection (vision/rectify.cpp FindGlare, instances.cpp): phantoms never silent,
// tokens and dark pieces found under it, printed symbols washed out by it not tokens, land clipped by it read as
// empty, a pale side clipped not read as its darker side.
#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "tests/vision/rig.h"

#include "calibration/layout.h"
#include "datasets/board_art.h"
#include "datasets/dataset.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

using test::LargestPlainLand;
using test::MakeRig;
using test::Rig;

// Strong glare over the empty board's print (three patches a frame, 8 frames): the glare makes phantom tokens of the
// print now and then, but never silently: every region read with a race or a piece that is not there is uncertain.
// The number of such regions is today's (9 before ObserverOptions::max_fit, 10 with it: the phantoms here fit their
// kinds 20 times their typical error or better; 7 -> 6 once the empty board is compared clipped as the frame is,
// board_samples.cpp BoardSamples; 5 once a clipped channel agreeing with the board takes its value, rectify.cpp
// ClippedAsReference; 2 once a candidate is compared with the board under more glare, board_samples.cpp
// WashedBoardError), so that a regression fails. So is the number of uncertain regions (34 -> 31 then, 29 once a
// saturated channel no longer lowers the glare's measure, rectify.cpp FindGlare; 28 with WashedBoardError; 29 once a
// region the glare washed out nearly white is uncertain, foreground.cpp kWashedAt).
TEST(Observer, GlarePhantomsAreNeverSilent) {
  Rig rig = MakeRig(5);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  const Observation truth = FromBoard(board);
  int phantoms = 0, silent = 0, uncertain = 0;
  for (int i = 0; i < 8; ++i) {
    auto shot = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
    cv::RNG rng(static_cast<uint64_t>(40 + i));
    for (int g = 0; g < 3; ++g) {
      datasets::Glare glare;
      glare.centre = {rng.uniform(500.0, 1420.0), rng.uniform(250.0, 830.0)};
      glare.axes = {rng.uniform(60.0, 160.0), rng.uniform(40.0, 110.0)};
      glare.angle_deg = rng.uniform(0.0, 180.0);
      glare.strength = rng.uniform(0.5, 0.9);
      shot.light.glare.push_back(glare);
    }
    datasets::SceneOptions so;
    const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "glare.jpg");
    if (o.status != Status::kOk) continue;
    for (const RegionObservation& r : o.regions) {
      const RegionObservation& t = truth.regions[r.id];
      const bool phantom = (r.race && !t.race) || r.pieces != t.pieces;
      phantoms += phantom;
      silent += phantom && r.confidence >= kUncertainBelow;
      uncertain += r.confidence < kUncertainBelow;
      if (phantom) {
        std::printf("frame %d, region %d: %s, %zu pieces, confidence %.2f\n", i, r.id, r.race.value_or("-").c_str(), r.pieces.size(),
                    r.confidence);
      }
    }
  }
  std::printf("glare over the print: %d regions with a race or piece that is not there (%d not flagged), %d uncertain\n", phantoms,
              silent, uncertain);
  EXPECT_EQ(silent, 0);
  EXPECT_LE(phantoms, 2);
  EXPECT_LE(uncertain, 29);
}

// Whether a region is read with another race or other pieces than `truth` has there.
bool RaceOrPiecesWrong(const RegionObservation& r, const Observation& truth) {
  return r.race != truth.regions[r.id].race || r.pieces != truth.regions[r.id].pieces;
}

// A spot of the board: a region and a point in it (board mm).
struct Spot {
  int region;
  cv::Point2d centre_mm;
};

// The region of each spot as read with `board` photographed from straight above under one glare patch (`axes` in
// frame pixels) centred over the spot, at each strength in turn (strength first).
struct GlareReading {
  double strength;
  RegionObservation region;
};
std::vector<GlareReading> ReadUnderGlare(Rig& rig, const engine::Board& board, const std::vector<Spot>& spots, cv::Size2d axes,
                                         std::initializer_list<double> strengths) {
  const auto plain = datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85);
  std::vector<GlareReading> out;
  for (const double strength : strengths) {
    for (const Spot& spot : spots) {
      auto shot = plain;
      datasets::Glare glare;
      glare.centre = datasets::ProjectBoardPoints(shot, rig.table->layout.board_mm, {spot.centre_mm}).front();
      glare.axes = axes;
      glare.strength = strength;
      shot.light.glare.push_back(glare);
      const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, datasets::SceneOptions{}, shot), "glare.jpg");
      EXPECT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
      if (o.status == Status::kOk) out.push_back({strength, o.regions[spot.region]});
    }
  }
  return out;
}

// Where the tokens or pieces of `kind` lie on `board` as the rig places them.
std::vector<Spot> SpotsOf(Rig& rig, const engine::Board& board, const std::string& kind) {
  datasets::Scene scene;
  datasets::RenderScene(*rig.table, board, datasets::SceneOptions{}, datasets::OverheadShot({1920, 1080}, rig.table->layout.board_mm, 0.85),
                        &scene);
  std::vector<Spot> spots;
  for (const datasets::Placement& p : scene.placements)
    if (p.kind == kind) spots.push_back({p.region, p.centre_mm});
  return spots;
}

// Tokens in full view under a lamp's reflection: the board around them brightened as much as their cut edge stands
// out, so the outlines are found again once the glare is taken off (rectify.cpp, SeedsUnderGlare). The setup board's
// lost tribes, a wide glare of three strengths over each in turn (27 frames): without that, 17 were found; with it 19;
// none missed silently. 18 since rectify.cpp ClippedAsReference (one more under the strongest glare named an orcs
// decline token, flagged; on the accuracy suites that change leaves the errors as they were and 200 fewer regions
// flagged). 26 since the glare is taken off a token as off the board around it (rectify.cpp FindGlare, kDipMm); the
// one left, under the strongest glare, reads empty with confidence 0.
TEST(Observer, TokensUnderGlareAreFound) {
  Rig rig = MakeRig(5);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  const std::vector<Spot> lost_tribes = SpotsOf(rig, board, "lost_tribe");
  int found = 0, silent = 0;
  const auto readings = ReadUnderGlare(rig, board, lost_tribes, {180, 126}, {0.5, 0.55, 0.6});
  for (const auto& [strength, r] : readings) {
    found += r.lost_tribe == 1;
    silent += r.lost_tribe != 1 && r.confidence >= kUncertainBelow;
    if (r.lost_tribe != 1) std::printf("glare %.2f, region %d: no lost tribe seen, confidence %.2f\n", strength, r.id, r.confidence);
  }
  std::printf("lost tribes under glare: %d of %zu found\n", found, readings.size());
  EXPECT_EQ(readings.size(), 3 * lost_tribes.size());
  EXPECT_EQ(silent, 0);
  EXPECT_GE(found, 26);
}

// A dark piece under a lamp's reflection gains the same light as the board around it, and less than the board there:
// taken off only as far as the cell itself gained, the glare left the piece the board's own colour, and it was missed.
// rectify.cpp FindGlare takes off what the cells around it gained (kDipMm). A hole in each of the setup board's eight
// largest plain land regions (7 placed), a wide glare of two strengths over each in turn: 9 of 14 found before, 13
// now; none missed silently either way.
TEST(Observer, DarkPiecesUnderGlareAreFound) {
  Rig rig = MakeRig(5);
  engine::Board board = datasets::SetupBoard(*rig.table->map);
  std::vector<int> regions = LargestPlainLand(*rig.table, board);
  regions.resize(std::min<size_t>(regions.size(), 8));
  for (const int r : regions) board[r].hole = 1;
  const std::vector<Spot> holes = SpotsOf(rig, board, "hole");
  int found = 0, silent = 0;
  const auto readings = ReadUnderGlare(rig, board, holes, {180, 126}, {0.5, 0.6});
  for (const auto& [strength, r] : readings) {
    const bool seen = r.pieces.count("hole") == 1;
    found += seen;
    silent += !seen && r.confidence >= kUncertainBelow;
    if (!seen) std::printf("glare %.2f, region %d: no hole seen, confidence %.2f\n", strength, r.id, r.confidence);
  }
  std::printf("holes under glare: %d of %zu found (%d missed silently)\n", found, readings.size(), silent);
  ASSERT_GE(holes.size(), 6u);
  EXPECT_EQ(readings.size(), 2 * holes.size());
  EXPECT_EQ(silent, 0);
  EXPECT_GE(found, 13);
}

// A lamp's reflection over a printed symbol (a magic source's purple star, a mine, a cavern): the ring of board
// around it (instances.cpp, local_light.cpp) measures less glare than the symbol took, the symbol is left washed out
// and pale, and a pale token fitted it better than the board did (the second and third accuracy suites' phantom
// sorcerers tokens). board_samples.cpp WashedBoardError compares such a candidate with the board under more glare too.
// Each of the 21 symbols of the setup board (its lost tribes taken off) under a glare of two strengths: without that
// test 3 of the 42 readings showed a token that is not there (flagged), with it none. (A smaller, sharper glare, 70
// frame pixels across at 0.6 and 0.8, blinds the camera over the symbol: 18 phantoms, 17 with the test, all flagged.)
TEST(Observer, SymbolsWashedOutByGlareAreNotTokens) {
  Rig rig = MakeRig(5);
  engine::Board board = datasets::SetupBoard(*rig.table->map);
  for (engine::RegionState& s : board) s.lost_tribe = 0;  // every symbol in view
  const Observation truth = FromBoard(board);
  std::vector<Spot> symbols;
  const auto spots = datasets::SymbolSpots(*rig.table->map, rig.table->layout);
  for (size_t region = 0; region < spots.size(); ++region)
    for (const cv::Point2d& at : spots[region]) symbols.push_back({static_cast<int>(region), at});
  int phantoms = 0, silent = 0;
  const auto readings = ReadUnderGlare(rig, board, symbols, {140, 105}, {0.5, 0.7});
  for (const auto& [strength, r] : readings) {
    const bool phantom = RaceOrPiecesWrong(r, truth);
    phantoms += phantom;
    silent += phantom && r.confidence >= kUncertainBelow;
    if (phantom) std::printf("glare %.2f, region %d: %s, confidence %.2f\n", strength, r.id, r.race.value_or("-").c_str(), r.confidence);
  }
  std::printf("symbols under glare: %zu readings, %d with a token that is not there (%d not flagged)\n", readings.size(), phantoms, silent);
  ASSERT_GE(readings.size(), 20u);
  EXPECT_EQ(silent, 0);
  EXPECT_LE(phantoms, 1);
}

// A lamp's reflection over the empty board clips the camera's brightest channels there (red and green over the
// yellow farmland and the hills); taken back to the reference's light those read darker than the board, and the
// whole field came out as foreground no token explains, its region uncertain. Each plain land region in turn under
// such a glare (two strengths, short of blinding the camera): before rectify.cpp ClippedAsReference and FindGlare
// reading the glare's gain from the channels that did not saturate, 6 of the 14 readings were uncertain (2 at the
// weaker glare, 4 at the stronger); now none, and every region is read empty. (At 0.5 the hill 4 shows a phantom
// sorcerers token, flagged: GlarePhantomsAreNeverSilent covers such strong glare.)
TEST(Observer, LandClippedByGlareIsReadAsEmpty) {
  Rig rig = MakeRig(5);
  const engine::Board board = datasets::SetupBoard(*rig.table->map);
  const Observation truth = FromBoard(board);
  const cv::Mat labels = calibration::RasterizeLayout(rig.table->layout, 1.0);
  std::vector<Spot> middles;
  for (const engine::Region& region : rig.table->map->regions) {
    const engine::RegionState& s = board[region.id];
    if (region.IsWater() || s.mountain || s.lost_tribe) continue;
    const cv::Moments m = cv::moments(labels == region.id, true);
    if (m.m00 >= 1500) middles.push_back({region.id, cv::Point2d(m.m10 / m.m00, m.m01 / m.m00)});  // mm²: holds the glare's core
  }
  int uncertain = 0, wrong = 0;
  const auto readings = ReadUnderGlare(rig, board, middles, {110, 80}, {0.3, 0.4});
  for (const auto& [strength, r] : readings) {
    uncertain += r.confidence < kUncertainBelow;
    wrong += RaceOrPiecesWrong(r, truth);
    if (r.confidence < kUncertainBelow || r.race)
      std::printf("glare %.1f, region %d: %s, confidence %.2f\n", strength, r.id, r.race.value_or("empty").c_str(), r.confidence);
  }
  std::printf("plain land under glare: %zu readings, %d uncertain, %d wrong\n", readings.size(), uncertain, wrong);
  ASSERT_GE(readings.size(), 10u);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(uncertain, 0);
}

// Skeletons tokens (cream; their decline side grey) on the largest plain land, in random table light. In one shot
// the camera clips the cream ground, and a token was read as its grey decline side with confidence 0.65: silent, as a
// pair of skeletons was on the first accuracy suite. instances.cpp kSideCutMore made such a reading uncertain: the
// clip cuts far more of the cream side's template than of the grey's. (Found over 40 random shots of skeletons and
// of sorcerers, 560 readings: this was the one side misread, and without that rule the one silent error.) Since the
// glare is taken off a cell that gained less than the cells around it (rectify.cpp FindGlare, kDipMm), that token is
// read as its own side; over 117 random shots of skeletons (819 readings) none is read as its other side, and of
// sorcerers one, with confidence 0.20 with or without the rule.
TEST(Observer, APaleSideTheCameraClipsIsNotItsDarkerSide) {
  Rig rig = MakeRig(5);
  engine::Board board = datasets::SetupBoard(*rig.table->map);
  const std::vector<int> land = LargestPlainLand(*rig.table, board);
  ASSERT_GE(land.size(), 6u);
  const std::string id(engine::Info(engine::Race::kSkeletons).id);
  for (size_t k = 0; k < land.size(); ++k) {
    board[land[k]].owner = 0, board[land[k]].race = static_cast<int8_t>(engine::Race::kSkeletons);
    board[land[k]].tokens = 2, board[land[k]].decline = false;
  }
  int readings = 0, other_side = 0, silent = 0;
  for (int i = 23; i < 27; ++i) {
    datasets::ShotRanges ranges;
    ranges.max_tilt_deg = 10;
    datasets::SceneOptions so;
    so.seed = static_cast<uint64_t>(i);
    const auto shot = datasets::RandomShot({1920, 1080}, rig.table->layout.board_mm, ranges, static_cast<uint64_t>(500 + i));
    const Observation o = rig.observer->Observe(datasets::RenderScene(*rig.table, board, so, shot), "pale.jpg");
    ASSERT_EQ(o.status, Status::kOk) << rig.observer->last_reason();
    for (const int region : land) {
      const RegionObservation& r = o.regions[region];
      ++readings;
      if (r.race != id || !r.decline) continue;
      ++other_side;
      silent += r.confidence >= kUncertainBelow;
      std::printf("shot %d, region %d: skeletons read as their decline side, confidence %.2f\n", i, region, r.confidence);
    }
  }
  std::printf("pale skeletons in random light: %d readings, %d as the other side (%d not flagged)\n", readings, other_side, silent);
  EXPECT_EQ(other_side, 0);
  EXPECT_EQ(silent, 0);
}

}  // namespace
}  // namespace swref::vision
