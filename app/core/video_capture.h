// Videos and cameras are read by OpenCV's videoio, which pulls about 100 shared libraries (FFmpeg, GStreamer, ...)
// into the process that links it: 0.12 s and 18 MB at every start (docs/architecture.md, "Start-up"). So it lives
// in a plugin, libswref_video.so (video_plugin.cpp), that frame_source.cpp loads the first time a video or a camera
// is opened; every other command starts without it.
#pragma once

#include <memory>
#include <string>

#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::core {

// OpenCV's cv::VideoCapture, as the plugin gives it.
class VideoCapture {
 public:
  virtual ~VideoCapture() = default;
  virtual bool OpenFile(const std::string& path) = 0;
  virtual bool OpenCamera(int number) = 0;
  virtual bool IsOpened() const = 0;
  virtual bool Read(cv::Mat* image) = 0;
  virtual bool Grab() = 0;
  virtual double FrameCount() = 0;  // <= 0 when unknown
  virtual void Release() = 0;
};

// The plugin's one symbol: `new` of its capture (the caller owns it).
inline constexpr char kVideoPluginSymbol[] = "swref_new_video_capture_v1";
inline constexpr char kVideoPluginFile[] = "libswref_video.so";

// A new capture from the plugin, loaded on first use from SWREF_PLUGIN_DIR, the executable's folder, or (for a
// program inside the build tree, like the tests) the build tree's top folder. The error says where it looked.
engine::Result<std::unique_ptr<VideoCapture>> NewVideoCapture();

}  // namespace swref::core
