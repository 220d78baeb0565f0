#include "calibration/targets.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/mat.h"

namespace swref::calibration {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Pages of a cairo PDF: one "/Type /Page" object each (the page tree is "/Type /Pages").
// (A plain search: GCC 12 warns falsely inside std::regex under the sanitizers.)
int PdfPages(const std::string& pdf) {
  int pages = 0;
  for (size_t at = pdf.find("/Type"); at != std::string::npos; at = pdf.find("/Type", at + 1)) {
    size_t i = at + 5;
    while (i < pdf.size() && std::isspace(static_cast<unsigned char>(pdf[i]))) ++i;
    if (pdf.compare(i, 5, "/Page") == 0 && i + 5 < pdf.size() && pdf[i + 5] != 's') ++pages;
  }
  return pages;
}

fs::path Scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "swref_targets_test";
  fs::create_directories(dir);
  return dir / name;
}

TEST(TargetsPdf, Nominal) {
  for (const std::string paper : {"a4", "letter", "A4"}) {
    struct Case {
      std::string name;
      engine::Result<int> written;
      int pages;
    };
    const fs::path m = Scratch("markers_" + paper + ".pdf"), c = Scratch("charuco_" + paper + ".pdf"),
                   t = Scratch("mat_" + paper + ".pdf"), big = Scratch("markers80_" + paper + ".pdf");
    const Case cases[] = {{m.string(), WriteMarkersPdf(m.string(), paper), 1},
                          {c.string(), WriteCharucoPdf(c.string(), paper), 1},
                          {t.string(), WriteMatPdf(t.string(), paper), 1},
                          // 80 mm markers: one per page, since two in their 13 mm frames are wider than the page
                          {big.string(), WriteMarkersPdf(big.string(), paper, 80), 4}};
    for (const Case& k : cases) {
      ASSERT_TRUE(k.written.ok()) << k.name << ": " << k.written.error();
      EXPECT_EQ(*k.written, k.pages) << k.name;
      const std::string pdf = ReadAll(k.name);
      EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u) << k.name;
      EXPECT_EQ(PdfPages(pdf), k.pages) << k.name;
    }
  }
}

TEST(TargetsPdf, RejectsUnwritablePathNamingIt) {
  const std::string path = "/nonexistent-swref-dir/markers.pdf";
  for (const auto& result : {WriteMarkersPdf(path, "a4"), WriteCharucoPdf(path, "a4"), WriteMatPdf(path, "letter")}) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error(), path + ": cannot open for writing: No such file or directory");
  }
}

TEST(TargetsPdf, RejectsBadOptionsNamingTheFile) {
  const std::string path = Scratch("bad.pdf").string();
  EXPECT_EQ(WriteMatPdf(path, "a3").error(), path + ": unknown paper \"a3\" (expected a4 or letter)");
  EXPECT_EQ(WriteMarkersPdf(path, "a4", 5).error(), path + ": marker size 5 mm: expected at least 10 mm");
  EXPECT_EQ(WriteMarkersPdf(path, "a4", 250).error(),
            path + ": markers of 250 mm (333.33 mm with their frame) do not fit on the page");
  CharucoSpec spec;
  spec.square_mm = 40;  // 200 x 280 mm
  EXPECT_EQ(WriteCharucoPdf(path, "letter", spec).error(),
            path + ": a ChArUco board of 200 x 280 mm does not fit on the page (room for 199.9 x 230.5 mm under "
                   "the instructions)");
  spec = CharucoSpec{};
  spec.dictionary = "DICT_9X9_1";
  EXPECT_EQ(WriteCharucoPdf(path, "a4", spec).error(),
            path + ": unknown ArUco dictionary \"DICT_9X9_1\" (expected one of OpenCV's, e.g. DICT_6X6_250)");
}

TEST(CharucoSpec, RejectsX) {
  CharucoSpec spec;
  EXPECT_EQ(spec.Check(), "");
  spec.marker_mm = 35;
  EXPECT_EQ(spec.Check(), "marker size must be positive and smaller than a square");
  spec = CharucoSpec{};
  spec.squares_x = 1;
  EXPECT_EQ(spec.Check(), "a ChArUco board needs at least 2 x 2 squares");
  spec = CharucoSpec{};
  spec.squares_x = spec.squares_y = 11;
  spec.dictionary = "DICT_4X4_50";
  EXPECT_EQ(spec.Check(), "DICT_4X4_50 holds 50 markers; a 11x11 board needs 60");
}

// Every inner corner of a ChArUco board image, as OpenCV's calibration would find them.
int CharucoCorners(const cv::Mat& bgr, const cv::Ptr<cv::aruco::CharucoBoard>& board,
                   std::vector<cv::Point2f>* corners, std::vector<int>* ids) {
  cv::Mat grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  std::vector<std::vector<cv::Point2f>> markers;
  std::vector<int> marker_ids;
  cv::aruco::detectMarkers(grey, board->dictionary, markers, marker_ids);
  if (marker_ids.empty()) return 0;
  return cv::aruco::interpolateCornersCharuco(markers, marker_ids, grey, board, *corners, *ids);
}

TEST(Charuco, OpenCvsOwnDrawingIsDetectable) {
  const CharucoSpec spec = DefaultCharuco("a4");
  auto board = MakeCharucoBoard(spec);
  ASSERT_TRUE(board.ok()) << board.error();
  cv::Mat img;
  (*board)->draw(cv::Size(700, 980), img, 20, 1);
  cv::cvtColor(img, img, cv::COLOR_GRAY2BGR);
  std::vector<cv::Point2f> corners;
  std::vector<int> ids;
  EXPECT_EQ(CharucoCorners(img, *board, &corners, &ids), (spec.squares_x - 1) * (spec.squares_y - 1));
}

// The printed page itself: every inner corner found, where the board's own geometry puts it, at true scale.
TEST(Charuco, PrintedPageIsDetectableAtTrueScale) {
  for (const std::string paper : {"a4", "letter"}) {
    const CharucoSpec spec = DefaultCharuco(paper);
    auto board = MakeCharucoBoard(spec);
    ASSERT_TRUE(board.ok());
    const double ppm = 4;
    auto pages = RenderCharucoPages(paper, spec, ppm);
    ASSERT_TRUE(pages.ok()) << pages.error();
    ASSERT_EQ(pages->size(), 1u);
    std::vector<cv::Point2f> corners;
    std::vector<int> ids;
    ASSERT_EQ(CharucoCorners(pages->front(), *board, &corners, &ids), (spec.squares_x - 1) * (spec.squares_y - 1))
        << paper;
    // page pixels -> board mm must be a pure translation at 1 / ppm: same ids in the same places, unscaled.
    std::vector<cv::Point2f> board_mm;
    for (int id : ids) board_mm.emplace_back((*board)->chessboardCorners[id].x, (*board)->chessboardCorners[id].y);
    const cv::Mat h = cv::findHomography(corners, board_mm, 0);
    ASSERT_FALSE(h.empty());
    EXPECT_NEAR(h.at<double>(0, 0) / h.at<double>(2, 2), 1 / ppm, 1e-3) << paper;
    EXPECT_NEAR(h.at<double>(1, 1) / h.at<double>(2, 2), 1 / ppm, 1e-3) << paper;
    EXPECT_NEAR(h.at<double>(0, 1) / h.at<double>(2, 2), 0, 1e-3) << paper;
    std::vector<cv::Point2f> mapped;
    cv::perspectiveTransform(corners, mapped, h);
    for (size_t i = 0; i < mapped.size(); ++i) EXPECT_LT(cv::norm(mapped[i] - board_mm[i]), 0.1) << paper << " " << i;
  }
}

TEST(Markers, PrintedPageIsDetectableUprightAtTrueScale) {
  const double ppm = 4, size_mm = 40;
  auto pages = RenderMarkersPages("a4", size_mm, ppm);
  ASSERT_TRUE(pages.ok()) << pages.error();
  ASSERT_EQ(pages->size(), 1u);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(pages->front(), cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50), corners, ids);
  ASSERT_EQ(ids.size(), 4u);
  std::map<int, cv::Point2f> top_left;
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::vector<cv::Point2f>& c = corners[i];
    EXPECT_NEAR(cv::norm(c[1] - c[0]), size_mm * ppm, 1.5) << ids[i];
    EXPECT_NEAR(c[1].y, c[0].y, 1.0) << ids[i];  // upright: its top edge horizontal, first corner at the top left
    EXPECT_GT(c[1].x, c[0].x) << ids[i];
    top_left[ids[i]] = c[0];
  }
  // Laid out as on the board: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
  ASSERT_EQ(top_left.size(), 4u);
  EXPECT_LT(top_left[0].x, top_left[1].x);
  EXPECT_LT(top_left[1].y, top_left[2].y);
  EXPECT_LT(top_left[3].x, top_left[2].x);
  EXPECT_NEAR(top_left[0].x, top_left[3].x, 1);
}

// The PDF's mat and the reader's geometry are one: the rendered page reads back as the mat, empty, at 1 / ppm.
TEST(Mat, PrintedPageReadsBack) {
  for (const std::string paper : {"a4", "letter"}) {
    const double ppm = 5;
    auto pages = RenderMatPages(paper, ppm);
    ASSERT_TRUE(pages.ok()) << pages.error();
    auto photo = ReadMatPhoto(pages->front(), Mat(paper), paper + ".png");
    ASSERT_TRUE(photo.ok()) << photo.error();
    EXPECT_TRUE(photo->missing_markers.empty());
    EXPECT_LT(photo->reprojection_px, 0.3) << paper;
    EXPECT_NEAR(photo->mat_from_image(0, 0) / photo->mat_from_image(2, 2), 1 / ppm, 1e-3) << paper;
    EXPECT_EQ(photo->empty_cells.size(), 22u) << paper;
    for (const CellCrop& c : photo->cells) EXPECT_LT(c.occupancy, 0.01) << paper << " " << c.kind;
  }
}

}  // namespace
}  // namespace swref::calibration
