// `swref print tokens` (token_pdf.h): the stand-in tokens as vector paths at true size, from the same designs as
// the camera simulator's rasters (token_art.h), so that a printed set looks like the synthetic one.
//
// Layout: a grid per kind (3 mm gaps, 10 mm margins), each group under a small label, a header with the page number
// and a 50 mm scale bar to check that the printer did not scale the page. Every token on a front page gets a thin
// cut line along its footprint.
//
// Duplex: every front page is followed by its back page (also when the back is blank, so that fronts and backs
// stay paired through the whole print job). A race token's back carries its decline side at the mirrored position
// (x mirrored about the page centre, as a long-edge flip does). The decline design's footprint is the active one
// mirrored (token_art.cpp), so it is drawn as is and its outline falls exactly behind the front's cut line; it is
// printed with a 1 mm bleed beyond the footprint so that a duplex misregistration of a millimetre shows no white
// edge. Lost tribe tokens are double-sided in the real game with the same picture on both sides: their back gets the
// same design, drawn mirrored so the footprints coincide (the mask is symmetric, so it reads the same). The other
// pieces are single-sided here and get a blank back. Without duplex the decline sides are ordinary tokens of their
// own, starting on a fresh page after the fronts.
#include "datasets/token_pdf.h"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "datasets/token_art.h"
#include "engine/components.h"

namespace swref::datasets {
namespace {

using engine::Result;

constexpr double kPtPerMm = 72.0 / 25.4;
constexpr double kMarginMm = 10, kGapMm = 3, kHeaderMm = 15, kLabelMm = 4.5, kGroupGapMm = 1.5;
constexpr double kBleedMm = 1.0;
constexpr double kPi = 3.14159265358979323846;

struct Placement {
  const TokenDesign* design = nullptr;
  cv::Point2d centre_mm;  // on the page, mm from the top left corner
  bool mirrored = false;  // drawn mirrored left to right (the back of a same-both-sides token)
};

struct Label {
  std::string text;
  cv::Point2d at_mm;  // baseline start, or baseline end when right-aligned
  bool right_aligned = false;
};

struct Page {
  bool back = false;  // a back page: no cut lines (the cut follows the front), tokens printed with bleed
  std::vector<Placement> tokens;
  std::vector<Label> labels;
};

// One kind to lay out, and what goes behind each of its tokens in duplex (nullptr: blank).
struct Group {
  const TokenDesign* front = nullptr;
  int count = 0;
  const TokenDesign* back = nullptr;
  bool back_mirrored = false;
  bool fresh_page = false;  // start on a new page (the decline sides of a single-sided print)
};

std::vector<Group> Groups(const TokenSheetOptions& options) {
  std::vector<Group> groups;
  auto count = [&](int in_box) { return options.full_box ? in_box : 2; };
  std::vector<Group> declines;
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const engine::RaceInfo& info = engine::Info(static_cast<engine::Race>(r));
    const TokenDesign& active = DesignOf(info.id);
    const TokenDesign& decline = DesignOf(std::string(info.id) + "_decline");
    if (options.duplex) {
      groups.push_back({&active, count(info.box_tokens), &decline, false, false});
    } else {
      groups.push_back({&active, count(info.box_tokens), nullptr, false, false});
      declines.push_back({&decline, count(info.box_tokens), nullptr, false, declines.empty()});
    }
  }
  const TokenDesign& lost_tribe = DesignOf("lost_tribe");
  groups.push_back({&lost_tribe, count(engine::Info(engine::Piece::kLostTribe).in_box),
                    options.duplex ? &lost_tribe : nullptr, true, false});
  for (engine::Piece p :
       {engine::Piece::kMountain, engine::Piece::kTrollLair, engine::Piece::kFortress, engine::Piece::kEncampment,
        engine::Piece::kHole, engine::Piece::kHero, engine::Piece::kDragon}) {
    const engine::PieceInfo& info = engine::Info(p);
    groups.push_back({&DesignOf(info.id), count(info.in_box), nullptr, false, false});
  }
  groups.insert(groups.end(), declines.begin(), declines.end());
  return groups;
}

// Flows the groups down the pages: each group starts a new row under its label and continues on the next page
// (label repeated) when the page is full. Returns the front pages; with duplex, `backs` gets one page per front.
std::vector<Page> LayOut(const std::vector<Group>& groups, cv::Size2d page_mm, bool duplex, std::vector<Page>* backs) {
  std::vector<Page> fronts;
  const double top = kMarginMm + kHeaderMm, bottom = page_mm.height - kMarginMm;
  const double usable_w = page_mm.width - 2 * kMarginMm;
  double y = bottom;  // forces a first page
  auto new_page = [&] {
    fronts.emplace_back();
    backs->emplace_back();
    backs->back().back = true;
    y = top;
  };
  for (const Group& g : groups) {
    if (g.count <= 0) continue;
    const cv::Rect2d box = Bounds(g.front->outline);
    const int cols = std::max(1, static_cast<int>((usable_w + kGapMm) / (box.width + kGapMm)));
    if (g.fresh_page && !fronts.empty() && !fronts.back().tokens.empty()) new_page();
    int placed = 0;
    while (placed < g.count) {
      if (y + kLabelMm + box.height > bottom) new_page();
      std::string text = g.front->kind + (placed == 0 ? " \u00d7" + std::to_string(g.count) : " (continued)");
      fronts.back().labels.push_back({text, {kMarginMm, y + kLabelMm - 1.6}, false});
      if (duplex && g.back) {
        text = g.back->kind + (placed == 0 ? " \u00d7" + std::to_string(g.count) : " (continued)");
        backs->back().labels.push_back({text, {page_mm.width - kMarginMm, y + kLabelMm - 1.6}, true});
      }
      y += kLabelMm;
      while (placed < g.count && y + box.height <= bottom) {
        for (int c = 0; c < cols && placed < g.count; ++c, ++placed) {
          // The bounding box's top left corner at the cell's; the design's centre is wherever it lies in its box.
          const cv::Point2d centre(kMarginMm + c * (box.width + kGapMm) - box.x, y - box.y);
          fronts.back().tokens.push_back({g.front, centre, false});
          if (duplex && g.back)
            backs->back().tokens.push_back({g.back, {page_mm.width - centre.x, centre.y}, g.back_mirrored});
        }
        y += box.height + kGapMm;
      }
    }
    y += kGroupGapMm;
  }
  return fronts;
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing, in millimetres (the caller scales the context).

void SetColour(cairo_t* cr, const cv::Scalar& bgr) {
  cairo_set_source_rgb(cr, bgr[2] / 255, bgr[1] / 255, bgr[0] / 255);
}

void PolyPath(cairo_t* cr, const std::vector<cv::Point2d>& points, bool close) {
  cairo_new_path(cr);
  for (size_t i = 0; i < points.size(); ++i) {
    if (i == 0) {
      cairo_move_to(cr, points[i].x, points[i].y);
    } else {
      cairo_line_to(cr, points[i].x, points[i].y);
    }
  }
  if (close) cairo_close_path(cr);
}

// The design in its own frame (mm, centre at the origin). Strokes have round joins and caps, as OpenCV's thick
// lines do, so the print matches the raster. Everything is clipped to the footprint.
void DrawDesign(cairo_t* cr, const TokenDesign& d) {
  cairo_save(cr);
  PolyPath(cr, d.outline, true);
  cairo_clip(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  for (const TokenShape& s : d.shapes) {
    SetColour(cr, s.bgr);
    switch (s.type) {
      case TokenShape::Type::kCircle:
        cairo_new_path(cr);
        cairo_arc(cr, s.points.at(0).x, s.points.at(0).y, s.radius_mm, 0, 2 * kPi);
        break;
      case TokenShape::Type::kPolygon:
        PolyPath(cr, s.points, true);
        break;
      case TokenShape::Type::kPolyline:
        PolyPath(cr, s.points, false);
        break;
    }
    if (s.type != TokenShape::Type::kPolyline && s.line_mm <= 0) {
      cairo_fill(cr);
    } else {
      cairo_set_line_width(cr, s.line_mm);
      cairo_stroke(cr);
    }
  }
  cairo_restore(cr);
}

void DrawPlacement(cairo_t* cr, const Placement& p, bool back) {
  cairo_save(cr);
  cairo_translate(cr, p.centre_mm.x, p.centre_mm.y);
  if (p.mirrored) cairo_scale(cr, -1, 1);
  const TokenDesign& d = *p.design;
  if (back && !d.shapes.empty()) {  // bleed: the background colour a little beyond the footprint
    SetColour(cr, d.shapes.front().bgr);
    PolyPath(cr, d.outline, true);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_width(cr, 2 * kBleedMm);
    cairo_stroke_preserve(cr);
    cairo_fill(cr);
  }
  DrawDesign(cr, d);
  if (!back) {  // the cut line, thin and dark enough to follow with scissors or a craft knife
    PolyPath(cr, d.outline, true);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_set_line_width(cr, 0.2);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}

void DrawHeader(cairo_t* cr, int number, bool back) {
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 3.5);
  std::string title = "swref stand-in tokens \u2014 page " + std::to_string(number);
  if (back) title += " (back of page " + std::to_string(number - 1) + ")";
  title += " \u2014 print at 100% (no scaling)";
  cairo_move_to(cr, kMarginMm, kMarginMm + 3.5);
  cairo_show_text(cr, title.c_str());

  // The scale bar: 50 mm with a tick every 10 mm; measure it on the print.
  const double y = kMarginMm + 9, x0 = kMarginMm;
  cairo_set_line_width(cr, 0.3);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_move_to(cr, x0, y);
  cairo_line_to(cr, x0 + 50, y);
  for (int i = 0; i <= 5; ++i) {
    const double tick = i % 5 == 0 ? 2.5 : 1.5;
    cairo_move_to(cr, x0 + 10 * i, y - tick);
    cairo_line_to(cr, x0 + 10 * i, y);
  }
  cairo_stroke(cr);
  cairo_set_font_size(cr, 2.8);
  cairo_move_to(cr, x0 + 52, y + 0.9);
  cairo_show_text(cr, "50 mm: check this bar with a ruler");
}

void DrawLabel(cairo_t* cr, const Label& label) {
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 2.8);
  double x = label.at_mm.x;
  if (label.right_aligned) {
    cairo_text_extents_t extents;
    cairo_text_extents(cr, label.text.c_str(), &extents);
    x -= extents.x_advance;
  }
  cairo_move_to(cr, x, label.at_mm.y);
  cairo_show_text(cr, label.text.c_str());
}

// A page on a context scaled to millimetres.
void DrawPage(cairo_t* cr, const Page& page, int number) {
  DrawHeader(cr, number, page.back);
  for (const Label& label : page.labels) DrawLabel(cr, label);
  for (const Placement& p : page.tokens) DrawPlacement(cr, p, page.back);
}

// The pages in print order: each front followed by its back in duplex.
std::vector<Page> Pages(const TokenSheetOptions& options, cv::Size2d page_mm) {
  std::vector<Page> backs;
  std::vector<Page> fronts = LayOut(Groups(options), page_mm, options.duplex, &backs);
  if (!options.duplex) return fronts;
  std::vector<Page> pages;
  for (size_t i = 0; i < fronts.size(); ++i) {
    pages.push_back(std::move(fronts[i]));
    pages.push_back(std::move(backs[i]));
  }
  return pages;
}

struct Sink {
  FILE* file = nullptr;
  bool failed = false;
};

cairo_status_t WriteToSink(void* closure, const unsigned char* data, unsigned int length) {
  auto* sink = static_cast<Sink*>(closure);
  if (std::fwrite(data, 1, length, sink->file) != length) {
    sink->failed = true;
    return CAIRO_STATUS_WRITE_ERROR;
  }
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

Result<int> WriteTokenSheetPdf(const std::string& path, const TokenSheetOptions& options) {
  using R = Result<int>;
  cv::Size2d page_mm;
  if (options.paper == "a4") {
    page_mm = {210, 297};
  } else if (options.paper == "letter") {
    page_mm = {215.9, 279.4};
  } else {
    return R::Error(path + ": unknown paper \"" + options.paper + "\" (expected a4 or letter)");
  }
  const std::vector<Page> pages = Pages(options, page_mm);

  // Our own stream rather than cairo_pdf_surface_create(path): cairo only reports a generic write error, and the
  // message should say why the file could not be written.
  Sink sink;
  sink.file = std::fopen(path.c_str(), "wb");
  if (!sink.file) return R::Error(path + ": cannot open for writing: " + std::strerror(errno));
  cairo_surface_t* surface =
      cairo_pdf_surface_create_for_stream(WriteToSink, &sink, page_mm.width * kPtPerMm, page_mm.height * kPtPerMm);
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "swref stand-in tokens");
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "swref");
  cairo_t* cr = cairo_create(surface);
  for (size_t i = 0; i < pages.size(); ++i) {
    cairo_save(cr);
    cairo_scale(cr, kPtPerMm, kPtPerMm);
    DrawPage(cr, pages[i], static_cast<int>(i) + 1);
    cairo_restore(cr);
    cairo_show_page(cr);
  }
  const cairo_status_t drawn = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  const cairo_status_t finished = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  const bool closed = std::fclose(sink.file) == 0;
  if (sink.failed || !closed) return R::Error(path + ": write failed: " + std::strerror(errno));
  if (drawn != CAIRO_STATUS_SUCCESS || finished != CAIRO_STATUS_SUCCESS) {
    return R::Error(path + ": cairo: " + cairo_status_to_string(drawn != CAIRO_STATUS_SUCCESS ? drawn : finished));
  }
  return static_cast<int>(pages.size());
}

}  // namespace swref::datasets
