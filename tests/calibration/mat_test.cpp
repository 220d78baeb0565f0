#include "calibration/mat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/board_art.h"
#include "datasets/mat_photo.h"
#include "datasets/token_art.h"

namespace swref::calibration {
namespace {

std::vector<cv::Point2d> AllMarkerCorners(const MatGeometry& mat) {
  std::vector<cv::Point2d> pts;
  for (const MatMarker& m : mat.markers) {
    const double s = m.size_mm;
    for (cv::Point2d d : {cv::Point2d(0, 0), cv::Point2d(s, 0), cv::Point2d(s, s), cv::Point2d(0, s)})
      pts.push_back(m.corner_mm + d);
  }
  return pts;
}

TEST(MatGeometry, Nominal) {
  for (const std::string paper : {"a4", "letter"}) {
    const MatGeometry mat = Mat(paper);
    ASSERT_EQ(mat.cells.size(), 22u);
    // What is printed fits an A4 page's width and, under a 30 mm header, a Letter page's height, with 8 mm margins.
    EXPECT_LE(mat.size_mm.width - 2 * mat.quiet_mm, 210 - 16);
    EXPECT_LE(mat.size_mm.height - 2 * mat.quiet_mm, 279.4 - 8 - 30);
    EXPECT_GE(mat.quiet_mm, 14 / 6.0);  // at least one marker cell of white outside the markers
    const cv::Rect2d whole(0, 0, mat.size_mm.width, mat.size_mm.height);
    std::set<std::string> kinds;
    for (const MatCell& cell : mat.cells) {
      EXPECT_TRUE(kinds.insert(cell.kind).second) << cell.kind;
      EXPECT_TRUE(datasets::IsTokenKind(cell.kind)) << cell.kind;
      EXPECT_TRUE(datasets::IsTokenKind(cell.flipped_kind)) << cell.flipped_kind;
      EXPECT_EQ((cell.rect_mm & whole).area(), cell.rect_mm.area()) << cell.kind;
      // Room for the largest piece (the dragon, 34 mm across) with a margin.
      EXPECT_GE(std::min(cell.rect_mm.width, cell.rect_mm.height), 38) << cell.kind;
      EXPECT_EQ((cell.rect_mm & mat.notes_mm).area(), 0) << cell.kind;
      for (const MatMarker& m : mat.markers)
        EXPECT_EQ((cell.rect_mm & cv::Rect2d(m.corner_mm, cv::Size2d(m.size_mm, m.size_mm))).area(), 0);
      for (const MatCell& other : mat.cells) {
        if (&other == &cell) continue;
        EXPECT_EQ((cell.rect_mm & other.rect_mm).area(), 0);
      }
    }
    EXPECT_EQ(mat.cells.front().flipped_kind, "amazons_decline");
    EXPECT_EQ(mat.cells[14].kind, "lost_tribe");
    EXPECT_EQ(mat.cells[14].flipped_kind, "lost_tribe");
    EXPECT_EQ(mat.cells.back().kind, "dragon");
    ASSERT_EQ(mat.markers.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(mat.markers[i].id, 10 + i);
    const double q = mat.quiet_mm;
    EXPECT_EQ(mat.markers[0].corner_mm, cv::Point2d(q, q));
    EXPECT_EQ(mat.markers[2].corner_mm + cv::Point2d(mat.markers[2].size_mm, mat.markers[2].size_mm),
              cv::Point2d(mat.size_mm.width - q, mat.size_mm.height - q));
  }
}

TEST(ReadMatPhoto, EmptyMatStraightOn) {
  const MatGeometry mat = Mat();
  const cv::Mat img = RenderMat(mat, 5);
  auto photo = ReadMatPhoto(img, mat, "flat.png");
  ASSERT_TRUE(photo.ok()) << photo.error();
  EXPECT_TRUE(photo->missing_markers.empty());
  EXPECT_LT(photo->reprojection_px, 0.3);
  EXPECT_EQ(photo->empty_cells.size(), 22u);
  for (const CellCrop& c : photo->cells) {
    EXPECT_EQ(c.crop.size(), cv::Size(240, 240));
    EXPECT_LT(c.occupancy, 0.01) << c.kind;
  }
  // mat_from_image is the raster's own scale: pixel centre (i + 0.5) / 5 mm.
  const cv::Vec3d p = photo->mat_from_image * cv::Vec3d(499.5, 99.5, 1);
  EXPECT_NEAR(p[0] / p[2], 100, 0.05);
  EXPECT_NEAR(p[1] / p[2], 20, 0.05);
}

// The enrollment photos as a table camera takes them (datasets/mat_photo.h: the printed page on a table): tilted up
// to 15 degrees, lens distortion, coloured light, glare, noise, blur and JPEG. Every shot must find the mat to
// within a pixel and tell every cell right.
TEST(ReadMatPhoto, SimulatedCameraBothSides) {
  const MatGeometry mat = Mat();
  const std::vector<cv::Point2d> corners_mm = AllMarkerCorners(mat);
  double worst_px = 0, lowest_occupied = 1, highest_empty = 0;
  int cells = 0, right = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    datasets::MatPhotoOptions options;
    options.flipped = seed % 2 == 0;
    options.empty_cells = {"hero"};
    options.seed = seed;
    auto shot = datasets::RenderMatPhoto(options);
    ASSERT_TRUE(shot.ok()) << shot.error();
    const cv::Mat& frame = shot->image;
    const std::string name = "shot" + std::to_string(seed) + ".jpg";
    auto photo = ReadMatPhoto(frame, mat, name);
    ASSERT_TRUE(photo.ok()) << photo.error();

    // The homography against the simulator's truth, at the marker corners.
    std::vector<cv::Point2d> on_page;
    for (const cv::Point2d& c : corners_mm) on_page.push_back(c + shot->mat_origin_mm);
    const std::vector<cv::Point2d> truth = datasets::ProjectBoardPoints(shot->shot, shot->page_mm, on_page);
    const cv::Matx33d image_from_mat = photo->mat_from_image.inv();
    for (size_t i = 0; i < truth.size(); ++i) {
      const cv::Vec3d q = image_from_mat * cv::Vec3d(corners_mm[i].x, corners_mm[i].y, 1);
      const double err = cv::norm(cv::Point2d(q[0] / q[2], q[1] / q[2]) - truth[i]);
      worst_px = std::max(worst_px, err);
      EXPECT_LT(err, 1.0) << name << " corner " << i;
    }

    for (const CellCrop& c : photo->cells) {
      const bool should_hold = c.kind != "hero";
      ++cells;
      right += c.occupied == should_hold;
      EXPECT_EQ(c.occupied, should_hold) << name << " " << c.kind << " occupancy " << c.occupancy;
      if (should_hold) {
        lowest_occupied = std::min(lowest_occupied, c.occupancy);
      } else {
        highest_empty = std::max(highest_empty, c.occupancy);
      }
    }
    EXPECT_EQ(photo->empty_cells, std::vector<std::string>{"hero"}) << name;
    const std::vector<std::string> expected = {"mat photo " + name + ": cell 'hero' is empty"};
    EXPECT_EQ(EmptyCellMessages(*photo, name), expected);
  }
  std::printf("mat photos: worst marker corner %.2f px; cells right %d/%d; occupancy: lowest occupied %.2f, "
              "highest empty %.2f\n", worst_px, right, cells, lowest_occupied, highest_empty);
}

TEST(ReadMatPhoto, ThreeMarkersSuffice) {
  const MatGeometry mat = Mat();
  cv::Mat img = RenderMat(mat, 5);
  const MatMarker& hidden = mat.markers[2];
  cv::rectangle(img, cv::Rect(cvRound(hidden.corner_mm.x * 5) - 5, cvRound(hidden.corner_mm.y * 5) - 5, 90, 90),
                cv::Scalar(60, 90, 140), cv::FILLED);  // a coffee cup over marker 12
  auto photo = ReadMatPhoto(img, mat, "cup.png");
  ASSERT_TRUE(photo.ok()) << photo.error();
  EXPECT_EQ(photo->missing_markers, std::vector<int>{12});
  EXPECT_LT(photo->reprojection_px, 0.3);
}

TEST(ReadMatPhoto, RejectsPhotoWithoutTheMat) {
  const MatGeometry mat = Mat();
  const cv::Mat table = datasets::RenderTable({1280, 720}, 3, datasets::TableKind::kOak, 4);
  auto photo = ReadMatPhoto(table, mat, "table.jpg");
  ASSERT_FALSE(photo.ok());
  EXPECT_EQ(photo.error(),
            "mat photo table.jpg: found 0 of the mat's 4 corner markers (missing 10, 11, 12, 13); at least 3 are "
            "needed: photograph the whole mat");

  // The board's corner markers are not the mat's, and the message says so.
  cv::Mat board(400, 600, CV_8UC3, cv::Scalar::all(255));
  const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (int id = 0; id < 2; ++id) {
    cv::Mat m;
    cv::aruco::drawMarker(dict, id, 120, m, 1);
    cv::cvtColor(m, m, cv::COLOR_GRAY2BGR);
    m.copyTo(board(cv::Rect(40 + 300 * id, 40, 120, 120)));
  }
  photo = ReadMatPhoto(board, mat, "board.jpg");
  ASSERT_FALSE(photo.ok());
  EXPECT_NE(photo.error().find("(markers 0, 1 seen are not the mat's)"), std::string::npos) << photo.error();

  EXPECT_EQ(ReadMatPhoto(cv::Mat(), mat, "none.jpg").error(), "mat photo none.jpg: empty image");
}

}  // namespace
}  // namespace swref::calibration
