#include "datasets/scene.h"

#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/board_art.h"
#include "datasets/dataset.h"
#include "datasets/layout_gen.h"
#include "datasets/token_art.h"
#include "engine/components.h"
#include "engine/random_game.h"

namespace swref::datasets {
namespace {

// Boards from a random game on `key`, every `stride` actions.
std::vector<engine::Board> Boards(const std::shared_ptr<const engine::Map>& map, uint64_t seed, int stride) {
  std::vector<engine::Board> boards;
  int n = 0;
  auto game = engine::PlayRandomGame(map, seed, [&](const engine::Game& g, const engine::Action&) {
    if (n++ % stride == 0) boards.push_back(g.board());
  });
  EXPECT_TRUE(game.ok());
  return boards;
}

// Truth is exact: every centre inside its region (on the layout's polygon, not only the raster), the placements of
// each region add up to the engine's counts, the truth equals the engine board, and a count is uncertain exactly
// where a stack hides it.
TEST(PlaceBoard, TruthEqualsTheEngineStateAndCentresLieInsideTheirRegions) {
  int scenes = 0, stacks = 0, overlaps = 0, placements = 0;
  for (const std::string& key : engine::BuiltinMapKeys()) {
    auto map = engine::BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    auto layout = GenerateLayout(**map, LayoutOptions{});
    ASSERT_TRUE(layout.ok());
    AddCornerMarkers(*layout);
    const PlacementGrid grid(*layout);
    for (const engine::Board& board : Boards(*map, 3, 9)) {
      SceneOptions so;
      so.seed = static_cast<uint64_t>(scenes);
      const Scene scene = PlaceBoard(board, grid, so);
      ++scenes;
      std::vector<std::map<std::string, int>> counted(board.size());
      std::vector<bool> stacked(board.size(), false);
      for (size_t i = 0; i < scene.placements.size(); ++i) {
        const Placement& p = scene.placements[i];
        ASSERT_GE(p.region, 0);
        const auto& poly = layout->regions[p.region];
        std::vector<cv::Point2f> contour(poly.begin(), poly.end());
        const double inside = cv::pointPolygonTest(contour, cv::Point2f(p.centre_mm), true);
        EXPECT_GT(inside, 1.0) << key << " region " << p.region << " " << p.kind << " centre is " << inside << " mm inside";
        counted[p.region][p.kind] += p.stack;
        stacked[p.region] = stacked[p.region] || p.stack > 1;
        stacks += p.stack > 1;
        ++placements;
        for (size_t j = 0; j < i; ++j) {
          const Placement& q = scene.placements[j];
          if (q.region == p.region && q.kind == p.kind &&
              cv::norm(q.centre_mm - p.centre_mm) < DesignOf(p.kind).size_mm) ++overlaps;
        }
      }
      for (size_t r = 0; r < board.size(); ++r) {
        const engine::RegionState& s = board[r];
        std::map<std::string, int> want;
        if (s.HasRace()) want[std::string(engine::Info(s.race_id()).id) + (s.decline ? "_decline" : "")] = s.tokens;
        for (int p = 0; p < engine::kPieceCount; ++p) {
          const int n = s.Count(static_cast<engine::Piece>(p));
          if (n > 0) want[std::string(engine::Info(static_cast<engine::Piece>(p)).id)] = n;
        }
        EXPECT_EQ(counted[r], want) << key << " region " << r;
        const vision::RegionObservation& t = scene.truth.regions[r];
        EXPECT_EQ(t.tokens, s.tokens * (s.HasRace() ? 1 : 0));
        EXPECT_EQ(t.lost_tribe, s.lost_tribe);
        EXPECT_EQ(t.tokens_certain, !stacked[r]) << key << " region " << r;
      }
    }
  }
  EXPECT_GT(scenes, 40);
  EXPECT_GT(stacks, 0) << "scenes should include neat stacks";
  EXPECT_GT(overlaps, 0) << "scenes should include overlapping tokens";
  RecordProperty("placements", placements);
}

TEST(PlaceBoard, AnUnchangedRegionKeepsItsTokensWhereTheyLay) {
  auto map = engine::BuiltinMap("2p");
  auto layout = GenerateLayout(**map, LayoutOptions{});
  const PlacementGrid grid(*layout);
  engine::Board board = SetupBoard(**map);
  board[5].owner = 0, board[5].race = 3, board[5].tokens = 3;
  SceneOptions so;
  const Scene a = PlaceBoard(board, grid, so);
  board[9].owner = 1, board[9].race = 7, board[9].tokens = 2, board[9].lost_tribe = 0;
  const Scene b = PlaceBoard(board, grid, so);
  int same = 0;
  for (const Placement& p : a.placements) {
    if (p.region == 9) continue;
    for (const Placement& q : b.placements) same += q.region == p.region && q.kind == p.kind && q.centre_mm == p.centre_mm;
  }
  int outside9 = 0;
  for (const Placement& p : a.placements) outside9 += p.region != 9;
  EXPECT_EQ(same, outside9);
}

// What the truth says is what is drawn: in a clean overhead photo, the pixel at each lone token's projected centre
// shows the token (the composited world there), not the empty board.
TEST(Scene, TokensAreDrawnWhereTheTruthPutsThem) {
  TableOptions to;
  to.map = "2p";
  auto table = MakeSyntheticTable(to);
  ASSERT_TRUE(table.ok()) << table.error();
  const SyntheticTable& t = **table;
  auto map = engine::BuiltinMap("2p");
  const auto boards = Boards(*map, 11, 15);
  const CameraShot shot = OverheadShot({1920, 1080}, t.layout.board_mm, 0.9);
  int checked = 0, shown = 0;
  for (size_t b = 0; b < boards.size(); b += 2) {
    SceneOptions so;
    so.seed = b;
    Scene scene;
    const cv::Mat frame = RenderScene(t, boards[b], so, shot, &scene);
    const cv::Point3d camera = CameraOverBoard(shot, t.layout.board_mm);
    const World world = ComposeWorld(t.empty, scene, shot.light, &camera);
    for (const Placement& p : scene.placements) {
      bool lone = true;
      for (const Placement& q : scene.placements) {
        if (&q != &p && cv::norm(q.centre_mm - p.centre_mm) < (DesignOf(q.kind).size_mm + DesignOf(p.kind).size_mm) / 2) lone = false;
      }
      if (!lone) continue;
      // Mean colours over a 3 mm disc at the centre: in the photo, in the composited world, on the empty board.
      const auto px = ProjectBoardPoints(shot, t.layout.board_mm, {p.centre_mm, p.centre_mm + cv::Point2d(3, 0)});
      const cv::Point2d wpx = (p.centre_mm - world.origin_mm) * world.px_per_mm;
      auto disc_mean = [](const cv::Mat& img, cv::Point2d c, double r) {
        cv::Mat mask(img.size(), CV_8U, cv::Scalar(0));
        cv::circle(mask, cv::Point(cvRound(c.x), cvRound(c.y)), std::max(1, cvRound(r)), cv::Scalar(255), cv::FILLED);
        const cv::Scalar m = cv::mean(img, mask);
        return cv::Vec3d(m[0], m[1], m[2]);
      };
      const cv::Vec3d seen = disc_mean(frame, px[0], cv::norm(px[1] - px[0]));
      const cv::Vec3d drawn = disc_mean(world.image, wpx, 3 * world.px_per_mm);
      const cv::Vec3d empty = disc_mean(t.empty.image, wpx, 3 * world.px_per_mm);
      ++checked;
      const double to_token = cv::norm(seen - drawn);
      const double to_empty = cv::norm(seen - empty);
      shown += to_token < 25 && (to_token < to_empty || cv::norm(drawn - empty) < 25);
    }
  }
  EXPECT_GT(checked, 50);
  EXPECT_GE(shown, checked * 97 / 100) << shown << " of " << checked << " lone tokens show at their centre";
}

TEST(BoardArt, MarkersAreReadableAndTheArtIsDeterministic) {
  auto map = engine::BuiltinMap("3p");
  auto layout = GenerateLayout(**map, LayoutOptions{});
  AddCornerMarkers(*layout);
  BoardArtOptions o;
  o.px_per_mm = 2;
  const cv::Mat a = RenderBoard(**map, *layout, o);
  const cv::Mat b = RenderBoard(**map, *layout, o);
  ASSERT_EQ(a.size(), cv::Size(1200, 800));
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(a, cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50), corners, ids);
  ASSERT_EQ(ids.size(), 4u);
  for (size_t i = 0; i < ids.size(); ++i) {  // where the layout says, to a pixel
    const cv::Point2d want = layout->markers->corners.at(ids[i]) * o.px_per_mm;
    EXPECT_LT(cv::norm(cv::Point2d(corners[i][0]) - want), 1.5) << "marker " << ids[i];
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<int>{0, 1, 2, 3}));
  o.seed = 2;
  EXPECT_GT(cv::norm(a, RenderBoard(**map, *layout, o), cv::NORM_L1), 0) << "another seed paints another board";
}

TEST(BoardArt, TerrainsLookDifferentAndVaryWithin) {
  auto map = engine::BuiltinMap("4p");
  auto layout = GenerateLayout(**map, LayoutOptions{});
  BoardArtOptions o;
  o.px_per_mm = 1.5;
  o.markers = false;
  const cv::Mat art = RenderBoard(**map, *layout, o);
  const cv::Mat labels = calibration::RasterizeLayout(*layout, 1.5);
  std::map<int, std::vector<cv::Vec3d>> means;
  for (const engine::Region& r : (*map)->regions) {
    cv::Mat mask = labels == r.id;
    cv::erode(mask, mask, cv::Mat(), cv::Point(-1, -1), 4);
    cv::Scalar mean, stddev;
    cv::meanStdDev(art, mean, stddev, mask);
    EXPECT_GT(stddev[0] + stddev[1] + stddev[2], 12) << "region " << r.id << " is flat";
    means[static_cast<int>(r.terrain)].push_back(cv::Vec3d(mean[0], mean[1], mean[2]));
  }
  std::vector<cv::Vec3d> terrain_mean;
  for (auto& [t, v] : means) {
    cv::Vec3d m(0, 0, 0);
    for (auto& x : v) m += x;
    terrain_mean.push_back(m / static_cast<double>(v.size()));
  }
  for (size_t i = 0; i < terrain_mean.size(); ++i) {
    for (size_t j = i + 1; j < terrain_mean.size(); ++j) EXPECT_GT(cv::norm(terrain_mean[i] - terrain_mean[j]), 20) << i << " " << j;
  }
}

}  // namespace
}  // namespace swref::datasets
