#include "app/gui/camera_feed.h"

#include "app/core/frame_source.h"
#include "app/gui/qt_util.h"

namespace swref::gui {

CameraFeed::CameraFeed(QObject* parent) : QThread(parent) {}
CameraFeed::~CameraFeed() { Close(); }

void CameraFeed::Open(const QString& camera) {
  Close();
  camera_ = camera;
  stop_ = false;
  start();
}

void CameraFeed::Close() {
  stop_ = true;
  wait();
}

cv::Mat CameraFeed::Latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_.clone();
}

void CameraFeed::run() {
  core::CameraRetry retry;
  retry.attempts = 5;
  retry.pause = std::chrono::milliseconds(500);
  auto source = core::OpenVideo(S(camera_), true, retry);
  if (!source) return emit Problem(Q(source.error()));
  core::Frame frame;
  while (!stop_ && (*source)->Next(&frame)) {
    if (frame.image.empty()) {
      emit Problem(Q(frame.problem));
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      latest_ = frame.image.clone();
    }
    emit FrameReady(ToImage(frame.image));
  }
  if (!stop_) emit Problem("camera " + camera_ + " is gone");
}

}  // namespace swref::gui
