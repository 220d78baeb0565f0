// Internal to calibration/ (cairo is a private dependency): a printable sheet as a list of page-drawing functions,
// written to a PDF at true scale or rendered to rasters, and the drawing pieces the targets share (targets.cpp).
// Every drawing function works on a context scaled to millimetres, origin at the page's top-left corner.
#pragma once

#include <cairo.h>

#include <functional>
#include <string>
#include <vector>

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration::sheet {

inline constexpr double kPtPerMm = 72.0 / 25.4;
inline constexpr double kMarginMm = 8;      // page margins: inside what office printers can print
inline constexpr double kHeaderMm = 15;     // title and scale bar, from the top margin down

struct Sheet {
  std::string title;                                  // PDF metadata
  cv::Size2d page_mm;
  std::vector<std::function<void(cairo_t*)>> pages;  // each draws one page
};

// Writes the PDF through our own stream so that a failure can say why (cairo alone reports a generic write error).
engine::Result<int> WritePdf(const std::string& path, const Sheet& sheet);
std::vector<cv::Mat> Render(const Sheet& sheet, double px_per_mm);

enum class Font { kSans, kSansBold, kMono };

// Text with its baseline starting at `at` (or centred on it); returns the advance in mm.
double Text(cairo_t* cr, const std::string& text, cv::Point2d at, double size_mm, Font font = Font::kSans,
            double grey = 0.1, bool centred = false);

// `text` word-wrapped to lines no wider than `width_mm` (a single word wider than that gets a line of its own).
// Measured on a scratch surface, so that a page's layout can be computed before it is drawn.
std::vector<std::string> Wrap(const std::string& text, double width_mm, double size_mm, Font font = Font::kSans);

// Lines drawn one under the other, the first baseline at `at`; returns the y of the next line's baseline.
double Lines(cairo_t* cr, const std::vector<std::string>& lines, cv::Point2d at, double size_mm, double line_mm,
             Font font = Font::kSans);

// The title (with "print at 100%") at the top margin and the 50 mm scale bar under it.
void Header(cairo_t* cr, const std::string& title);

// An ArUco marker as filled squares, one per black cell (runs of cells merged), the black border included.
void Marker(cairo_t* cr, const cv::aruco::Dictionary& dictionary, int id, cv::Point2d top_left_mm, double size_mm);

}  // namespace swref::calibration::sheet
