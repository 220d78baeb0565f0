// Printable sheets (sheet.h): PDF output, raster output, and the drawing pieces the targets share.
#include "calibration/sheet.h"

#include <cairo-pdf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <opencv2/imgproc.hpp>

namespace swref::calibration::sheet {
namespace {

using engine::Result;

struct Stream {
  FILE* file = nullptr;
  int write_errno = 0;  // errno of the first failed write, 0 while all went well
};

cairo_status_t Append(void* closure, const unsigned char* data, unsigned int length) {
  auto* stream = static_cast<Stream*>(closure);
  if (std::fwrite(data, 1, length, stream->file) == length) return CAIRO_STATUS_SUCCESS;
  if (stream->write_errno == 0) stream->write_errno = errno ? errno : EIO;
  return CAIRO_STATUS_WRITE_ERROR;
}

void DrawPages(cairo_t* cr, const Sheet& sheet, double scale) {
  for (const auto& draw : sheet.pages) {
    cairo_save(cr);
    cairo_scale(cr, scale, scale);
    draw(cr);
    cairo_restore(cr);
    cairo_show_page(cr);
  }
}

void SelectFont(cairo_t* cr, Font font, double size_mm) {
  cairo_select_font_face(cr, font == Font::kMono ? "monospace" : "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         font == Font::kSansBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size_mm);
}

}  // namespace

Result<int> WritePdf(const std::string& path, const Sheet& sheet) {
  using R = Result<int>;
  Stream stream;
  stream.file = std::fopen(path.c_str(), "wb");
  if (!stream.file) return R::Error(path + ": cannot open for writing: " + std::strerror(errno));
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(Append, &stream, sheet.page_mm.width * kPtPerMm,
                                                                 sheet.page_mm.height * kPtPerMm);
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, sheet.title.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "swref");
  cairo_t* cr = cairo_create(surface);
  DrawPages(cr, sheet, kPtPerMm);
  const cairo_status_t drawn = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);  // the PDF's tail is written here: check the stream only after it
  const cairo_status_t finished = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  const int close_errno = std::fclose(stream.file) == 0 ? 0 : errno;
  if (stream.write_errno || close_errno) {
    return R::Error(path + ": write failed: " + std::strerror(stream.write_errno ? stream.write_errno : close_errno));
  }
  if (drawn != CAIRO_STATUS_SUCCESS || finished != CAIRO_STATUS_SUCCESS) {
    return R::Error(path + ": cairo: " + cairo_status_to_string(drawn != CAIRO_STATUS_SUCCESS ? drawn : finished));
  }
  return static_cast<int>(sheet.pages.size());
}

std::vector<cv::Mat> Render(const Sheet& sheet, double px_per_mm) {
  CV_Assert(px_per_mm > 0);
  const int w = cvRound(sheet.page_mm.width * px_per_mm), h = cvRound(sheet.page_mm.height * px_per_mm);
  std::vector<cv::Mat> pages;
  for (const auto& draw : sheet.pages) {
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_scale(cr, px_per_mm, px_per_mm);
    draw(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    // RGB24 is a native-endian 32-bit word per pixel: bytes B, G, R, unused on the little-endian machines we run on.
    const cv::Mat bgrx(h, w, CV_8UC4, cairo_image_surface_get_data(surface),
                       static_cast<size_t>(cairo_image_surface_get_stride(surface)));
    cv::Mat bgr;
    cv::cvtColor(bgrx, bgr, cv::COLOR_BGRA2BGR);
    cairo_surface_destroy(surface);
    pages.push_back(bgr);
  }
  return pages;
}

double Text(cairo_t* cr, const std::string& text, cv::Point2d at, double size_mm, Font font, double grey,
            bool centred) {
  SelectFont(cr, font, size_mm);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, text.c_str(), &extents);
  cairo_set_source_rgb(cr, grey, grey, grey);
  cairo_move_to(cr, at.x - (centred ? extents.x_advance / 2 : 0), at.y);
  cairo_show_text(cr, text.c_str());
  return extents.x_advance;
}

std::vector<std::string> Wrap(const std::string& text, double width_mm, double size_mm, Font font) {
  cairo_surface_t* scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t* cr = cairo_create(scratch);
  SelectFont(cr, font, size_mm);
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    const std::string longer = line.empty() ? word : line + " " + word;
    cairo_text_extents_t extents;
    cairo_text_extents(cr, longer.c_str(), &extents);
    if (extents.x_advance > width_mm && !line.empty()) {
      lines.push_back(line);
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.empty()) lines.push_back(line);
  cairo_destroy(cr);
  cairo_surface_destroy(scratch);
  return lines;
}

double Lines(cairo_t* cr, const std::vector<std::string>& lines, cv::Point2d at, double size_mm, double line_mm,
             Font font) {
  double y = at.y;
  for (const std::string& line : lines) {
    Text(cr, line, {at.x, y}, size_mm, font);
    y += line_mm;
  }
  return y;
}

void Header(cairo_t* cr, const std::string& title) {
  Text(cr, title + " \u2014 print at 100% (no scaling, no \u201cfit to page\u201d)", {kMarginMm, kMarginMm + 3.5},
       3.5);
  // The scale bar: 50 mm, a tick every 10 mm.
  const double y = kMarginMm + 9, x0 = kMarginMm;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_set_line_width(cr, 0.3);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_move_to(cr, x0, y);
  cairo_line_to(cr, x0 + 50, y);
  for (int i = 0; i <= 5; ++i) {
    cairo_move_to(cr, x0 + 10 * i, y - (i % 5 == 0 ? 2.5 : 1.5));
    cairo_line_to(cr, x0 + 10 * i, y);
  }
  cairo_stroke(cr);
  Text(cr, "50 mm: measure this bar with a ruler", {x0 + 52, y + 0.9}, 2.8);
}

void Marker(cairo_t* cr, const cv::aruco::Dictionary& dictionary, int id, cv::Point2d top_left_mm, double size_mm) {
  cv::Mat cells;  // one pixel per cell, the 1-cell black border included
  dictionary.drawMarker(id, dictionary.markerSize + 2, cells, 1);
  const double cell = size_mm / cells.cols;
  cairo_new_path(cr);
  for (int y = 0; y < cells.rows; ++y) {
    for (int x = 0; x < cells.cols;) {
      if (cells.at<uchar>(y, x) >= 128) {
        ++x;
        continue;
      }
      int end = x;
      while (end < cells.cols && cells.at<uchar>(y, end) < 128) ++end;
      cairo_rectangle(cr, top_left_mm.x + x * cell, top_left_mm.y + y * cell, (end - x) * cell, cell);
      x = end;
    }
  }
  // One fill for all the runs: a viewer anti-aliases the union, so no hairline seams show between cells.
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_fill(cr);
}

}  // namespace swref::calibration::sheet
