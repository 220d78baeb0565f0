// The pool for OpenCV's large buffers (calibration/image_memory.h).
#include "calibration/image_memory.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#if defined(SWREF_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace swref::calibration {
namespace {

constexpr size_t kLimit = size_t{96} << 20;

TEST(ImagePool, GivesAFreedBufferBackToTheNextMatOfItsSize) {
  InstallImagePool(kLimit);
  const ImagePoolStats before = ImagePoolCounts();
  const uchar* first = nullptr;
  {
    cv::Mat board(800, 1200, CV_32FC3, cv::Scalar(1, 2, 3));  // 11.5 MB
    first = board.data;
  }
  EXPECT_GE(ImagePoolCounts().cached_bytes, size_t{800} * 1200 * 12);
  cv::Mat again(800, 1200, CV_32FC3);
  EXPECT_EQ(again.data, first);
  EXPECT_EQ(ImagePoolCounts().reused, before.reused + 1);
  // Another size is not served from it, and neither is a small buffer.
  cv::Mat other(800, 1200, CV_8UC3);
  EXPECT_NE(other.data, first);
  EXPECT_EQ(ImagePoolCounts().allocated, before.allocated + 2);
  cv::Mat small(100, 100, CV_8UC3);
  EXPECT_EQ(ImagePoolCounts().allocated, before.allocated + 2);
}

TEST(ImagePool, OpenCVsOwnTemporariesGoThroughItAndTheResultsAreUnchanged) {
  cv::Mat src(800, 1200, CV_8UC3);
  cv::randu(src, 0, 256);
  cv::Mat want;
  cv::GaussianBlur(src, want, cv::Size(), 3);  // before the pool: OpenCV's own allocator
  InstallImagePool(kLimit);
  for (int i = 0; i < 3; ++i) {
    cv::Mat f, blurred;
    src.convertTo(f, CV_32FC3);
    cv::GaussianBlur(src, blurred, cv::Size(), 3);
    EXPECT_EQ(cv::norm(blurred, want, cv::NORM_INF), 0) << "round " << i;
  }
  EXPECT_GT(ImagePoolCounts().reused, 0u);
}

TEST(ImagePool, HoldsNoMoreThanItsLimit) {
  const size_t block = size_t{2} << 20;
  InstallImagePool(2 * block);
  {
    cv::Mat a(1, static_cast<int>(block), CV_8U), b(1, static_cast<int>(block), CV_8U), c(1, static_cast<int>(block), CV_8U);
  }
  EXPECT_LE(ImagePoolCounts().cached_bytes, 2 * block);
  {
    cv::Mat huge(1, static_cast<int>(3 * block), CV_8U);  // larger than the limit: freed at once
  }
  EXPECT_LE(ImagePoolCounts().cached_bytes, 2 * block);
  InstallImagePool(0);  // a lower limit frees what is held
  EXPECT_EQ(ImagePoolCounts().cached_bytes, 0u);
  InstallImagePool(kLimit);
}

#if defined(SWREF_ASAN)
TEST(ImagePool, AKeptBufferIsPoisonedUntilItIsHandedOutAgain) {
  InstallImagePool(kLimit);
  const uchar* data = nullptr;
  {
    cv::Mat m(1024, 1024, CV_8UC2);
    data = m.data;
    EXPECT_FALSE(__asan_address_is_poisoned(data));
  }
  EXPECT_TRUE(__asan_address_is_poisoned(data));
  cv::Mat again(1024, 1024, CV_8UC2);
  ASSERT_EQ(again.data, data);
  EXPECT_FALSE(__asan_address_is_poisoned(again.data + again.total() * again.elemSize() - 1));
}
#endif

}  // namespace
}  // namespace swref::calibration
