// libswref_video.so: OpenCV's videoio behind core::VideoCapture (video_capture.h says why it is a plugin).
#include <opencv2/videoio.hpp>

#include "app/core/video_capture.h"

namespace swref::core {
namespace {

class OpenCvCapture : public VideoCapture {
 public:
  // A file goes to the backends that read files, in turn; left to choose (CAP_ANY), OpenCV also asks the camera
  // backends (gPhoto2, FireWire), which enumerate the USB devices (slow, and their lists are never freed).
  bool OpenFile(const std::string& path) override {
    for (int backend : {cv::CAP_FFMPEG, cv::CAP_GSTREAMER, cv::CAP_OPENCV_MJPEG}) {
      if (capture_.open(path, backend)) return true;
    }
    return false;
  }
  bool OpenCamera(int number) override { return capture_.open(number); }
  bool IsOpened() const override { return capture_.isOpened(); }
  bool Read(cv::Mat* image) override { return capture_.read(*image); }
  bool Grab() override { return capture_.grab(); }
  double FrameCount() override { return capture_.get(cv::CAP_PROP_FRAME_COUNT); }
  void Release() override { capture_.release(); }

 private:
  cv::VideoCapture capture_;
};

}  // namespace
}  // namespace swref::core

extern "C" __attribute__((visibility("default"))) swref::core::VideoCapture* swref_new_video_capture_v1() {
  return new swref::core::OpenCvCapture();
}
