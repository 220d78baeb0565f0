#include "datasets/layout_gen.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/board_setup.h"
#include "engine/rng.h"

namespace swref::datasets {
namespace {

using nlohmann::json;

// `max_gap`: the share of the board no region may leave uncovered. Where regions meet at a stellated face, each
// stops just short of the meeting point; on the official maps those specks add up to a few mm2, on random user maps
// with many such junctions to more (a known weakness, see docs/architecture.md).
void ExpectMatchesMap(const calibration::Layout& layout, const engine::Map& map, double max_gap = 1e-4) {
  const calibration::LayoutTopology t = calibration::MeasureTopology(layout, 4.0);  // finer than the generator's own check
  const std::vector<std::string> problems = calibration::CompareWithMap(t, map);
  EXPECT_TRUE(problems.empty()) << map.key << ": " << problems.size() << " problems, first: " << (problems.empty() ? "" : problems[0]);
  const double board = layout.board_mm.area();
  EXPECT_LT(t.uncovered_mm2, board * max_gap) << "gaps between regions";
  const std::vector<std::string> overlaps = calibration::FindOverlaps(layout, 1);
  EXPECT_TRUE(overlaps.empty()) << map.key << ": " << overlaps.size() << " overlapping pairs, first: " << (overlaps.empty() ? "" : overlaps[0]);
  for (int r = 0; r < map.size(); ++r)
    EXPECT_GT(t.area_mm2[r], board / map.size() / 8) << map.key << " region " << r << " is tiny: " << t.area_mm2[r] / (board / map.size()) << " of the mean";
}

TEST(GenerateLayout, OfficialMapsMatchTheirAdjacency) {
  for (const std::string& key : engine::BuiltinMapKeys()) {
    auto map = engine::BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    auto layout = GenerateLayout(**map, LayoutOptions{});
    ASSERT_TRUE(layout.ok()) << layout.error();
    EXPECT_EQ(layout->regions.size(), static_cast<size_t>((*map)->size()));
    ExpectMatchesMap(*layout, **map);
  }
}

// Seeds that once gave overlapping regions where four regions meet (2p: regions 1, 2, 5, 6).
TEST(GenerateLayout, RegionsNeverOverlapOverManySeeds) {
  for (const std::string& key : engine::BuiltinMapKeys()) {
    auto map = engine::BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    for (uint64_t seed : {1000ULL, 8919ULL, 32676ULL, 24757ULL, 127704ULL, 135623ULL}) {
      LayoutOptions o;
      o.seed = seed;
      auto layout = GenerateLayout(**map, o);
      ASSERT_TRUE(layout.ok()) << layout.error();
      const std::vector<std::string> overlaps = calibration::FindOverlaps(*layout, 1);
      EXPECT_TRUE(overlaps.empty()) << key << " seed " << seed << ": " << overlaps[0];
    }
  }
}

TEST(GenerateLayout, DeterministicForASeed) {
  auto map = engine::BuiltinMap("3p");
  LayoutOptions o;
  o.seed = 9;
  auto a = GenerateLayout(**map, o), b = GenerateLayout(**map, o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(calibration::ToJson(*a), calibration::ToJson(*b));
  o.seed = 10;
  EXPECT_NE(calibration::ToJson(*GenerateLayout(**map, o)), calibration::ToJson(*a));
}

// A user map as a real board would give one: a Voronoi diagram of random sites on a board, read off a raster
// (regions sharing at least 3 mm of border are adjacent; those on the edge are border regions).
std::optional<json> RandomUserMap(uint64_t seed, int regions) {
  engine::Rng rng(seed);
  const int w = 300, h = 200;
  std::vector<cv::Point2d> sites;
  for (int i = 0; i < regions; ++i) {
    // Two draws in one argument list are indeterminately sequenced (GCC drew y first, clang x): draw y, then x, so
    // every compiler gets the maps the test has always used.
    const double y = rng.Below(h * 10) / 10.0;
    const double x = rng.Below(w * 10) / 10.0;
    sites.emplace_back(x, y);
  }
  cv::Mat labels(h, w, CV_32S);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int best = 0;
      for (int i = 1; i < regions; ++i)
        if (cv::norm(sites[i] - cv::Point2d(x, y)) < cv::norm(sites[best] - cv::Point2d(x, y))) best = i;
      labels.at<int>(y, x) = best;
    }
  std::map<std::pair<int, int>, int> contact;
  std::vector<int> edge(regions, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int a = labels.at<int>(y, x);
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) ++edge[a];
      if (x + 1 < w && labels.at<int>(y, x + 1) != a) ++contact[{std::min(a, labels.at<int>(y, x + 1)), std::max(a, labels.at<int>(y, x + 1))}];
      if (y + 1 < h && labels.at<int>(y + 1, x) != a) ++contact[{std::min(a, labels.at<int>(y + 1, x)), std::max(a, labels.at<int>(y + 1, x))}];
    }
  const char* terrains[] = {"farmland", "forest", "hill", "mountain", "swamp"};
  json doc = {{"name", "random"}, {"players", 3}, {"turns", 10}, {"regions", json::array()}, {"adjacency", json::array()}};
  for (int i = 0; i < regions; ++i)
    doc["regions"].push_back({{"id", i}, {"terrain", terrains[rng.Below(5)]}, {"border", edge[i] >= 3}});
  for (auto [pair, n] : contact)
    if (n >= 3) doc["adjacency"].push_back({pair.first, pair.second});
  return doc;
}

TEST(GenerateLayout, RandomUserMapsMatchTheirAdjacency) {
  int tried = 0;
  for (uint64_t seed = 1; tried < 6 && seed < 40; ++seed) {
    auto doc = RandomUserMap(seed, 12 + static_cast<int>(seed % 5) * 7);
    auto map = engine::ParseMap(*doc, "random map " + std::to_string(seed));
    if (!map.ok()) continue;  // a raster can produce a contact graph that is not a map (rare); skip it
    ++tried;
    auto layout = GenerateLayout(**map, LayoutOptions{});
    ASSERT_TRUE(layout.ok()) << layout.error();
    ExpectMatchesMap(*layout, **map, 5e-3);
  }
  EXPECT_EQ(tried, 6);
}

TEST(GenerateLayout, RejectsBadOptions) {
  auto map = engine::BuiltinMap("2p");
  LayoutOptions o;
  o.wiggle = 0.9;
  auto layout = GenerateLayout(**map, o);
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.error(), "layout options: wiggle: from 0 to 0.3");
}

}  // namespace
}  // namespace swref::datasets
