// libswref_video.so: OpenCV's videoio behind core::VideoCapture (video_capture.h says why it is a plugin).
#include <opencv2/videoio.hpp>

#include "app/core/video_capture.h"

namespace swref::core {
namespace {

class OpenCvCapture : public VideoCapture {
 public:
  bool OpenFile(const std::string& path) override { return capture_.open(path); }
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
