// Videos through the video plugin (app/core/video_capture.h). Its own binary: writing the test video needs
// OpenCV's videoio, which no other test binary links (start-up time, docs/architecture.md).
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <opencv2/videoio.hpp>

#include "app/core/frame_source.h"
#include "app/core/video_capture.h"

namespace swref::core {
namespace {

// A video read again from a frame, as a resumed referee does (FrameSource::SkipTo): forwards and backwards, the
// frame given is the one with that index (frames of a different grey each, written as Motion JPEG).
TEST(OpenVideo, SkipToGivesThatFrameForwardsAndBackwards) {
  const auto path = std::filesystem::temp_directory_path() / ("swref-video-" + std::to_string(::getpid()) + ".avi");
  {
    cv::VideoWriter writer(path.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, cv::Size(160, 120));
    if (!writer.isOpened()) GTEST_SKIP() << "no Motion JPEG writer in this OpenCV";
    for (int i = 0; i < 10; ++i) writer.write(cv::Mat(120, 160, CV_8UC3, cv::Scalar::all(20 * i + 10)));
  }
  auto video = OpenVideo(path.string(), false);
  ASSERT_TRUE(video) << video.error();
  EXPECT_TRUE((*video)->can_read_again());
  Frame f;
  for (int64_t at : {7, 2, 9, 0}) {
    ASSERT_TRUE((*video)->SkipTo(at));
    ASSERT_TRUE((*video)->Next(&f));
    EXPECT_EQ(f.index, at);
    EXPECT_NEAR(cv::mean(f.image)[0], 20 * at + 10, 3) << "frame " << at;
  }
  EXPECT_FALSE((*video)->SkipTo(11));  // no such frame
  std::filesystem::remove(path);
}

TEST(VideoPlugin, LoadsAndSaysWhenAVideoIsMissingOrUnreadable) {
  auto capture = NewVideoCapture();
  ASSERT_TRUE(capture.ok()) << capture.error();
  EXPECT_FALSE((*capture)->IsOpened());
  EXPECT_EQ(OpenVideo("/no/such/video.avi", false).error(), "/no/such/video.avi: no such video file");
  const auto path = std::filesystem::temp_directory_path() / ("swref-not-video-" + std::to_string(::getpid()) + ".avi");
  std::ofstream(path) << "not a video";
  EXPECT_EQ(OpenVideo(path.string(), false).error(), path.string() + ": cannot read it as a video (an unknown format?)");
  std::filesystem::remove(path);
  EXPECT_EQ(OpenVideo("front", true).error(), "--camera: expected a camera number (0, 1, ...), got \"front\"");
}

}  // namespace
}  // namespace swref::core
