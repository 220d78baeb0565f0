// Stand-in token art: a distinct design for every token kind of the box, drawn from one vector description so
// that the camera simulator's raster and the printable PDF (`swref print tokens`) show the same tokens.
//
// Token kinds (docs/architecture.md, "Names"): each of the 14 races' active side ("ratmen"), its in-decline side
// ("ratmen_decline": grey, the same symbol), "lost_tribe", and the pieces "mountain", "troll_lair", "fortress",
// "encampment", "hole", "hero", "dragon". Sizes are the printed ones: race tokens about 25 mm across, pieces a
// little larger (a mountain about 32 mm).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

namespace swref::datasets {

// All 36 kinds in a fixed order: the 14 races (engine order), their 14 decline sides, lost_tribe, the 7 pieces.
const std::vector<std::string>& AllTokenKinds();
bool IsTokenKind(std::string_view kind);

// One primitive of a token's design, in millimetres with the token's centre at (0, 0), x right, y down.
struct TokenShape {
  enum class Type { kPolygon, kCircle, kPolyline };
  Type type = Type::kPolygon;
  std::vector<cv::Point2d> points;  // polygon or polyline vertices; for a circle points[0] is the centre
  double radius_mm = 0;             // circles only
  cv::Scalar bgr;                   // colour, 0..255 each
  double line_mm = 0;               // 0: filled; > 0: stroked with this width
};

struct TokenDesign {
  std::string kind;
  double size_mm = 25;                 // width of the footprint's bounding box
  std::vector<cv::Point2d> outline;    // the footprint (cut line), mm, closed polygon
  std::vector<TokenShape> shapes;      // painted in order over the footprint
  cv::Scalar edge_bgr;                 // colour of the cardboard's cut edge (seen on stacks and tilted tokens)
};

// The design of a kind; throws std::invalid_argument for an unknown kind (check IsTokenKind first).
const TokenDesign& DesignOf(std::string_view kind);

// The token seen from straight above at `px_per_mm`, rotated by `rotation_deg` (counter-clockwise in the
// image): CV_8UC4 BGRA, premultiplied NOT, alpha 255 inside the footprint with an anti-aliased rim, 0 outside.
// The image is square and odd-sized, the token's centre at its centre pixel.
cv::Mat RenderToken(std::string_view kind, double px_per_mm, double rotation_deg = 0);

// The axis-aligned bounding box of a polygon's vertices (mm).
cv::Rect2d Bounds(const std::vector<cv::Point2d>& polygon);

}  // namespace swref::datasets
