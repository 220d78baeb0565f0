// What the GUI draws over a camera frame (the Play screen, the setup wizard): every region's outline and the
// point to label it at, in frame pixels, from the setup's layout and the board's pose in the frame (lens
// distortion included); and every token the observer named in its last frame, where it lies in the frame.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/board_setup.h"
#include "engine/result.h"
#include "vision/observer.h"

namespace swref::core {

struct OverlayRegion {
  int id = -1;
  std::vector<cv::Point2f> outline;  // frame pixels
  cv::Point2f label;                 // where its id reads best: the outline's point farthest inside
};

struct OverlayToken {
  cv::Point2f at;    // its centre, frame pixels
  std::string kind;  // the token kind named
  double confidence = 0;
  int region = -1;
  int stack = 1;        // > 1: a neat stack of at least this many
  bool unsure = false;  // a low confidence, or perhaps a stack
};

struct BoardOverlay {
  bool placed = false;  // the board's pose is known (false before the first registration)
  std::vector<OverlayRegion> regions;
  std::vector<OverlayToken> tokens;
};

class OverlayMaker {
 public:
  // From a setup folder (its layout, and its camera when it has one). Errors name the file.
  static engine::Result<OverlayMaker> Load(const std::string& setup_dir);

  // The regions where the observer last found the board, and the tokens it named there.
  BoardOverlay Make(const vision::Observer& observer) const;
  // The regions on the setup's own reference photo (undistorted, as setup wrote it).
  BoardOverlay OnReference() const;
  // The regions for any pose (image_from_board in undistorted pixels); `lens` false: no lens distortion.
  BoardOverlay ForPose(const cv::Matx33d& image_from_board, bool lens) const;

 private:
  calibration::BoardSetup setup_;
  cv::Matx33d K_ = cv::Matx33d::eye();
  std::vector<double> dist_;
  std::vector<cv::Point2d> labels_mm_;  // per region
};

}  // namespace swref::core
