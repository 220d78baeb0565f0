// The app/core calls the GUI needs beyond the CLI's (they are the CLI's own where one exists): the calibration
// target's corners in one frame and the view's coverage, the print preview.
#include <gtest/gtest.h>

#include "tests/test_images.h"

#include "app/core/calibrate.h"
#include "app/core/print_targets.h"

namespace swref::core {
namespace {

const std::string kData = std::string(SWREF_SOURCE_DIR) + "/tests/data/";

TEST(FindTargetCorners, FindsTheChessboardInOneFrameAndSaysWhyNot) {
  CalibrateRequest request;
  request.pattern = {9, 6};
  request.square_mm = 25;
  const cv::Mat photo = swref::test::LoadImage(kData + "opencv-chessboard-stereo/left01.jpg");
  ASSERT_FALSE(photo.empty());
  const auto found = FindTargetCorners(request, photo);
  EXPECT_TRUE(found.found()) << found.reason;
  EXPECT_EQ(found.image.size(), 54u);
  const auto none = FindTargetCorners(request, cv::Mat(480, 640, CV_8UC3, cv::Scalar(200, 200, 200)));
  EXPECT_FALSE(none.found());
  EXPECT_EQ(none.reason, "no chessboard of 9x6 inner corners found");
  EXPECT_EQ(FindTargetCorners(request, cv::Mat()).reason, "no frame");
}

TEST(FindTargetCorners, FindsTheCharucoBoardScaledBackToTheFrame) {
  CalibrateRequest request;
  request.kind = CalibrateRequest::Kind::kCharuco;
  request.pattern = {5, 7};
  request.square_mm = 40;
  request.marker_mm = 20;
  request.dictionary = "DICT_6X6_250";
  const cv::Mat photo = swref::test::LoadImage(kData + "opencv-aruco-charuco/img_00.jpg");
  ASSERT_FALSE(photo.empty());
  const auto full = FindTargetCorners(request, photo, 4000);
  const auto small = FindTargetCorners(request, photo, 480);
  ASSERT_TRUE(full.found()) << full.reason;
  ASSERT_TRUE(small.found()) << small.reason;
  // The shrunk search's corners land near the full-size ones, in the frame's pixels.
  double nearest = 1e9;
  for (const cv::Point2f& p : full.image) nearest = std::min(nearest, cv::norm(p - small.image[0]));
  EXPECT_LT(nearest, 4.0);
}

TEST(MeasureCoverage, NamesThePartsOfTheViewStillMissing) {
  const cv::Size size(900, 600);
  EXPECT_EQ(MeasureCoverage({}, size).hint, "Hold the printed target in view until its corners are drawn, then take a photo.");
  const auto one = MeasureCoverage({{{10, 10}, {50, 50}}}, size);
  EXPECT_EQ(one.covered, 1);
  EXPECT_TRUE(one.cells[0]);
  EXPECT_EQ(one.hint, "Next, hold the target so that it reaches the top, top right, left of the view (1 of 9 parts covered).");
  std::vector<cv::Point2f> grid;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) grid.emplace_back(150 + 300 * c, 100 + 200 * r);
  EXPECT_EQ(MeasureCoverage({grid}, size).hint, "Every part of the view is covered; take 2 more photo(s), the target tilted.");
  const auto done = MeasureCoverage({grid, grid, grid, {}}, size);
  EXPECT_EQ(done.photos, 3);
  EXPECT_EQ(done.covered, 9);
  EXPECT_EQ(done.hint, "Every part of the view is covered by 3 photos: ready to calibrate (a few tilted photos help).");
}

TEST(RenderTargetPreview, DrawsTheFirstPageOfEveryTargetAndRefusesOthers) {
  for (const std::string& target : PrintTargetNames()) {
    auto page = RenderTargetPreview(target, {}, 1);
    ASSERT_TRUE(page) << target << ": " << page.error();
    EXPECT_EQ(page->type(), CV_8UC3);
    EXPECT_EQ(page->cols, 210);  // A4 at 1 px/mm
    EXPECT_EQ(page->rows, 297);
  }
  auto bad = RenderTargetPreview("poster", {}, 1);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "print: unknown target \"poster\" (expected markers, charuco or mat)");
}

}  // namespace
}  // namespace swref::core
