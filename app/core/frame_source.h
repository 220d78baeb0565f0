// Where the referee's frames come from: a camera, a video file, or a folder of images (taken in name order).
// Each frame comes with its index (0, 1, ...) and a name for the record ("f00012.jpg", "camera 0 #12").
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::core {

struct Frame {
  cv::Mat image;                   // 8-bit BGR; empty when the frame could not be read (see `problem`)
  int64_t index = 0;
  std::string name;
  std::string problem;             // why `image` is empty: an unreadable file, a camera that dropped a frame
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // The next frame; false at the end (a folder or video read to its end; a camera that is gone).
  virtual bool Next(Frame* frame) = 0;
  // How many frames there are (folder, video); -1 when unknown (a camera).
  virtual int64_t count() const { return -1; }
};

// The images of a folder (.jpg, .jpeg, .png, .bmp), in name order. Errors: not a folder, no images.
engine::Result<std::unique_ptr<FrameSource>> OpenImageFolder(const std::string& dir);
// What a camera that stops giving frames gets: it is reopened after `pause`, up to `attempts` times in a row
// (each failed attempt is a frame with its problem), then it counts as gone.
struct CameraRetry {
  int attempts = 60;
  std::chrono::milliseconds pause{1000};
};

// A video file, or a camera by its number ("0", "1", ...; `camera` true). Errors name the file or camera.
engine::Result<std::unique_ptr<FrameSource>> OpenVideo(const std::string& path_or_number, bool camera, CameraRetry retry = {});

}  // namespace swref::core
