// A live camera for the setup wizard's pages (calibration, reference photo, enrollment preview): frames are read
// on the feed's own thread (app/core/frame_source.h, which reopens a camera that stops) and the latest one is
// kept; the pages look at it when they are ready to.
#pragma once

#include <atomic>
#include <mutex>

#include <QImage>
#include <QThread>

#include <opencv2/core.hpp>

namespace swref::gui {

class CameraFeed : public QThread {
  Q_OBJECT

 public:
  explicit CameraFeed(QObject* parent = nullptr);
  ~CameraFeed() override;
  void Open(const QString& camera);  // the camera's number ("0"); starts the thread
  void Close();                      // stops it and waits
  cv::Mat Latest() const;            // the last frame (empty before the first)

 signals:
  void FrameReady(const QImage& image);
  void Problem(const QString& text);  // a camera that cannot be opened, or was lost

 protected:
  void run() override;

 private:
  QString camera_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  cv::Mat latest_;
};

}  // namespace swref::gui
