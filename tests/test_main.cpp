// The test main: fixed seeds so that every run of the suite sees the same random games and scenes.
#include <gtest/gtest.h>

#include "app/core/image_memory.h"

int main(int argc, char** argv) {
  swref::core::KeepFreedImageMemory();
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::GTEST_FLAG(random_seed) = 1;
  return RUN_ALL_TESTS();
}
