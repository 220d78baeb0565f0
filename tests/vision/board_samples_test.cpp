// The empty board at a candidate under more glare (vision/board_samples.cpp WashedBoardError): a printed symbol that a
// lamp's reflection washed out fits it, whatever light the candidate was seen in, and a token does not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "calibration/polar.h"
#include "calibration/token_model.h"
#include "vision/naming.h"

namespace swref::vision {
namespace {

// A piece of painted board (board pixels): green ground with darker stripes and a purple star at its middle.
cv::Mat PaintedBoard() {
  cv::Mat board(120, 120, CV_8UC3, cv::Scalar(70, 150, 90));
  for (int y = 6; y < board.rows; y += 14) cv::line(board, {0, y}, {board.cols, y + 9}, cv::Scalar(40, 110, 60), 3, cv::LINE_AA);
  std::vector<cv::Point> star;
  for (int k = 0; k < 10; ++k) {
    const double r = k % 2 ? 7 : 16, a = CV_PI * k / 5;
    star.emplace_back(cvRound(60 + r * std::cos(a)), cvRound(60 + r * std::sin(a)));
  }
  cv::fillPoly(board, std::vector<std::vector<cv::Point>>{star}, cv::Scalar(170, 60, 150), cv::LINE_AA);
  return board;
}

// A candidate at the board's middle, its samples taken from `seen` (as the local view gives them: in the
// reference's light), seen in `gain` and clipped at `clip`.
Candidate CandidateOn(const cv::Mat& seen, cv::Vec3f gain, cv::Vec3f clip) {
  Candidate c;
  c.centre_px = {60, 60};
  c.gain = gain;
  c.clip = clip;
  calibration::SamplePolar(calibration::MatchLab(seen), c.centre_px, calibration::PolarSpec(), 0, &c.samples);
  return c;
}

// `board` with `added` of the glare's colour (frame units) seen in `gain`: in the reference's light, added / gain,
// clipped at `clip`.
cv::Mat Washed(const cv::Mat& board, cv::Vec3f glare_colour, double added, cv::Vec3f gain, cv::Vec3f clip) {
  cv::Mat f, out;
  board.convertTo(f, CV_32FC3);
  cv::add(f, cv::Scalar(added * glare_colour[0] / gain[0], added * glare_colour[1] / gain[1], added * glare_colour[2] / gain[2]), f);
  cv::min(f, cv::Scalar(clip), f);
  f.convertTo(out, CV_8UC3);
  return out;
}

double PlainBoardError(const cv::Mat& board, const Candidate& c, const std::vector<float>& weight) {
  calibration::PolarSamples plain;
  calibration::SamplePolar(calibration::MatchLab(board), c.centre_px, calibration::PolarSpec(), 0, &plain);
  return calibration::PairError(c.samples, plain, weight, 0, calibration::TokenModel::kCap, nullptr);
}

TEST(WashedBoardErrorTest, ASymbolWashedOutByGlareFitsTheWashedBoard) {
  const cv::Mat board = PaintedBoard();
  const std::vector<float> weight(calibration::kPolarSize, 1.0f);
  const cv::Vec3f white(0.577f, 0.577f, 0.577f), warm(0.50f, 0.58f, 0.64f);
  const cv::Vec3f none(255, 255, 255), unit(1, 1, 1);
  struct Case {
    const char* what;
    cv::Vec3f colour, gain, clip;
    double added;
  };
  for (const Case& k : {Case{"white glare", white, unit, none, 120}, Case{"a warm lamp's glare", warm, unit, none, 90},
                        Case{"in a warm light", white, cv::Vec3f(1.8f, 1.0f, 0.6f), none, 110},
                        Case{"clipped by the camera", white, unit, cv::Vec3f(200, 210, 190), 120}}) {
    SCOPED_TRACE(k.what);
    const Candidate c = CandidateOn(Washed(board, k.colour, k.added, k.gain, k.clip), k.gain, k.clip);
    const double washed = WashedBoardError(board, c, k.colour, weight), plain = PlainBoardError(board, c, weight);
    std::printf("%s: the board %.1f, under more glare %.1f\n", k.what, plain, washed);
    EXPECT_GT(plain, 20.0) << "the glare should wash the symbol out beyond what a light offset takes up";
    EXPECT_LT(washed, 0.1 * plain);  // as near as the strengths tried come (they are 10-40 frame units apart)
  }
}

TEST(WashedBoardErrorTest, ATokenDoesNotFitTheWashedBoard) {
  const cv::Mat board = PaintedBoard();
  const std::vector<float> weight(calibration::kPolarSize, 1.0f);
  // A pale blue token with a dark symbol on the same spot, under the same glare.
  cv::Mat token = board.clone();
  cv::rectangle(token, cv::Rect(36, 36, 48, 48), cv::Scalar(230, 200, 170), cv::FILLED, cv::LINE_AA);
  cv::circle(token, {60, 60}, 12, cv::Scalar(120, 60, 40), 4, cv::LINE_AA);
  const cv::Vec3f white(0.577f, 0.577f, 0.577f), none(255, 255, 255), unit(1, 1, 1);
  const Candidate c = CandidateOn(Washed(token, white, 40, unit, none), unit, none);
  const double washed = WashedBoardError(board, c, white, weight);
  std::printf("a token under glare: the board under more glare %.1f\n", washed);
  EXPECT_GT(washed, 100.0);
}

TEST(WashedBoardErrorTest, ACandidateOffTheBoardHasNoBoardToFit) {
  const cv::Mat board = PaintedBoard();
  Candidate c = CandidateOn(board, {1, 1, 1}, {255, 255, 255});
  c.centre_px = {-500, -500};
  EXPECT_EQ(WashedBoardError(board, c, {0.577f, 0.577f, 0.577f}, std::vector<float>(calibration::kPolarSize, 1.0f)),
            std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace swref::vision
