#include "vision/still.h"

#include <algorithm>

#include <opencv2/imgproc.hpp>

namespace swref::vision {

void StillWindow::Reset() {
  previous_.release();
  still_frames_ = 0;
  stable_ = just_stable_ = false;
}

void StillWindow::Restore(const Saved& saved, const cv::Mat& previous) {
  Reset();
  if (!previous.empty()) previous_ = Shrink(previous);
  still_frames_ = saved.still_frames;
  stable_ = saved.stable;
}

cv::Mat StillWindow::Shrink(const cv::Mat& frame) const {
  const double scale = static_cast<double>(options_.width) / frame.cols;
  const cv::Size size(options_.width, std::max(1, cvRound(frame.rows * scale)));
  cv::Mat small, grey;
  cv::resize(frame, small, size, 0, 0, cv::INTER_AREA);
  if (small.channels() == 3)
    cv::cvtColor(small, grey, cv::COLOR_BGR2GRAY);
  else if (small.channels() == 4)
    cv::cvtColor(small, grey, cv::COLOR_BGRA2GRAY);
  else
    grey = small;
  return grey;
}

StillWindow::State StillWindow::Update(const cv::Mat& frame) {
  just_stable_ = false;
  if (frame.empty()) return State::kMoving;
  const cv::Mat grey = Shrink(frame);
  bool still = false;
  if (!previous_.empty() && previous_.size() == grey.size()) {
    cv::Mat diff, blocks;
    cv::absdiff(grey, previous_, diff);
    last_difference_ = cv::mean(diff)[0];
    // A hand covers a few blocks: the worst block's mean difference catches it when the frame's mean does not.
    cv::resize(diff, blocks, cv::Size(std::max(1, diff.cols / 8), std::max(1, diff.rows / 8)), 0, 0, cv::INTER_AREA);
    double worst = 0;
    cv::minMaxLoc(blocks, nullptr, &worst);
    still = last_difference_ <= options_.still_level && worst <= options_.still_block;
  }
  previous_ = grey;
  if (!still) {
    still_frames_ = 0;
    stable_ = false;
    return State::kMoving;
  }
  ++still_frames_;
  if (still_frames_ < options_.window) return State::kSettling;
  just_stable_ = !stable_;
  stable_ = true;
  return State::kStable;
}

}  // namespace swref::vision
