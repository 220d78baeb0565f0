// A board layout for any map topology: region outlines whose shared borders are exactly the map's adjacency,
// with every border region on the board's edge and no other region touching it, and organic, wiggly borders.
//
// Method: the map plus an "outside" vertex is planar (engine/planarity.h gives a rotation system). Faces of
// degree 4 or more are stellated with a dummy vertex, which makes a triangulation; the outside vertex's link
// becomes the board's rim (a circle), and Tutte's barycentric embedding places the rest (planar for a
// triangulation, Tutte 1963). A gradient descent on the spread of region areas, which never lets a triangle flip,
// evens out the region sizes. Each region is the star of its vertex in the barycentric subdivision (edge
// midpoints and triangle centroids); a dummy's star goes to its neighbours, which then meet at a single point, as
// four regions meeting at a corner do on a printed map. Borders get a smooth random wiggle shared by both sides,
// and the disk is mapped onto the board rectangle (Fong's elliptical grid mapping). The result is measured on a
// raster and compared with the map; wiggles are reduced if a check fails.
#pragma once

#include <cstdint>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/layout.h"
#include "engine/map.h"
#include "engine/result.h"

namespace swref::datasets {

struct LayoutOptions {
  cv::Size2d board_mm{600, 400};  // the printed board's size, mm
  uint64_t seed = 1;              // wiggles of the borders
  double wiggle = 0.12;           // wiggle amplitude as a fraction of a border segment's length (0 = straight)
  int relax_iterations = 150;     // sweeps of area evening (0 = plain Tutte embedding)
  std::string Check() const;      // "" or the first problem
};

engine::Result<calibration::Layout> GenerateLayout(const engine::Map& map, const LayoutOptions& options);

}  // namespace swref::datasets
