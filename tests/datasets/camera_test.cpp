// The table camera simulator: projection consistency between the renderer and the geometry functions, orientation,
// determinism, framing, and the direction of each photometric effect.
#include "datasets/camera.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include <opencv2/imgproc.hpp>

namespace swref::datasets {
namespace {

const cv::Size2d kBoard{600, 400};

// A world of a flat colour: the board plus a 100 mm margin at 2.5 px/mm.
World FlatWorld(cv::Scalar bgr) {
  World w;
  w.px_per_mm = 2.5;
  w.origin_mm = {-100, -100};
  w.board_mm = kBoard;
  w.image = cv::Mat(cvRound(600 * 2.5), cvRound(800 * 2.5), CV_8UC3, bgr);
  return w;
}

// Adds a Gaussian dot (sigma in mm) centred exactly on a board point, evaluated at each world pixel's centre.
void AddDot(World& w, cv::Point2d board, double sigma_mm, cv::Scalar peak) {
  const double s = w.px_per_mm;
  const cv::Point2d c = (board - w.origin_mm) * s;
  const int r = int(std::ceil(4 * sigma_mm * s));
  for (int y = std::max(0, int(c.y) - r); y <= std::min(w.image.rows - 1, int(c.y) + r); ++y)
    for (int x = std::max(0, int(c.x) - r); x <= std::min(w.image.cols - 1, int(c.x) + r); ++x) {
      const double d2 = ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y)) / (s * s);
      const double k = std::exp(-d2 / (2 * sigma_mm * sigma_mm));
      cv::Vec3b& p = w.image.at<cv::Vec3b>(y, x);
      for (int ch = 0; ch < 3; ++ch) p[ch] = cv::saturate_cast<uchar>(p[ch] + k * peak[ch]);
    }
}

// A mid-grey world with smooth texture, so that a wrong sample shows.
World TexturedWorld() {
  World w = FlatWorld(cv::Scalar(0, 0, 0));
  cv::Mat noise(30, 40, CV_8UC3);
  cv::RNG rng(3);
  rng.fill(noise, cv::RNG::UNIFORM, 60, 200);
  cv::resize(noise, w.image, w.image.size(), 0, 0, cv::INTER_CUBIC);
  return w;
}

// Intensity-weighted centroids of the bright blobs of a frame over a flat background.
std::vector<cv::Point2d> BlobCentroids(const cv::Mat& frame, int background) {
  cv::Mat grey, mask, labels, stats, centres;
  cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
  cv::threshold(grey, mask, background + 30, 255, cv::THRESH_BINARY);
  const int n = cv::connectedComponentsWithStats(mask, labels, stats, centres);
  std::vector<cv::Point2d> out;
  for (int i = 1; i < n; ++i) {
    const cv::Rect box = cv::Rect(stats.at<int>(i, cv::CC_STAT_LEFT) - 4, stats.at<int>(i, cv::CC_STAT_TOP) - 4,
                                  stats.at<int>(i, cv::CC_STAT_WIDTH) + 8, stats.at<int>(i, cv::CC_STAT_HEIGHT) + 8) &
                         cv::Rect(0, 0, frame.cols, frame.rows);
    double sw = 0, sx = 0, sy = 0;
    for (int y = box.y; y < box.br().y; ++y)
      for (int x = box.x; x < box.br().x; ++x) {
        const double wgt = std::max(0, grey.at<uchar>(y, x) - background);
        sw += wgt, sx += wgt * x, sy += wgt * y;
      }
    out.emplace_back(sx / sw, sy / sw);
  }
  return out;
}

double Nearest(const std::vector<cv::Point2d>& pts, cv::Point2d p) {
  double best = 1e18;
  for (const cv::Point2d& q : pts) best = std::min(best, cv::norm(q - p));
  return best;
}

TEST(Camera, RenderedDotsLandWhereProjectBoardPointsSays) {
  World world = FlatWorld(cv::Scalar(50, 50, 50));
  std::vector<cv::Point2d> dots;
  for (double x : {15.0, 160.0, 300.0, 440.0, 585.0})
    for (double y : {15.0, 135.0, 265.0, 385.0}) dots.emplace_back(x, y);
  for (const cv::Point2d& d : dots) AddDot(world, d, 1.5, cv::Scalar(200, 200, 200));

  ShotRanges ranges = ShotRanges::Clean();  // geometry only: tilt, roll, distortion; no photometric nuisance
  ranges.max_tilt_deg = 15;
  ranges.max_roll_deg = 6;
  ranges.max_k1 = 0.12;
  double worst = 0;
  for (int i = 0; i < 8; ++i) {
    CameraShot shot = RandomShot({1280, 720}, kBoard, ranges, 100 + i);
    if (i % 2) shot.bump = Bump{{4, -3}, 1.5};
    if (i == 6) shot.pose.k1 = 0.12, shot.pose.k2 = -0.03;  // the extremes of the range
    if (i == 7) shot.pose.k1 = -0.12, shot.pose.k2 = 0.03;
    shot.pose.distance_mm *= 1.05;  // room for the bump and the extreme distortion
    const std::vector<cv::Point2d> expected = ProjectBoardPoints(shot, kBoard, dots);
    const std::vector<cv::Point2d> found = BlobCentroids(RenderFrame(world, shot), 50);
    ASSERT_EQ(found.size(), dots.size()) << "shot " << i;
    for (size_t k = 0; k < dots.size(); ++k) {
      const double err = Nearest(found, expected[k]);
      worst = std::max(worst, err);
      EXPECT_LT(err, 0.5) << "shot " << i << " dot " << dots[k] << " expected at " << expected[k];
    }
  }
  std::cout << "[          ] worst dot error " << worst << " px\n";
  RecordProperty("worst_dot_error_px", std::to_string(worst));
}

TEST(Camera, ImageFromBoardIsTheUndistortedProjection) {
  CameraShot shot = RandomShot({1920, 1080}, kBoard, ShotRanges(), 7);
  shot.bump = Bump{{-5, 2}, -2};
  shot.pose.k1 = shot.pose.k2 = 0;
  const std::vector<cv::Point2d> pts{{0, 0}, {600, 0}, {600, 400}, {0, 400}, {123, 321}};
  const std::vector<cv::Point2d> projected = ProjectBoardPoints(shot, kBoard, pts);
  const cv::Matx33d h = ImageFromBoard(shot, kBoard);
  for (size_t i = 0; i < pts.size(); ++i) {
    const cv::Vec3d v = h * cv::Vec3d(pts[i].x, pts[i].y, 1);
    EXPECT_NEAR(v[0] / v[2], projected[i].x, 1e-6);
    EXPECT_NEAR(v[1] / v[2], projected[i].y, 1e-6);
  }
}

TEST(Camera, OverheadShotIsUpright) {
  World world = FlatWorld(cv::Scalar(90, 90, 90));
  AddDot(world, {40, 40}, 4, cv::Scalar(-90, -90, 160));    // red near the board's top-left corner
  AddDot(world, {560, 360}, 4, cv::Scalar(160, -90, -90));  // blue near its bottom-right corner
  const CameraShot shot = OverheadShot({1280, 720}, kBoard);
  const cv::Mat frame = RenderFrame(world, shot);
  auto centroid_of = [&](int channel) {
    cv::Mat planes[3];
    cv::split(frame, planes);
    const cv::Moments m = cv::moments(planes[channel] > 150, true);
    return cv::Point2d(m.m10 / m.m00, m.m01 / m.m00);
  };
  const cv::Point2d red = centroid_of(2), blue = centroid_of(0);
  EXPECT_LT(red.x, 1280 / 3.0);
  EXPECT_LT(red.y, 720 / 3.0);
  EXPECT_GT(blue.x, 2 * 1280 / 3.0);
  EXPECT_GT(blue.y, 2 * 720 / 3.0);
  const std::vector<cv::Point2d> expected = ProjectBoardPoints(shot, kBoard, {{40, 40}, {560, 360}});
  EXPECT_LT(cv::norm(red - expected[0]), 1.0);
  EXPECT_LT(cv::norm(blue - expected[1]), 1.0);
  // The board fills 85% of the frame's height (the binding side for a 3:2 board in a 16:9 frame).
  const std::vector<cv::Point2d> corners = ProjectBoardPoints(shot, kBoard, {{0, 0}, {600, 400}});
  EXPECT_NEAR((corners[1].y - corners[0].y) / 720, 0.85, 1e-6);
}

TEST(Camera, RandomShotIsDeterministic) {
  const World world = TexturedWorld();
  ShotRanges ranges;
  ranges.max_arms = 2;
  for (uint64_t seed : {1, 2, 3}) {
    const CameraShot a = RandomShot({640, 360}, kBoard, ranges, seed);
    const CameraShot b = RandomShot({640, 360}, kBoard, ranges, seed);
    const cv::Mat fa = RenderFrame(world, a);
    RenderFrame(world, RandomShot({640, 360}, kBoard, ranges, seed + 100));  // another pose in between
    const cv::Mat fb = RenderFrame(world, b);
    ASSERT_EQ(fa.size(), cv::Size(640, 360));
    ASSERT_EQ(fa.type(), CV_8UC3);
    EXPECT_EQ(cv::norm(fa, fb, cv::NORM_INF), 0) << "seed " << seed;
    EXPECT_GT(cv::norm(fa, RenderFrame(world, RandomShot({640, 360}, kBoard, ranges, seed + 1)), cv::NORM_L1), 0);
  }
}

TEST(Camera, RandomShotsKeepTheBoardInsideTheFrame) {
  const ShotRanges ranges;
  const cv::Size frame(1920, 1080);
  std::vector<cv::Point2d> outline;
  for (int i = 0; i <= 20; ++i) {
    const double t = i / 20.0;
    outline.insert(outline.end(), {{t * 600, 0}, {600, t * 400}, {t * 600, 400}, {0, t * 400}});
  }
  double min_fill = 1, max_fill = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const CameraShot shot = RandomShot(frame, kBoard, ranges, seed);
    EXPECT_LE(shot.pose.tilt_deg, ranges.max_tilt_deg);
    EXPECT_LE(std::abs(shot.pose.roll_deg), ranges.max_roll_deg);
    EXPECT_LE(std::abs(shot.pose.k1), ranges.max_k1);
    EXPECT_GE(shot.pose.focal_px, 0.8 * frame.width);
    EXPECT_LE(shot.pose.focal_px, 1.6 * frame.width);
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (const cv::Point2d& p : ProjectBoardPoints(shot, kBoard, outline)) {
      EXPECT_GE(p.x, 0.019 * frame.width) << "seed " << seed;
      EXPECT_GE(p.y, 0.019 * frame.height) << "seed " << seed;
      EXPECT_LE(p.x, 0.981 * frame.width) << "seed " << seed;
      EXPECT_LE(p.y, 0.981 * frame.height) << "seed " << seed;
      x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    const double fill = std::max((x1 - x0) / frame.width, (y1 - y0) / frame.height);
    min_fill = std::min(min_fill, fill), max_fill = std::max(max_fill, fill);
    EXPECT_LE(fill, ranges.max_board_fill + 0.005) << "seed " << seed;
  }
  // The fill varies over the range; pushing the camera back to fit only ever shrinks it a little.
  EXPECT_LT(min_fill, ranges.min_board_fill + 0.03);
  EXPECT_GT(max_fill, 0.85);
}

TEST(Camera, CleanShotOfAUniformWorldIsUniform) {
  const ShotRanges clean = ShotRanges::Clean();
  const CameraShot shot = RandomShot({960, 540}, kBoard, clean, 5);
  EXPECT_EQ(shot.pose.tilt_deg, 0);
  EXPECT_EQ(shot.pose.roll_deg, 0);
  EXPECT_EQ(shot.pose.k1, 0);
  EXPECT_TRUE(shot.light.glare.empty());
  EXPECT_TRUE(shot.arms.empty());
  EXPECT_EQ(shot.sensor.noise_sigma, 0);
  EXPECT_EQ(shot.sensor.jpeg_quality, 0);
  const cv::Mat frame = RenderFrame(FlatWorld(cv::Scalar(128, 128, 128)), shot);
  double lo, hi;
  cv::minMaxLoc(frame.reshape(1), &lo, &hi);
  EXPECT_GE(lo, 127);
  EXPECT_LE(hi, 129);
}

CameraShot PlainShot() { return OverheadShot({640, 360}, kBoard); }

TEST(Camera, ExposureBrightens) {
  const World world = TexturedWorld();
  CameraShot dark = PlainShot(), bright = PlainShot();
  dark.light.ev = -1;
  bright.light.ev = 1;
  const double m_dark = cv::mean(RenderFrame(world, dark))[1], m_plain = cv::mean(RenderFrame(world, PlainShot()))[1];
  const double m_bright = cv::mean(RenderFrame(world, bright))[1];
  EXPECT_LT(m_dark, 0.85 * m_plain);
  EXPECT_GT(m_bright, 1.15 * m_plain);
}

TEST(Camera, WarmLightIsRedderThanCoolLight) {
  const World world = FlatWorld(cv::Scalar(120, 120, 120));
  auto red_over_blue = [&](double kelvin) {
    CameraShot shot = PlainShot();
    shot.light.kelvin = kelvin;
    const cv::Scalar m = cv::mean(RenderFrame(world, shot));
    return m[2] / m[0];
  };
  const double warm = red_over_blue(2700), neutral = red_over_blue(5000), cool = red_over_blue(6500);
  EXPECT_GT(warm, 1.2 * neutral);
  EXPECT_LT(cool, 0.95 * neutral);
  EXPECT_NEAR(neutral, 1, 0.02);
}

TEST(Camera, VignettingGradientAndGlareActWhereTheyShould) {
  const World world = FlatWorld(cv::Scalar(100, 100, 100));
  auto at = [](const cv::Mat& f, int x, int y) { return cv::mean(f(cv::Rect(x - 5, y - 5, 10, 10)))[1]; };
  CameraShot vignetted = PlainShot();
  vignetted.light.vignetting = 0.4;
  const cv::Mat v = RenderFrame(world, vignetted);
  EXPECT_NEAR(at(v, 320, 180), 100, 1.5);
  EXPECT_NEAR(at(v, 6, 6), 60, 4);  // (1 - 0.4) at the corners

  CameraShot graded = PlainShot();
  graded.light.gradient = 0.3;  // along +x: bright left, dark right
  const cv::Mat g = RenderFrame(world, graded);
  EXPECT_NEAR(at(g, 6, 180), 100, 2);
  EXPECT_NEAR(at(g, 633, 180), 70, 2);

  CameraShot glared = PlainShot();
  glared.light.glare = {Glare{{200, 150}, {60, 40}, 20, 0.4}};
  const cv::Mat l = RenderFrame(world, glared);
  EXPECT_NEAR(at(l, 200, 150), 100 + 0.4 * 255, 4);
  EXPECT_NEAR(at(l, 550, 300), 100, 1);
}

TEST(Camera, NoiseHasTheRequestedSigmaAndJpegKeepsTheFrame) {
  const World world = FlatWorld(cv::Scalar(128, 128, 128));
  CameraShot shot = PlainShot();
  shot.sensor.noise_sigma = 3;
  cv::Scalar mean, sd;
  cv::meanStdDev(RenderFrame(world, shot), mean, sd);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(mean[c], 128, 0.3);
    EXPECT_NEAR(sd[c], 3, 0.3);
  }
  shot.sensor.jpeg_quality = 80;
  shot.sensor.blur_sigma = 1;
  const cv::Mat jpeg = RenderFrame(world, shot);
  ASSERT_EQ(jpeg.size(), shot.frame);
  ASSERT_EQ(jpeg.type(), CV_8UC3);
  cv::meanStdDev(jpeg, mean, sd);
  EXPECT_NEAR(mean[1], 128, 1);
  EXPECT_LT(sd[1], 3);  // blur and compression smooth the noise
}

TEST(Camera, ArmsChangeOnlyTheirPartOfTheFrame) {
  const World world = TexturedWorld();
  const CameraShot plain = PlainShot();
  CameraShot with_arm = plain;
  Arm arm;
  arm.shoulder = {-30, 220};
  arm.hand = {190, 170};
  arm.width_px = 45;
  arm.motion_blur_px = 6;
  with_arm.arms.push_back(arm);
  const cv::Mat a = RenderFrame(world, plain), b = RenderFrame(world, with_arm);
  cv::Mat diff;
  cv::absdiff(a, b, diff);
  cv::cvtColor(diff, diff, cv::COLOR_BGR2GRAY);
  const cv::Rect far_side(400, 0, 240, 360);
  EXPECT_EQ(cv::countNonZero(diff(far_side)), 0);
  EXPECT_GT(diff.at<uchar>(170, 190), 10);  // the hand covers the table there
  EXPECT_GT(diff.at<uchar>(215, 40), 10);   // so does the forearm
  const double changed = cv::countNonZero(diff > 3) / double(diff.total());
  EXPECT_GT(changed, 0.03);
  EXPECT_LT(changed, 0.4);
}

TEST(Camera, AddRandomArmsReachOverTheBoard) {
  CameraShot shot = RandomShot({1920, 1080}, kBoard, ShotRanges(), 11);
  shot.arms.clear();
  AddRandomArms(shot, 2, 99);
  ASSERT_EQ(shot.arms.size(), 2u);
  for (const Arm& arm : shot.arms) {
    EXPECT_TRUE(arm.shoulder.x <= 0 || arm.shoulder.y <= 0 || arm.shoulder.x >= 1919 || arm.shoulder.y >= 1079);
    EXPECT_GT(arm.hand.x, 0.15 * 1920);
    EXPECT_LT(arm.hand.x, 0.85 * 1920);
    EXPECT_GT(arm.hand.y, 0.15 * 1080);
    EXPECT_LT(arm.hand.y, 0.85 * 1080);
    EXPECT_GT(arm.width_px, 60);
    EXPECT_LT(arm.width_px, 400);
  }
  CameraShot again = shot;
  again.arms.clear();
  AddRandomArms(again, 2, 99);
  EXPECT_EQ(again.arms[1].hand, shot.arms[1].hand);
}

}  // namespace
}  // namespace swref::datasets
