// The observer's accuracy on the four official maps (core::RunVisionSuite: synthetic photos, the table set up and
// the tokens enrolled from the suite's own material, every photo observed and scored). The thresholds are what the
// observer reaches today less a margin, so that a regression fails; they are not the goals of docs/architecture.md
// (region error <= 0.1 %, boards exact >= 97 %, token kinds >= 99.5 %, no confident wrong stack count), which the
// observer does not reach yet. SWREF_SUITE_SCENES (photos per map, default 12) and SWREF_SUITE_DIR (kept) allow a
// larger run; `swref dataset suite` prints the same figures.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "app/core/observe.h"

namespace swref::core {
namespace {

// Today's figures on the default suite (12 photos a map, seed 1) less a margin; see the header.
constexpr double kMaxRegionError = 0.015, kMinBoardsExact = 0.7, kMinTokenKinds = 0.98;  // today 0.53 %, 84.1 %, 99.30 %
constexpr int kMaxSilentStacks = 2;                                                   // today 0
constexpr int kMaxSilentErrors = 1;  // regions wrong and not flagged: today 0 (the three larger suites: 1, 0 and 0)

TEST(VisionAccuracy, FourMapsSuiteStaysAboveItsFloor) {
  SuiteOptions options;
  options.scenes = std::getenv("SWREF_SUITE_SCENES") ? std::atoi(std::getenv("SWREF_SUITE_SCENES")) : 12;
  const char* kept = std::getenv("SWREF_SUITE_DIR");
  // A folder of this process's own: two suites run at once (a Release and a sanitizer build) must not share one.
  const std::filesystem::path dir = kept ? std::filesystem::path(kept)
                                         : std::filesystem::temp_directory_path() / ("swref-vision-suite-test-" + std::to_string(::getpid()));
  options.dir = dir.string();
  auto report = RunVisionSuite(options);
  ASSERT_TRUE(report) << report.error();
  const datasets::EvalReport& all = report->all;
  for (const auto& [map, r] : report->maps)
    std::cout << map << ": " << r.images << " photos, region error " << 100 * r.region_error_rate() << " %, boards exact "
              << 100 * r.exact_rate() << " %, token kinds " << 100 * r.token.kind_accuracy() << " %\n";
  std::cout << datasets::FormatReport(all);
  EXPECT_EQ(all.no_board, 0);
  EXPECT_EQ(all.false_motion, 0);
  EXPECT_GE(all.motion_detected, all.motion_images * 8 / 10);
  EXPECT_LE(all.region_error_rate(), kMaxRegionError);
  EXPECT_GE(all.exact_rate(), kMinBoardsExact);
  EXPECT_GE(all.token.kind_accuracy(), kMinTokenKinds);
  EXPECT_LE(all.silent_wrong_stacks, kMaxSilentStacks);
  EXPECT_LE(all.silent_errors, kMaxSilentErrors);
  if (!kept) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace swref::core
