#include "datasets/token_art.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <opencv2/imgproc.hpp>

#include "datasets/token_pdf.h"
#include "engine/components.h"

namespace swref::datasets {
namespace {

// The design's closest pair measures about 24 (CIE76 on the mean colour); a just noticeable difference is about 2.3.
constexpr double kMinColourDistance = 18;

double PolygonArea(const std::vector<cv::Point2d>& p) {
  double twice = 0;
  for (size_t i = 0; i < p.size(); ++i) twice += p[i].cross(p[(i + 1) % p.size()]);
  return std::abs(twice) / 2;
}

cv::Rect2d Bounds(const std::vector<cv::Point2d>& p) {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const cv::Point2d& q : p) {
    x0 = std::min(x0, q.x), y0 = std::min(y0, q.y), x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

// Opaque pixels (alpha > 127): within half a pixel per edge of the outline.
double FootprintMm2(const cv::Mat& bgra, double px_per_mm) {
  int count = 0;
  for (int y = 0; y < bgra.rows; ++y)
    for (int x = 0; x < bgra.cols; ++x) count += bgra.at<cv::Vec4b>(y, x)[3] > 127;
  return count / (px_per_mm * px_per_mm);
}

// Coverage (sum of alpha): what anti-aliasing gets right to a fraction of a pixel whatever the edges' alignment.
double CoverageMm2(const cv::Mat& bgra, double px_per_mm) {
  cv::Mat alpha;
  cv::extractChannel(bgra, alpha, 3);
  return cv::sum(alpha)[0] / 255 / (px_per_mm * px_per_mm);
}

// Mean colour of the opaque part of a render, in CIE Lab (L 0..100).
cv::Vec3f MeanLab(const cv::Mat& bgra) {
  cv::Mat bgr, alpha, lab;
  cv::cvtColor(bgra, bgr, cv::COLOR_BGRA2BGR);
  cv::extractChannel(bgra, alpha, 3);
  bgr.convertTo(bgr, CV_32FC3, 1.0 / 255);
  cv::cvtColor(bgr, lab, cv::COLOR_BGR2Lab);
  const cv::Scalar m = cv::mean(lab, alpha > 200);
  return {static_cast<float>(m[0]), static_cast<float>(m[1]), static_cast<float>(m[2])};
}

TEST(TokenArt, ThirtySixKindsInTheDocumentedOrder) {
  const std::vector<std::string>& kinds = AllTokenKinds();
  ASSERT_EQ(kinds.size(), 36u);
  EXPECT_EQ(std::set<std::string>(kinds.begin(), kinds.end()).size(), 36u);
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const std::string id(engine::Info(static_cast<engine::Race>(r)).id);
    EXPECT_EQ(kinds[r], id);
    EXPECT_EQ(kinds[engine::kRaceCount + r], id + "_decline");
  }
  EXPECT_EQ(kinds[28], "lost_tribe");
  for (int p = 0; p < 7; ++p) EXPECT_EQ(kinds[29 + p], engine::Info(static_cast<engine::Piece>(p)).id);
  for (const std::string& kind : kinds) {
    EXPECT_TRUE(IsTokenKind(kind));
    EXPECT_EQ(DesignOf(kind).kind, kind);
  }
  EXPECT_FALSE(IsTokenKind("dragons"));
  EXPECT_FALSE(IsTokenKind(""));
  EXPECT_THROW(DesignOf("dragons"), std::invalid_argument);
}

TEST(TokenArt, ShapesLieWithinTheFootprintsBoundingBox) {
  for (const std::string& kind : AllTokenKinds()) {
    const TokenDesign& d = DesignOf(kind);
    ASSERT_GE(d.outline.size(), 3u) << kind;
    const cv::Rect2d box = Bounds(d.outline);
    EXPECT_NEAR(d.size_mm, box.width, 1e-9) << kind;
    EXPECT_GT(d.size_mm, 20) << kind;
    EXPECT_LT(d.size_mm, 36) << kind;
    ASSERT_FALSE(d.shapes.empty()) << kind;
    for (size_t i = 0; i < d.shapes.size(); ++i) {
      const TokenShape& s = d.shapes[i];
      ASSERT_FALSE(s.points.empty()) << kind << " shape " << i;
      const double reach = (s.type == TokenShape::Type::kCircle ? s.radius_mm : 0) + s.line_mm / 2;
      for (const cv::Point2d& p : s.points) {
        EXPECT_GE(p.x - reach, box.x - 1e-6) << kind << " shape " << i;
        EXPECT_LE(p.x + reach, box.x + box.width + 1e-6) << kind << " shape " << i;
        EXPECT_GE(p.y - reach, box.y - 1e-6) << kind << " shape " << i;
        EXPECT_LE(p.y + reach, box.y + box.height + 1e-6) << kind << " shape " << i;
      }
    }
  }
}

TEST(TokenArt, SizesAreThePrintedOnes) {
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const std::string id(engine::Info(static_cast<engine::Race>(r)).id);
    EXPECT_NEAR(DesignOf(id).size_mm, 25, 1.0) << id;
  }
  EXPECT_NEAR(DesignOf("mountain").size_mm, 32, 1.0);
  EXPECT_NEAR(DesignOf("dragon").size_mm, 34, 1.0);
  EXPECT_NEAR(DesignOf("encampment").size_mm, 22, 1.0);
}

// A flipped token shows its cut outline mirrored: the decline side's footprint is the active one's, mirrored.
TEST(TokenArt, DeclineFootprintIsTheActiveOneMirrored) {
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const std::string id(engine::Info(static_cast<engine::Race>(r)).id);
    const TokenDesign &active = DesignOf(id), &decline = DesignOf(id + "_decline");
    ASSERT_EQ(active.outline.size(), decline.outline.size()) << id;
    for (size_t i = 0; i < active.outline.size(); ++i) {
      EXPECT_DOUBLE_EQ(decline.outline[i].x, -active.outline[i].x) << id;
      EXPECT_DOUBLE_EQ(decline.outline[i].y, active.outline[i].y) << id;
    }
  }
}

TEST(TokenRender, CentredOddSquareWithFootprintAlpha) {
  for (double px_per_mm : {3.0, 8.0}) {
    for (const std::string& kind : AllTokenKinds()) {
      const cv::Mat img = RenderToken(kind, px_per_mm, 0);
      ASSERT_EQ(img.type(), CV_8UC4) << kind;
      ASSERT_EQ(img.rows, img.cols) << kind;
      ASSERT_EQ(img.rows % 2, 1) << kind;
      const int c = img.rows / 2, last = img.rows - 1;
      EXPECT_EQ(img.at<cv::Vec4b>(c, c)[3], 255) << kind;
      for (const cv::Point corner : {cv::Point(0, 0), cv::Point(last, 0), cv::Point(0, last), cv::Point(last, last)})
        EXPECT_EQ(img.at<cv::Vec4b>(corner)[3], 0) << kind;
      const double expected = PolygonArea(DesignOf(kind).outline);
      EXPECT_NEAR(FootprintMm2(img, px_per_mm), expected, 0.10 * expected) << kind << " at " << px_per_mm << " px/mm";
      // The whole footprint fits: no opaque pixel on the image's border.
      for (int i = 0; i <= last; ++i) {
        EXPECT_EQ(img.at<cv::Vec4b>(0, i)[3], 0) << kind;
        EXPECT_EQ(img.at<cv::Vec4b>(last, i)[3], 0) << kind;
      }
    }
  }
}

TEST(TokenRender, CoverageMatchesTheOutlineAtThreePxPerMm) {
  for (const std::string& kind : AllTokenKinds()) {
    const double expected = PolygonArea(DesignOf(kind).outline);
    for (double deg : {0.0, 30.0})
      EXPECT_NEAR(CoverageMm2(RenderToken(kind, 3.0, deg), 3.0), expected, 0.02 * expected) << kind;
  }
}

TEST(TokenRender, RotationPreservesAreaAndSize) {
  for (const std::string kind : {"amazons", "mountain", "fortress", "dragon", "hero", "trolls_decline"}) {
    const cv::Mat upright = RenderToken(kind, 6.0, 0);
    const double area = CoverageMm2(upright, 6.0);
    for (double deg : {17.0, 45.0, 90.0, 133.0, -71.0}) {
      const cv::Mat turned = RenderToken(kind, 6.0, deg);
      EXPECT_EQ(turned.size(), upright.size()) << kind;
      EXPECT_NEAR(CoverageMm2(turned, 6.0), area, 0.01 * area) << kind << " at " << deg << " deg";
      EXPECT_NEAR(FootprintMm2(turned, 6.0), area, 0.03 * area) << kind << " at " << deg << " deg";
    }
  }
}

// Counter-clockwise in the image: the mountain's highest peak (-1.0, -14.2) points up at 0 degrees, left at 90.
TEST(TokenRender, RotationIsCounterClockwise) {
  const double px_per_mm = 4.0;
  auto alpha_at = [&](const cv::Mat& img, double x_mm, double y_mm) {
    const int c = img.rows / 2;
    return img.at<cv::Vec4b>(c + static_cast<int>(std::lround(y_mm * px_per_mm)),
                             c + static_cast<int>(std::lround(x_mm * px_per_mm)))[3];
  };
  const cv::Mat upright = RenderToken("mountain", px_per_mm, 0), turned = RenderToken("mountain", px_per_mm, 90);
  EXPECT_EQ(alpha_at(upright, -1.2, -12.8), 255);  // near the tip of the peak
  EXPECT_EQ(alpha_at(upright, 0, 12.8), 0);        // below the flat bottom (11.8 mm)
  EXPECT_EQ(alpha_at(turned, -12.8, 1.2), 255);    // the peak, now on the left
  EXPECT_EQ(alpha_at(turned, 12.8, 0), 0);         // and the bottom on the right
}

// The same kind, scale and angle give the same pixels (its time is measured by micro_bench, BM_RenderToken).
TEST(TokenRender, Deterministic) {
  const cv::Mat a = RenderToken("ratmen", 3.0, 30), b = RenderToken("ratmen", 3.0, 30);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0);
}

// A camera classifier tells races apart by colour first: the 14 active sides' mean colours must be far apart.
// CIE76 distance of the mean Lab colour over the footprint (symbol included, as a camera averages it).
TEST(TokenRender, ActiveColoursArePairwiseDistinct) {
  std::vector<cv::Vec3f> lab;
  std::vector<std::string> ids;
  for (int r = 0; r < engine::kRaceCount; ++r) {
    ids.emplace_back(engine::Info(static_cast<engine::Race>(r)).id);
    lab.push_back(MeanLab(RenderToken(ids.back(), 4.0)));
  }
  double closest = 1e9;
  std::string pair;
  for (int i = 0; i < engine::kRaceCount; ++i) {
    for (int j = i + 1; j < engine::kRaceCount; ++j) {
      const double d = cv::norm(lab[i] - lab[j]);
      if (d < closest) closest = d, pair = ids[i] + " / " + ids[j];
    }
  }
  std::printf("closest active colours: %s, delta E %.1f\n", pair.c_str(), closest);
  EXPECT_GT(closest, kMinColourDistance) << pair;
}

TEST(TokenRender, DeclineSidesAreGrey) {
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const std::string kind = std::string(engine::Info(static_cast<engine::Race>(r)).id) + "_decline";
    cv::Mat img = RenderToken(kind, 4.0), bgr, hsv, alpha;
    cv::cvtColor(img, bgr, cv::COLOR_BGRA2BGR);
    cv::cvtColor(bgr, hsv, cv::COLOR_BGR2HSV);
    cv::extractChannel(img, alpha, 3);
    EXPECT_LT(cv::mean(hsv, alpha > 0)[1], 8) << kind;  // saturation of 0..255
  }
}

TEST(TokenPdf, WritesAPdfWithPairedPagesInDuplex) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / "swref_token_art_test.pdf").string();
  for (bool full_box : {false, true}) {
    for (bool duplex : {false, true}) {
      for (const std::string paper : {"a4", "letter"}) {
        TokenSheetOptions o;
        o.full_box = full_box;
        o.duplex = duplex;
        o.paper = paper;
        const auto pages = WriteTokenSheetPdf(path, o);
        ASSERT_TRUE(pages.ok()) << pages.error();
        EXPECT_GT(*pages, 0);
        if (duplex) {
          EXPECT_EQ(*pages % 2, 0) << paper;
        }
        std::ifstream in(path, std::ios::binary);
        std::string head(5, '\0');
        in.read(head.data(), 5);
        EXPECT_EQ(head, "%PDF-");
        EXPECT_GT(std::filesystem::file_size(path), 10000u);
        if (full_box && duplex && paper == "a4")
          std::printf("full box, duplex, A4: %d pages, %ju bytes\n", *pages, std::filesystem::file_size(path));
      }
    }
  }
  std::filesystem::remove(path);
}

TEST(TokenPdf, FullBoxNeedsMorePagesThanTwoOfEach) {
  const std::string path = (std::filesystem::temp_directory_path() / "swref_token_art_test_2.pdf").string();
  TokenSheetOptions few, all;
  few.full_box = false;
  const auto a = WriteTokenSheetPdf(path, few), b = WriteTokenSheetPdf(path, all);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_LT(*a, *b);
  std::filesystem::remove(path);
}

TEST(TokenPdf, ErrorsNameTheFile) {
  const auto r = WriteTokenSheetPdf("/nonexistent-dir/x.pdf", TokenSheetOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("/nonexistent-dir/x.pdf"), std::string::npos) << r.error();
  TokenSheetOptions o;
  o.paper = "a3";
  const std::string path = (std::filesystem::temp_directory_path() / "swref_token_art_test_3.pdf").string();
  const auto bad = WriteTokenSheetPdf(path, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find(path), std::string::npos) << bad.error();
  EXPECT_NE(bad.error().find("a3"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace swref::datasets
