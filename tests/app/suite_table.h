// The referee tests' demo table: the demo game (seed 7) photographed at 960x540, the board set up and the tokens
// enrolled from those photos (PrepareDemoTable). Preparing it takes most of a referee test's time (seconds, a minute
// under the sanitizers), and every test runs in its own process, so ctest prepares it once (the fixture
// suite_table: tests/CMakeLists.txt, demo_table_prepare.cpp) and passes its folder in SWREF_TEST_TABLE; the tests
// only read it. A test binary run by hand, without that variable, prepares its own.
#pragma once

#include <cstdlib>
#include <filesystem>

#include "app/core/demo_table.h"

namespace swref::core::testing {

inline const cv::Size kSuiteTableFrame(960, 540);
inline constexpr uint64_t kSuiteTableSeed = 7;

// The table ctest prepared, or a new one in `dir` (absent or empty).
inline engine::Result<DemoTable> SuiteTable(const engine::Record& script, const std::filesystem::path& dir) {
  if (const char* shared = std::getenv("SWREF_TEST_TABLE"); shared && *shared)
    return OpenDemoTable(shared, kSuiteTableSeed, kSuiteTableFrame);
  return PrepareDemoTable(script, dir, kSuiteTableSeed, kSuiteTableFrame);
}

}  // namespace swref::core::testing
