// Board setup (`swref setup board`): where the board lies in the camera's view of the empty board, and where each
// of its regions is. Registration comes from the four corner ArUco markers when the layout has them, otherwise
// from the board's outline in the reference photo (later frames are matched against the reference's features by
// the observer). The layout is either imported from a file or made with the region assist: the user gives one
// point inside each region with its id, and the assist grows each region from its point up to the printed borders.
// Either way the layout's adjacency must equal the map's; every mismatch is named.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/layout.h"
#include "engine/map.h"
#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kSetupFormat = "swref-setup/1";

enum class Registration { kMarkers, kOutline, kFeatures };
const char* ToString(Registration r);

struct BoardPose {
  Registration mode = Registration::kMarkers;
  cv::Matx33d image_from_board = cv::Matx33d::eye();  // board mm -> reference pixels
  double residual_px = 0;                              // RMS of the fit (markers: over their 16 corners)
  std::vector<int> markers_found;
};

// The 4 corner markers of `markers` in `image` (at least 3 must be found, else an error naming the missing ids).
engine::Result<BoardPose> RegisterByMarkers(const cv::Mat& image, const LayoutMarkers& markers, const std::string& where);

// The board's outline: the largest convex quadrilateral of strong edges, its sides refined by line fits. The
// board's top-left corner is taken to be the one nearest the image's top-left (photograph the board upright).
engine::Result<BoardPose> RegisterByOutline(const cv::Mat& image, cv::Size2d board_mm, const std::string& where);

// Later frames without markers: ORB features of the frame matched to the empty-board reference (RANSAC), then the
// homography refined by enhanced-correlation alignment of the two images (sub-pixel). Tokens on the board are
// outliers to both. Build the matcher once per setup: it keeps the reference's features.
class FeatureRegistration {
 public:
  FeatureRegistration(const cv::Mat& reference, const cv::Matx33d& reference_from_board);
  engine::Result<BoardPose> Register(const cv::Mat& frame, const std::string& where) const;

 private:
  cv::Mat reference_grey_;
  cv::Matx33d reference_from_board_;
  std::vector<cv::KeyPoint> keypoints_;
  cv::Mat descriptors_;
};

// The image's scale at a board point: pixels per board millimetre (the square root of the homography's local
// area ratio there).
double PxPerMmAt(const cv::Matx33d& image_from_board, cv::Point2d board_mm);

// The empty board rectified to board coordinates (px_per_mm), for the assist and for the observer.
cv::Mat RectifyBoard(const cv::Mat& image, const cv::Matx33d& image_from_board, cv::Size2d board_mm, double px_per_mm);

// The region assist: from one seed point (board mm) per region id, grows the regions over the rectified empty
// board up to its printed borders (a marker-controlled flood over a thin-dark-line map) and outlines them. The
// squares of `markers` (stuck on the board) are not taken for borders.
// Every pixel of the board ends up in some region, so neighbouring outlines meet.
engine::Result<Layout> AssistLayout(const cv::Mat& rectified, double px_per_mm, cv::Size2d board_mm,
                                    const std::map<int, cv::Point2d>& seeds_mm, const engine::Map& map,
                                    const std::optional<LayoutMarkers>& markers = std::nullopt);

// Overlap between regions of a layout, mm² per pair (a layout whose polygons overlap by more than `tolerance_mm2`
// is refused by setup, naming the pair).
std::vector<std::string> FindOverlaps(const Layout& layout, double tolerance_mm2 = 20);

struct SetupRequest {
  std::string map = "2p";
  std::string layout;                 // a layout file; or empty with `points`
  std::string points;                 // the assist's seeds: {"points_px": {"<region id>": [x, y], ...}} in the reference
  cv::Size2d board_mm{0, 0};          // the board's size when there is no layout file (assist)
  std::string reference;              // the empty board photographed by the table camera
  std::string camera;                 // optional camera.json (intrinsics); copied into the setup
  std::string out;                    // the setup folder
  bool markers = true;                // assist: the board carries the 4 corner markers (layout.markers at their
                                      // default place: 40 mm, 8 mm from the edges)
};

struct BoardSetup {
  std::string map;
  Layout layout;
  BoardPose pose;
  cv::Size reference_size;
  bool has_camera = false;
};

// Does everything and writes SETUP/setup.json, reference.png, layout.json (+ camera.json). Nothing is written
// when a check fails.
engine::Result<BoardSetup> SetupBoard(const SetupRequest& request);
engine::Result<BoardSetup> ReadSetup(const std::string& dir);
// setup.json already parsed (`where` names it in errors); the layout file it names is read from `dir`.
engine::Result<BoardSetup> ParseSetup(const nlohmann::json& doc, const std::string& dir, const std::string& where);

}  // namespace swref::calibration
