// Step 5's outline seeds, on drawn boards with exact truth.
#include "vision/observer.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <opencv2/imgproc.hpp>

namespace swref::vision {
namespace {

cv::Rect RectMm(double x, double y, double w, double h) {
  return {cvRound(x * kBoardPxPerMm), cvRound(y * kBoardPxPerMm), cvRound(w * kBoardPxPerMm), cvRound(h * kBoardPxPerMm)};
}

bool Inside(const cv::Mat& mask, cv::Point2d px) {
  const cv::Point p(cvRound(px.x), cvRound(px.y));
  return cv::Rect(0, 0, mask.cols, mask.rows).contains(p) && mask.at<uchar>(p) != 0;
}

// A board 200 x 150 mm with a corner marker's sticker at (8, 8), 40 mm, as `swref print markers` makes it (its
// white frame 8 mm), and a round 25 mm token beside it. In the frame the sticker's white came out 40 levels darker
// than in the reference and its edges softer, as in a bright photo of the accuracy suite (2p photo 17: the light
// matching fits the board's middle tones, not the print's white), so every edge of its pattern differs from the
// reference's: they must cast no votes, while the token's outline, 10 mm from the sticker, still gives its seed.
TEST(OutlineSeeds, AMarkerStickerCastsNoVotes) {
  calibration::Layout layout;
  layout.board_mm = {200, 150};
  calibration::LayoutMarkers markers;
  markers.size_mm = 40;
  markers.corners[0] = {8, 8};
  layout.markers = markers;
  cv::Mat reference(cvRound(150 * kBoardPxPerMm), cvRound(200 * kBoardPxPerMm), CV_8UC3, cv::Scalar(118, 128, 140));
  cv::Mat frame = reference.clone();
  auto draw_sticker = [](cv::Mat& board, int white) {
    board(RectMm(0, 0, 56, 56)).setTo(cv::Scalar::all(white));
    board(RectMm(8, 8, 40, 40)).setTo(cv::Scalar::all(20));
    board(RectMm(15, 15, 20, 6.7)).setTo(cv::Scalar::all(white));  // a few white cells of the pattern
    board(RectMm(28, 28, 13, 13)).setTo(cv::Scalar::all(white));
  };
  draw_sticker(reference, 165);
  draw_sticker(frame, 125);
  cv::GaussianBlur(frame, frame, {0, 0}, 1.5);
  const cv::Point2d token_mm(78.5, 40);
  const cv::Point token_px(cvRound(token_mm.x * kBoardPxPerMm), cvRound(token_mm.y * kBoardPxPerMm));
  cv::circle(frame, token_px, cvRound(12.5 * kBoardPxPerMm), cv::Scalar(40, 90, 200), cv::FILLED, cv::LINE_AA);
  const cv::Mat frame_lab = OutlineLab(frame), reference_lab = OutlineLab(reference);
  const cv::Mat stickers = MarkerStickers(layout, frame.size());
  ASSERT_EQ(stickers.size(), frame.size());
  EXPECT_EQ(cv::countNonZero(stickers(RectMm(0, 0, 58, 58))), RectMm(0, 0, 58, 58).area());  // the sticker and 2 mm more
  EXPECT_EQ(cv::countNonZero(stickers(RectMm(61, 0, 139, 150))), 0);
  EXPECT_EQ(cv::countNonZero(stickers(RectMm(0, 61, 200, 89))), 0);

  auto on_sticker = [&](const std::vector<OutlineSeed>& seeds) {
    return std::count_if(seeds.begin(), seeds.end(),
                         [&](const OutlineSeed& s) { return s.votes >= kMinOutlineVotes && Inside(stickers, s.centre_px); });
  };
  // The premise: without the exclusion the pattern's edges vote for phantom tokens on the sticker.
  EXPECT_GT(on_sticker(OutlineSeeds(frame_lab, reference_lab, kOutlineRadiusMm)), 0);
  const std::vector<OutlineSeed> seeds = OutlineSeeds(frame_lab, reference_lab, kOutlineRadiusMm, stickers);
  EXPECT_EQ(on_sticker(seeds), 0);
  ASSERT_FALSE(seeds.empty());
  const cv::Point2d found((seeds[0].centre_px.x + 0.5) / kBoardPxPerMm, (seeds[0].centre_px.y + 0.5) / kBoardPxPerMm);
  EXPECT_LT(cv::norm(found - token_mm), 2.0) << "the strongest seed lies at " << found;
  EXPECT_GE(seeds[0].votes, 30);
}

// A piece larger than a race token (a fortress, a troll lair, a mountain: about 30 mm), grey on grey ground: its
// outline votes, at a race token's half width, peak 3.5 mm off its centre (a grey piece makes no foreground to seed
// it either); at the pieces' half width (kPieceOutlineRadiusMm) within 1 mm of it. Three 30 mm pieces, a little
// lighter than the board, turned 0, 20 and 40 degrees.
TEST(OutlineSeeds, ALargerPieceIsSeededAtThePiecesRadius) {
  const cv::Mat reference(cvRound(150 * kBoardPxPerMm), cvRound(300 * kBoardPxPerMm), CV_8UC3, cv::Scalar(118, 122, 128));
  cv::Mat frame = reference.clone();
  const std::vector<cv::Point2d> centres = {{60, 75}, {150, 75}, {240, 75}};
  for (size_t k = 0; k < centres.size(); ++k) {
    const cv::RotatedRect piece(cv::Point2f(centres[k] * kBoardPxPerMm), cv::Size2f(30 * kBoardPxPerMm, 30 * kBoardPxPerMm), 20.0f * k);
    cv::Point2f corners[4];
    piece.points(corners);
    std::vector<cv::Point> poly(corners, corners + 4);
    cv::fillConvexPoly(frame, poly, cv::Scalar(152, 152, 150), cv::LINE_AA);
  }
  cv::GaussianBlur(frame, frame, {0, 0}, 1.0);
  const cv::Mat frame_lab = OutlineLab(frame), reference_lab = OutlineLab(reference);
  // The seed nearest each centre with votes enough to be named.
  auto nearest = [&](const std::vector<OutlineSeed>& seeds, cv::Point2d centre_mm) {
    double best = 1e9;
    for (const OutlineSeed& s : seeds)
      if (s.votes >= kMinOutlineVotes)
        best =
            std::min(best, cv::norm(cv::Point2d((s.centre_px.x + 0.5) / kBoardPxPerMm, (s.centre_px.y + 0.5) / kBoardPxPerMm) - centre_mm));
    return best;
  };
  const std::vector<OutlineSeed> race = OutlineSeeds(frame_lab, reference_lab, kOutlineRadiusMm);
  const std::vector<OutlineSeed> pieces = OutlineSeeds(frame_lab, reference_lab, kPieceOutlineRadiusMm);
  std::printf("strongest seeds: %.1f votes at the race tokens' radius, %.1f at the pieces'\n", race.empty() ? 0.0 : race[0].votes,
              pieces.empty() ? 0.0 : pieces[0].votes);
  for (const cv::Point2d& c : centres) {
    std::printf("piece at (%.0f, %.0f): nearest seed %.1f mm off at the race tokens' radius, %.1f at the pieces'\n", c.x, c.y,
                nearest(race, c), nearest(pieces, c));
    EXPECT_GT(nearest(race, c), 2.5);  // beyond the 2 mm an outline seed is named within (instances.cpp)
    EXPECT_LT(nearest(pieces, c), 1.5);
  }
}

// Without markers in the layout there is nothing to leave out.
TEST(OutlineSeeds, NoMarkersNoStickers) {
  calibration::Layout layout;
  layout.board_mm = {200, 150};
  EXPECT_TRUE(MarkerStickers(layout, {400, 300}).empty());
}

}  // namespace
}  // namespace swref::vision
