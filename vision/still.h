// The per-frame motion gate (pipeline step 2, the cheap part): is the scene still? Every frame is shrunk to a
// small grey image and compared with the previous one: hands moving over the board, a token being put down or a
// lamp switched on all change it. The scene is *stable* once it has stayed still for a short window; only then is
// a full observation worth making (and committing). A few milliseconds a frame at 1080p.
//
// The full observation still has its own check for arms held still over the board (gate.cpp): a stable scene
// with a hand resting on the board reads as motion too.
#pragma once

#include <opencv2/core.hpp>

namespace swref::vision {

struct StillOptions {
  int width = 240;                   // the frame is compared at this width (px), aspect kept
  double still_level = 3.0;          // mean absolute difference (grey levels) at or below which a frame is still...
  double still_block = 12.0;         // ...and no 8x8-cell block changes by more than this on average
  int window = 1;                    // still frames in a row (after the one that started the stillness) to be stable
};

class StillWindow {
 public:
  explicit StillWindow(const StillOptions& options = {}) : options_(options) {}
  enum class State { kMoving, kSettling, kStable };
  // One frame (8-bit BGR or grey). kStable: still for the whole window; stays kStable until something moves.
  State Update(const cv::Mat& frame);
  // True on the first kStable frame after a motion (the moment to observe).
  bool just_stable() const { return just_stable_; }
  double last_difference() const { return last_difference_; }
  void Reset();

  // What a resumed referee needs to continue exactly (referee_session.h): the counts, and the last frame taken.
  struct Saved {
    int still_frames = 0;
    bool stable = false;
  };
  Saved saved() const { return {still_frames_, stable_}; }
  // As after Update(previous) with these counts; `previous` empty: no frame taken since the last Reset.
  void Restore(const Saved& saved, const cv::Mat& previous);

 private:
  cv::Mat Shrink(const cv::Mat& frame) const;  // the small grey copy frames are compared as

  StillOptions options_;
  cv::Mat previous_;                 // CV_8U, small
  int still_frames_ = 0;
  bool stable_ = false, just_stable_ = false;
  double last_difference_ = 0;
};

}  // namespace swref::vision
