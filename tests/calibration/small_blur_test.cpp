#include "calibration/small_blur.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "calibration/polar.h"

namespace swref::calibration {
namespace {

// The matcher's two blurs give OpenCV's own values on images of every shape up to the largest it takes: noise,
// smooth gradients and flat patches, one pixel wide to 128 wide.
TEST(SmallBlur, GivesOpenCvsValues) {
  cv::RNG rng(7);
  for (double sigma : {kMatchBlurPx, kMatchBlurPx / 2}) {
    for (int t = 0; t < 200; ++t) {
      const int w = t < 20 ? 1 + t : rng.uniform(1, 129), h = t < 20 ? 1 + (t * 7) % 20 : rng.uniform(1, 129);
      cv::Mat image(h, w, CV_8UC3);
      rng.fill(image, cv::RNG::UNIFORM, 0, 256);
      if (t % 3 == 1) cv::GaussianBlur(image, image, cv::Size(9, 9), 3);
      if (t % 7 == 2) image.setTo(cv::Scalar(255, 0, 128));
      cv::Mat ours, theirs;
      SmallGaussianBlur(image, ours, sigma);
      cv::GaussianBlur(image, theirs, cv::Size(), sigma);
      ASSERT_EQ(cv::norm(ours, theirs, cv::NORM_INF), 0) << "sigma " << sigma << ", " << w << " x " << h;
    }
  }
}

TEST(SmallBlur, MayBlurInPlace) {
  cv::Mat image(40, 30, CV_8UC3);
  cv::randu(image, 0, 256);
  cv::Mat theirs;
  cv::GaussianBlur(image, theirs, cv::Size(), kMatchBlurPx);
  SmallGaussianBlur(image, image, kMatchBlurPx);
  EXPECT_EQ(cv::norm(image, theirs, cv::NORM_INF), 0);
}

}  // namespace
}  // namespace swref::calibration
