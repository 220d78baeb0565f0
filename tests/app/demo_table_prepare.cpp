// Prepares the referee tests' demo table (tests/app/suite_table.h) in the folder given, replacing what is there:
// ctest's fixture suite_table runs it before the referee tests. Usage: demo_table_prepare DIR
#include <cstdio>
#include <filesystem>

#include "app/core/demo.h"
#include "calibration/image_memory.h"
#include "tests/app/suite_table.h"

int main(int argc, char** argv) {
  swref::calibration::KeepFreedImageMemory();
  namespace fs = std::filesystem;
  if (argc != 2) {
    std::fprintf(stderr, "usage: demo_table_prepare DIR\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::error_code ec;
  fs::remove_all(dir, ec);  // always a new table: one left by an older build may differ
  if (ec) {
    std::fprintf(stderr, "%s: cannot remove the old table: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  auto demo = swref::core::RunDemo(swref::core::testing::kSuiteTableSeed);
  if (!demo) {
    std::fprintf(stderr, "the demo game: %s\n", demo.error().c_str());
    return 1;
  }
  auto table = swref::core::PrepareDemoTable(demo->record, dir, swref::core::testing::kSuiteTableSeed,
                                             swref::core::testing::kSuiteTableFrame);
  if (!table) {
    std::fprintf(stderr, "%s\n", table.error().c_str());
    return 1;
  }
  std::printf("the referee tests' demo table: %s\n", dir.c_str());
  return 0;
}
