// The observer: from one camera frame to an Observation of every region (docs/architecture.md, pipeline steps
// 1-4). It knows token kinds, not rules. One stage a file:
//   register.cpp  where the board is in the frame (corner markers, else features matched to the reference photo)
//   detect.cpp    the frame in board coordinates, its light matched to the empty-board reference, and the
//                 foreground cut into token instances
//   gate.cpp      arms over the board or a global light change: status "motion", nothing else reported
//   classify.cpp  each instance named by the enrolled appearance model; tokens counted per region, stacks
//                 reported as uncertain lower bounds
// Each stage times itself and may hand its intermediate image to a debug sink (`swref observe --debug-dir`).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/appearance.h"
#include "calibration/board_setup.h"
#include "engine/map.h"
#include "engine/result.h"
#include "vision/observation.h"

namespace swref::vision {

// Receives a stage's intermediate image (name like "2-foreground") for debugging.
using DebugSink = std::function<void(const std::string& name, const cv::Mat& image)>;

inline constexpr int kMaxImageSide = 8192;  // larger frames are refused as bad_image (documented limit)

struct ObserverOptions {
  double px_per_mm = 2.0;           // resolution of the board-coordinate image the detector works on
  double foreground_threshold = 14; // colour difference (Lab, after light matching) that counts as foreground
  double motion_area_mm2 = 25000;   // a foreground piece larger than this is an arm (a forearm is ~80 x 300 mm)
  double min_confidence = kUncertainBelow;  // below this a token's kind is uncertain (its region is reported uncertain)
};

// One token seen on the board, in board millimetres.
struct Instance {
  cv::Point2d centre_mm;
  double radius_mm = 0;             // inscribed radius of its visible footprint
  int region = -1;
  std::string kind;
  double confidence = 0;
  bool stack = false;               // looks thicker than a single token (a neat stack)
};

// The table around the board (a 40 mm ring at 1 px/mm, board coordinates), watched for arms (gate.cpp).
struct EdgeRing {
  cv::Mat bgr;                      // CV_8UC3, the ring in board coordinates
  cv::Mat valid;                    // CV_8U, 255 where the ring was in view (and is outside the board's cut edge)
};

struct StageTimes {
  double decode = 0, register_ = 0, rectify = 0, gate = 0, detect = 0, classify = 0, total = 0;
};

class Observer {
 public:
  // From a setup folder with an enrolled appearance model (SETUP/tokens/model.json).
  static engine::Result<Observer> Load(const std::string& setup_dir, const ObserverOptions& options = {});
  Observer(calibration::BoardSetup setup, std::shared_ptr<const engine::Map> map, calibration::AppearanceModel model,
           cv::Mat reference, const ObserverOptions& options);

  // One frame. Never throws for a bad frame: it is reported as status bad_image (or no_board) with a reason.
  Observation Observe(const cv::Mat& frame, const std::string& name);
  // Reads the file first (a truncated or unreadable file is bad_image).
  Observation ObserveFile(const std::string& path, const std::string& name);

  void SetDebugSink(DebugSink sink) { debug_ = std::move(sink); }
  // Frames from a calibrated camera are undistorted first (the setup's reference already is).
  void SetCamera(const cv::Matx33d& K, const std::vector<double>& dist, cv::Size image_size);
  const std::vector<Instance>& last_instances() const { return instances_; }
  const StageTimes& last_times() const { return times_; }
  const std::string& last_reason() const { return reason_; }

 private:
  calibration::BoardSetup setup_;
  std::shared_ptr<const engine::Map> map_;
  calibration::AppearanceModel model_;
  ObserverOptions options_;
  cv::Mat reference_board_;         // the empty board in board coordinates (CV_8UC3)
  cv::Mat reference_lab_;           // ... in Lab, float
  cv::Mat reference_bgr_f_;         // ... as float BGR 0..255
  cv::Mat region_labels_;           // region id per board pixel (CV_32S)
  EdgeRing reference_ring_;         // the table around the board in the reference photo
  std::shared_ptr<const calibration::FeatureRegistration> features_;  // boards without markers
  DebugSink debug_;
  cv::Mat undistort_x_, undistort_y_;   // maps for the calibrated camera's frames, empty without a camera
  cv::Size camera_size_;
  std::vector<Instance> instances_;
  StageTimes times_;
  std::string reason_;
};

// --- the stages, for the observer and for their tests -------------------------------------------------------

// Step 1: the board's pose in this frame: the corner markers when the layout has them, else `features` (the
// empty-board reference photo's features; without it, the board's outline).
engine::Result<calibration::BoardPose> RegisterFrame(const cv::Mat& frame, const calibration::Layout& layout,
                                                     const calibration::FeatureRegistration* features = nullptr);

// Step 3a: the frame in board coordinates, its light matched to the reference (per-channel gains, then a smooth
// gain field fitted on the pixels that look like the empty board). Returns Lab float images.
struct Rectified {
  cv::Mat bgr;                      // CV_8UC3, board coordinates, as the camera saw it
  cv::Mat matched;                  // CV_8UC3, ... its light matched to the reference's
  cv::Mat lab;                      // CV_32FC3, `matched` in Lab
  double light_change = 0;          // how far the global gains were from 1 (a lamp switched on or off)
};
// `reference_bgr`: the empty board in board coordinates, CV_32FC3, 0..255.
Rectified RectifyAndMatch(const cv::Mat& frame, const cv::Matx33d& image_from_board, cv::Size2d board_mm, double px_per_mm,
                          const cv::Mat& reference_bgr);

// Step 3b: foreground (tokens, arms) against the reference: colour difference, with shadows (darker, same
// chroma) and glare (brighter, washed out) kept out; glare is returned separately.
struct Foreground {
  cv::Mat mask;                     // CV_8U, 255 = something lies here
  cv::Mat glare;                    // CV_8U, 255 = washed out by glare
};
Foreground FindForeground(const Rectified& frame, const cv::Mat& reference_lab, double px_per_mm, double threshold);

// Step 2: arms over the board. First the table around the board (a 40 mm ring, 1 px/mm), against the reference
// photo's: something big there that changed and reaches the board's edge is an arm.
EdgeRing WarpEdgeRing(const cv::Mat& image, const cv::Matx33d& image_from_board, cv::Size2d board_mm);
struct TableWatch {
  bool watched = false;             // enough of the table was in view to judge
  bool arm = false;                 // something big crosses from the table to the board's edge
  cv::Mat change;                   // CV_8U, ring coordinates: what changed on the table
};
TableWatch WatchTable(const EdgeRing& frame, const EdgeRing& reference);
// Then the board: a foreground piece far too big to be tokens, or one that runs along the board's edge for a
// long stretch where (when the table was watched) the table just outside changed too.
bool IsMotion(const Foreground& fg, double px_per_mm, double max_area_mm2, const TableWatch& table, std::string* why);

// Step 3c: token instances: peaks of the foreground's distance transform, so partly overlapping tokens split.
std::vector<Instance> FindInstances(const Foreground& fg, double px_per_mm, const cv::Mat& region_labels);

// Step 4: names each instance and reports every region.
// An instance whose centre lies under glare (`glare`, may be empty) gets a confidence below any threshold.
void ClassifyInstances(std::vector<Instance>& instances, const Rectified& frame, const cv::Mat& glare, double px_per_mm,
                       const calibration::AppearanceModel& model);
Observation CountRegions(const std::vector<Instance>& instances, const engine::Map& map, const cv::Mat& glare,
                         const cv::Mat& region_labels, double min_confidence);

}  // namespace swref::vision
