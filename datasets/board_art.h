// Board art: a printed-looking board for any layout. Terrain textures that look painted and vary within a
// terrain (layered value noise, brush-stroke streaks, terrain motifs: field furrows, tree crowns, hill contours,
// rocky ridges, reeds, waves), dark region borders with a soft inked shading, light surf along coasts, the map's
// symbols (cavern, magic source, mine, lost-tribe mark) and optional ArUco markers at the corners. Also the table
// the board lies on. Deterministic for a seed.
#pragma once

#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/layout.h"
#include "engine/map.h"

namespace swref::datasets {

struct BoardArtOptions {
  double px_per_mm = 2.5;
  uint64_t seed = 1;
  bool markers = true;   // draw layout.markers when the layout has them
};

// The board seen from straight above, evenly lit: CV_8UC3 BGR, board_mm * px_per_mm in size.
cv::Mat RenderBoard(const engine::Map& map, const calibration::Layout& layout, const BoardArtOptions& options);

// Where each region's symbols are drawn (board mm), so that scenes can keep tokens beside them if they like.
std::vector<std::vector<cv::Point2d>> SymbolSpots(const engine::Map& map, const calibration::Layout& layout);

// Adds the 4 corner markers (ids 0..3: top-left, top-right, bottom-right, bottom-left) to a layout.
void AddCornerMarkers(calibration::Layout& layout, double size_mm = 40, double inset_mm = 8);

enum class TableKind { kOak, kWalnut, kPine, kFelt, kLinen };

// A table top (CV_8UC3) of `size` pixels at px_per_mm: wood planks with grain, green felt or a linen cloth.
cv::Mat RenderTable(cv::Size size, double px_per_mm, TableKind kind, uint64_t seed);

}  // namespace swref::datasets
