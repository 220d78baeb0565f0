// Reading and writing test pictures through swref's own codec (calibration/image_io.h), so that no test binary
// links OpenCV's imgcodecs (and pays its start-up, docs/architecture.md). A failure is a test failure, not a crash.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "calibration/image_io.h"

namespace swref::test {

inline cv::Mat LoadImage(const std::string& path, calibration::ImageRead mode = calibration::ImageRead::kColor) {
  auto image = calibration::ReadImageFile(path, mode);
  EXPECT_TRUE(image.ok()) << image.error();
  return image ? *image : cv::Mat();
}

inline bool SaveImage(const std::string& path, const cv::Mat& image, int jpeg_quality = 95) {
  auto written = calibration::WriteImageFile(path, image, jpeg_quality);
  EXPECT_TRUE(written.ok()) << written.error();
  return written.ok();
}

}  // namespace swref::test
