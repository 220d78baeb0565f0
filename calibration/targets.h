// `swref print markers|charuco|mat`: the printable targets, as PDFs at true scale (1 mm = 72 / 25.4 pt) on A4 or
// Letter, each page with a 50 mm scale bar (to check that the printer did not scale it) and short instructions.
//   markers  the board's four corner ArUco markers (DICT_4X4_50 ids 0..3), each in a white frame to cut out
//   charuco  a ChArUco board for `swref calibrate camera --charuco`, its parameters printed on the sheet
//   mat      the token enrollment mat (mat.h)
// Markers and boards are drawn as vector squares, one per marker cell, from OpenCV's own dictionaries and board
// layout, so that what is printed is exactly what the detectors look for.
//
// Every page can also be rendered to a raster with the same drawing (previews, tests).
#pragma once

#include <string>
#include <vector>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

// Paper by name: "a4" (210 x 297 mm) or "letter" (215.9 x 279.4 mm); an error naming the choices otherwise.
engine::Result<cv::Size2d> PaperSize(const std::string& paper);

// One of OpenCV's predefined ArUco dictionaries by its enum's name: "DICT_4X4_50" .. "DICT_7X7_1000",
// "DICT_ARUCO_ORIGINAL", "DICT_APRILTAG_16h5" .. "DICT_APRILTAG_36h11".
engine::Result<cv::Ptr<cv::aruco::Dictionary>> ArucoDictionary(const std::string& name);

struct CharucoSpec {
  int squares_x = 5;                        // chessboard squares across (>= 2); inner corners: squares_x - 1
  int squares_y = 7;                        // and down (>= 2)
  double square_mm = 35;                    // side of a chessboard square as printed
  double marker_mm = 26;                    // side of the ArUco marker in each white square, < square_mm
  std::string dictionary = "DICT_6X6_250";  // must hold squares_x * squares_y / 2 markers
  std::string Check() const;                // the first problem, or "" when the spec is usable
  cv::Size2d size_mm() const { return {squares_x * square_mm, squares_y * square_mm}; }
};

// The default board for a paper, as large as fits with margins and the printed parameters: A4 5x7 squares of
// 35 mm with 26 mm markers; Letter (shorter) 5x7 of 33 mm with 25 mm markers. DICT_6X6_250 on both.
CharucoSpec DefaultCharuco(const std::string& paper);

// OpenCV's board for a spec (ids and marker corners as the detector expects them), or the spec's problem.
engine::Result<cv::Ptr<cv::aruco::CharucoBoard>> MakeCharucoBoard(const CharucoSpec& spec);

// The PDF writers return the number of pages, or an error that starts with the path ("<path>: ...").
engine::Result<int> WriteMarkersPdf(const std::string& path, const std::string& paper, double size_mm = 40);
engine::Result<int> WriteCharucoPdf(const std::string& path, const std::string& paper);  // DefaultCharuco(paper)
engine::Result<int> WriteCharucoPdf(const std::string& path, const std::string& paper, const CharucoSpec& spec);
engine::Result<int> WriteMatPdf(const std::string& path, const std::string& paper);

// The same pages as rasters: CV_8UC3 BGR, px_per_mm, white paper; the centre of pixel (i, j) lies at page mm
// ((i + 0.5) / px_per_mm, (j + 0.5) / px_per_mm). Errors as the writers', without a path.
engine::Result<std::vector<cv::Mat>> RenderMarkersPages(const std::string& paper, double size_mm, double px_per_mm);
engine::Result<std::vector<cv::Mat>> RenderCharucoPages(const std::string& paper, const CharucoSpec& spec,
                                                        double px_per_mm);
engine::Result<std::vector<cv::Mat>> RenderMatPages(const std::string& paper, double px_per_mm);

// Where the enrollment mat lies on its printed page: the page position (mm from the page's top-left corner) of the
// mat's origin (mat.h's coordinates). An error naming the choices for an unknown paper.
engine::Result<cv::Point2d> MatOriginOnPage(const std::string& paper);

}  // namespace swref::calibration
