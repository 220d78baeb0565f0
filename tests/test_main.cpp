// The test main: fixed seeds so that every run of the suite sees the same random games and scenes.
#include <gtest/gtest.h>

// The engine's tests link no image library (SWREF_TESTS_WITHOUT_IMAGES): no images, nothing to keep.
#ifndef SWREF_TESTS_WITHOUT_IMAGES
#include "calibration/image_memory.h"
#endif

int main(int argc, char** argv) {
#ifndef SWREF_TESTS_WITHOUT_IMAGES
  swref::calibration::KeepFreedImageMemory();
#endif
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::GTEST_FLAG(random_seed) = 1;
  return RUN_ALL_TESTS();
}
