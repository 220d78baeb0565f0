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
  // Makes `index` the next frame Next() gives (a resumed referee reads frames again): false when the source
  // cannot (a camera) or has no such frame.
  virtual bool SkipTo(int64_t /*index*/) { return false; }
  // Whether the frames can be read again (a folder, a video): only then is a resume point worth writing.
  virtual bool can_read_again() const { return false; }
};

// The images of a folder (.jpg, .jpeg, .png), in name order. Errors: not a folder, no images.
engine::Result<std::unique_ptr<FrameSource>> OpenImageFolder(const std::string& dir);
// What a camera that stops giving frames gets: it is reopened after `pause`, up to `attempts` times in a row
// (each failed attempt is a frame with its problem), then it counts as gone.
struct CameraRetry {
  int attempts = 60;
  std::chrono::milliseconds pause{1000};
};

// A video file, or a camera by its number ("0", "1", ...; `camera` true). Errors name the file or camera.
engine::Result<std::unique_ptr<FrameSource>> OpenVideo(const std::string& path_or_number, bool camera, CameraRetry retry = {});

// The device behind a camera source: OpenVideo's is OpenCV's capture (from the video plugin, video_capture.h); tests stand in for a camera that is
// unplugged and plugged in again.
class CameraDevice {
 public:
  virtual ~CameraDevice() = default;
  virtual bool Open() = 0;                // (re)opens it; false when it is not there
  virtual bool Read(cv::Mat* image) = 0;  // the next frame; false when none came
  virtual void Close() = 0;
};
// A camera source over `device` (already open): frames while it gives them; when it gives none, a frame with the
// problem, the device closed and opened again after `retry.pause`, up to `retry.attempts` times in a row; then
// the camera is gone (Next gives false). Frames are numbered on: the index never goes back.
std::unique_ptr<FrameSource> CameraSource(std::unique_ptr<CameraDevice> device, const std::string& label, CameraRetry retry);

}  // namespace swref::core
