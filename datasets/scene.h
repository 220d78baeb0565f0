// Scenes from game states: where every token and piece of an engine board lies on the printed board, and the
// top-down "world" image (table, board art, tokens with soft shadows) that the camera simulator photographs.
//
// Placement, region by region: pieces first (a mountain, a troll lair, a fortress... near the region's middle),
// then the lost tribe, then the race's tokens. Tokens are mostly spread out without touching; in some regions
// they partly overlap (each still shows enough to be counted); in some a few lie in a neat stack, which from
// above looks like one token: its truth records the count and that the count cannot be seen
// (tokens_certain = false). Every centre lies inside its region, well away from the border.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/layout.h"
#include "datasets/camera.h"
#include "engine/board.h"
#include "engine/map.h"
#include "vision/observation.h"

namespace swref::datasets {

struct Placement {
  std::string kind;            // token kind (token_art.h)
  int region = -1;
  cv::Point2d centre_mm;       // board mm
  double rotation_deg = 0;
  int stack = 1;               // tokens in a neat stack at this spot (1: a single token)
};

struct SceneOptions {
  double overlap_rate = 0.2;   // chance that a region's tokens partly overlap
  double stack_rate = 0.15;    // chance that a region with 2+ tokens has a neat stack of 2..4 of them
  uint64_t seed = 1;
};

struct Scene {
  std::vector<Placement> placements;
  vision::Observation truth;   // every region; tokens_certain = false where a stack hides the count
};

// The regions of a layout on a 1 px/mm raster, with each pixel's distance to the nearest border (or board edge),
// made once per layout and shared by every scene.
class PlacementGrid {
 public:
  explicit PlacementGrid(const calibration::Layout& layout);
  int RegionAt(cv::Point2d mm) const;                 // -1 outside every region
  double Clearance(cv::Point2d mm) const;             // mm to the nearest border
  const std::vector<cv::Point>& Pixels(int region) const { return pixels_[region]; }
  const calibration::Layout& layout() const { return *layout_; }

 private:
  const calibration::Layout* layout_;
  cv::Mat labels_;     // CV_32S
  cv::Mat clearance_;  // CV_32F, mm
  std::vector<std::vector<cv::Point>> pixels_;  // per region, pixels with clearance >= 6 mm (or the best it has)
};

// Places the contents of `board`. Throws nothing; a region too small for its tokens gets overlaps, then stacks.
Scene PlaceBoard(const engine::Board& board, const PlacementGrid& grid, const SceneOptions& options);

// The world the camera photographs: `table_and_board` (the empty board on its table, see MakeEmptyWorld) with the
// scene's tokens composited, each with a soft shadow falling along `light.shadow_deg`, as long as the token (or
// stack) is tall. With `camera` (CameraOverBoard), tokens show their height: the top face is drawn displaced away
// from the point below the camera, the cardboard's cut wall between it and the board (a stack of four shows a
// wall four times as wide as a single token's).
World ComposeWorld(const World& table_and_board, const Scene& scene, const Lighting& light, const cv::Point3d* camera = nullptr);

inline constexpr double kTokenThicknessMm = 1.8;  // a cardboard token

// The empty board lying on a table, with `margin_mm` of table around it.
World MakeEmptyWorld(const cv::Mat& board_art, cv::Size2d board_mm, double px_per_mm, const cv::Mat& table_art,
                     double margin_mm);

}  // namespace swref::datasets
