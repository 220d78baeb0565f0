#include "calibration/layout.h"

#include <gtest/gtest.h>

#include <limits>

#include "datasets/layout_gen.h"

namespace swref::calibration {
namespace {

using nlohmann::json;

json Square() {  // two regions side by side on a 200 x 100 board
  return json::parse(R"({"format": "smallworld-layout/1", "map": "two", "board_mm": [200, 100],
    "regions": [{"id": 0, "polygon": [[0, 0], [100, 0], [100, 100], [0, 100]]},
                {"id": 1, "polygon": [[100, 0], [200, 0], [200, 100], [100, 100]]}]})");
}

TEST(ParseLayout, Nominal) {
  auto layout = ParseLayout(Square(), "l.json");
  ASSERT_TRUE(layout.ok()) << layout.error();
  const LayoutTopology t = MeasureTopology(*layout, 4.0);
  EXPECT_NEAR(t.shared_mm.at({0, 1}), 100, 1);
  EXPECT_NEAR(t.area_mm2[0], 10000, 50);
  EXPECT_NEAR(t.edge_mm[1], 300, 2);
  EXPECT_LT(t.uncovered_mm2, 1);
}

TEST(ParseLayout, Roundtrip) {
  auto layout = ParseLayout(Square(), "l.json");
  auto again = ParseLayout(json::parse(ToJson(*layout).dump()), "again");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(ToJson(*again), ToJson(*layout));
}

TEST(ParseLayout, RejectsXNamingTheField) {
  struct Case {
    std::string pointer;
    json value;
    std::string error;
  };
  const Case cases[] = {
      {"/format", "x", "l.json.format: expected \"smallworld-layout/1\""},
      {"/board_mm", json::array({200}), "l.json.board_mm: expected [width, height] in mm, 1..2000 each"},
      {"/regions/1/id", 0, "l.json.regions[1].id: 0 is used twice"},
      {"/regions/1/id", 5, "l.json.regions[1].id: 5 is out of range 0..1"},
      {"/regions/0/polygon", json::array({json::array({0, 0})}), "l.json.regions[0].polygon: expected at least 3 points [x, y]"},
      {"/regions/0/polygon/2", json::array({500, 50}), "l.json.regions[0].polygon[2]: (500.000000, 50.000000) lies off the board"},
  };
  for (const Case& c : cases) {
    json doc = Square();
    doc[json::json_pointer(c.pointer)] = c.value;
    auto layout = ParseLayout(doc, "l.json");
    ASSERT_FALSE(layout.ok()) << c.pointer;
    EXPECT_EQ(layout.error(), c.error);
  }
}

// A "format" or marker dictionary that is not a string threw out of the parser; a huge board was taken (and
// rasterised: 1e300 mm); an id beyond int was cast; "1x" was marker 1.
TEST(ParseLayout, RejectsHostileValuesAndKeepsTheLimits) {
  struct Case {
    std::string pointer;
    json value;
    std::string error;
  };
  const Case cases[] = {
      {"/format", 7, "l.json.format: expected \"smallworld-layout/1\""},
      {"/board_mm/0", 1e300, "l.json.board_mm: expected [width, height] in mm, 1..2000 each"},
      {"/board_mm/0", 2001, "l.json.board_mm: expected [width, height] in mm, 1..2000 each"},
      {"/regions/1/id", 18446744073709551615ULL, "l.json.regions[1].id: 18446744073709551615 is out of range 0..1"},
      {"/regions/0/polygon/0", json::array({std::numeric_limits<double>::infinity(), 0}), "l.json.regions[0].polygon[0]: expected [x, y] in mm"},
      {"/markers", json::parse(R"({"dictionary": 4, "size_mm": 40, "corners": {}})"), "l.json.markers.dictionary: expected a dictionary name"},
      {"/markers", json::parse(R"({"size_mm": 40, "corners": {"1x": [0, 0]}})"), "l.json.markers.corners: \"1x\" is not a marker id"},
      {"/markers", json::parse(R"({"size_mm": 1e300, "corners": {}})"), "l.json.markers.size_mm: expected a positive number no larger than the board"},
  };
  for (const Case& c : cases) {
    json doc = Square();
    doc[json::json_pointer(c.pointer)] = c.value;
    auto layout = ParseLayout(doc, "l.json");
    ASSERT_FALSE(layout.ok()) << c.pointer;
    EXPECT_EQ(layout.error(), c.error);
  }
  json many = Square();
  for (int i = 2; i <= engine::kMaxRegions; ++i) many["regions"].push_back(many["regions"][0]);
  EXPECT_EQ(ParseLayout(many, "l.json").error(), "l.json.regions: 251 regions, more than the limit of 250");
  json points = Square();
  points["regions"][0]["polygon"] = json::array();
  for (size_t i = 0; i <= kMaxLayoutPoints; ++i) points["regions"][0]["polygon"].push_back({i % 200, 50});
  EXPECT_EQ(ParseLayout(points, "l.json").error(), "l.json.regions: more than 200000 polygon points in all");
}

TEST(CompareWithMap, NamesABrokenBorder) {
  auto map = engine::BuiltinMap("2p");
  auto layout = datasets::GenerateLayout(**map, datasets::LayoutOptions{});
  ASSERT_TRUE(layout.ok());
  // Swap the outlines of regions 9 and 22 (an inland farmland and a border sea): every border of both is wrong.
  std::swap(layout->regions[9], layout->regions[22]);
  const auto problems = CompareWithMap(MeasureTopology(*layout, 2.0), **map);
  ASSERT_FALSE(problems.empty());
  bool named = false;
  for (const auto& p : problems) named = named || p.find("region 9 is not a border region but touches the board edge") != std::string::npos;
  EXPECT_TRUE(named) << problems[0];
}

TEST(CompareWithMap, CountsRegions) {
  auto map = engine::BuiltinMap("2p");
  auto layout = ParseLayout(Square(), "l.json");
  const auto problems = CompareWithMap(MeasureTopology(*layout, 2.0), **map);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "the layout has 2 regions, map 2p has 23");
}

}  // namespace
}  // namespace swref::calibration
