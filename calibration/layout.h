// The board layout (`smallworld-layout/1`, docs/architecture.md): the outline of every region of a printed board
// in board millimetres (origin top-left, x right, y down), and optionally the 4 corner ArUco markers. Parsing with
// errors that name the field, writing, rasterising to a label image, and measuring which regions share a border
// and which touch the board edge, to compare with the map's adjacency.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "engine/map.h"
#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kLayoutFormat = "smallworld-layout/1";
inline constexpr double kMaxBoardSideMm = 2000;     // a board side, mm (the official boards: 600-800 mm)
inline constexpr size_t kMaxLayoutPoints = 200000;  // polygon points over all regions (the assist's: ~5,000)
inline constexpr size_t kMaxLayoutMarkers = 16;     // corner markers

struct LayoutMarkers {
  std::string dictionary = "DICT_4X4_50";
  double size_mm = 40;
  std::map<int, cv::Point2d> corners;   // marker id -> board position of its top-left corner
};
// The white frame of a printed marker (`swref print markers`) around its black square: 8 mm, and never less than
// one marker cell, the quiet zone the detector needs.
inline double MarkerFrameMm(double size_mm) { return std::max(8.0, size_mm / 6); }

struct Layout {
  std::string map;                                  // "2p".."5p" or a map file path
  cv::Size2d board_mm{600, 400};
  std::vector<std::vector<cv::Point2d>> regions;    // regions[id]: the outline, mm
  std::optional<LayoutMarkers> markers;
};

engine::Result<Layout> ParseLayout(const nlohmann::json& doc, const std::string& where);
engine::Result<Layout> ReadLayoutFile(const std::string& path);
nlohmann::ordered_json ToJson(const Layout& layout);

// A label image of the board at `px_per_mm`: CV_32S, region id per pixel, -1 where no region lies.
cv::Mat RasterizeLayout(const Layout& layout, double px_per_mm);

struct LayoutTopology {
  std::map<std::pair<int, int>, double> shared_mm;  // (a < b) -> length of border they share, mm
  std::vector<double> edge_mm;                      // per region: length of board edge it touches, mm
  std::vector<double> area_mm2;
  double uncovered_mm2 = 0;                         // board area no region covers
};

// Measured on a raster (px_per_mm); a contact shorter than a few pixels is a corner, not a border.
LayoutTopology MeasureTopology(const Layout& layout, double px_per_mm = 4.0);

// Every difference between the layout and the map: a missing or extra border, a border region that does not
// touch the edge or another that does, a region count mismatch. Empty when they agree. `min_border_mm`: the
// shortest contact that counts as a shared border.
std::vector<std::string> CompareWithMap(const LayoutTopology& topology, const engine::Map& map, double min_border_mm = 2.0);

}  // namespace swref::calibration
