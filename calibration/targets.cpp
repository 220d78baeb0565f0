// The printable targets (targets.h): what goes on each page and where. Drawing and output are in sheet.cpp.
#include "calibration/targets.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <utility>

#include "calibration/layout.h"
#include "calibration/mat.h"
#include "calibration/sheet.h"

namespace swref::calibration {
namespace {

using engine::Result;
using sheet::Font;
using sheet::kHeaderMm;
using sheet::kMarginMm;

constexpr double kBodyMm = 2.8, kBodyLineMm = 3.7;  // instructions: font size and line pitch

// Millimetres as printed on a sheet: "35", "26.5".
std::string Mm(double mm) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::round(mm * 100) / 100);
  return buf;
}

// ---------------------------------------------------------------------------------------------------------------
// Board corner markers.

struct MarkerPiece {
  int id = 0;
  const char* corner = "";  // where it goes on the board
  int col = 0, row = 0;     // its place on a page holding all four: as on the board
};
constexpr MarkerPiece kBoardMarkers[] = {
    {0, "top-left", 0, 0}, {1, "top-right", 1, 0}, {2, "bottom-right", 1, 1}, {3, "bottom-left", 0, 1}};

// A cut-out piece: the black square in a white frame `frame_mm` wide, its cut line, an arrow and the id on the
// frame's top side (grey and away from the square, so the detector still sees a clean white border), and a label
// under the cut line.
void DrawMarkerPiece(cairo_t* cr, const cv::aruco::Dictionary& dict, const MarkerPiece& m, cv::Point2d at,
                     double size_mm, double frame_mm) {
  const double piece = size_mm + 2 * frame_mm;
  cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
  cairo_set_line_width(cr, 0.2);
  cairo_rectangle(cr, at.x, at.y, piece, piece);
  cairo_stroke(cr);
  sheet::Marker(cr, dict, m.id, at + cv::Point2d(frame_mm, frame_mm), size_mm);

  const double top = at.y + std::min(frame_mm / 2, 4.0) + 0.9, mid = at.x + piece / 2;
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);  // an arrow pointing to the board's top edge
  cairo_move_to(cr, mid - 6.5, top);
  cairo_line_to(cr, mid - 5, top - 2.2);
  cairo_line_to(cr, mid - 3.5, top);
  cairo_close_path(cr);
  cairo_fill(cr);
  sheet::Text(cr, std::to_string(m.id) + "  top", {mid - 2.5, top}, 2.4, Font::kSans, 0.6);

  sheet::Text(cr, "marker " + std::to_string(m.id) + ": board's " + m.corner + " corner",
              {mid, at.y + piece + 4}, 2.8, Font::kSans, 0.2, true);
}

Result<sheet::Sheet> MarkersSheet(cv::Size2d page, double size_mm) {
  using R = Result<sheet::Sheet>;
  if (!(size_mm >= 10)) return R::Error("marker size " + Mm(size_mm) + " mm: expected at least 10 mm");
  // The white frame: 8 mm, the inset the layout generator assumes (datasets AddCornerMarkers), and never less
  // than one marker cell, the quiet zone the detector needs.
  const double frame = MarkerFrameMm(size_mm);
  const double piece = size_mm + 2 * frame, gap = 8, label = 6;
  const std::string s = Mm(size_mm), f = Mm(frame), far = Mm(size_mm + frame);
  const double width = page.width - 2 * kMarginMm;
  auto wrap = [&](const std::string& text) { return sheet::Wrap(text, width, kBodyMm); };
  std::vector<std::vector<std::string>> steps = {
      wrap("1. Cut out each marker along its grey cut line. Its white frame is part of it: keep the frame clean, "
           "flat and uncovered."),
      wrap("2. Stick marker 0 at the board's top-left corner, 1 top-right, 2 bottom-right, 3 bottom-left, each "
           "with its arrow pointing to the board's top edge and its cut edges flush with the board's edges: its "
           "black square then lies " + f + " mm from both edges."),
      wrap("3. Measure the top-left corner of each black square from the board's top-left corner (mm, x right, "
           "y down) and enter them in the layout's \"markers\" field. For pieces stuck flush on a board of "
           "W x H mm:")};
  const std::vector<std::string> json = {
      "\"markers\": {\"dictionary\": \"DICT_4X4_50\", \"size_mm\": " + s + ",",
      "            \"corners\": {\"0\": [" + f + ", " + f + "], \"1\": [W-" + far + ", " + f + "], \"2\": [W-" + far +
          ", H-" + far + "], \"3\": [" + f + ", H-" + far + "]}}"};
  double text_end = kMarginMm + kHeaderMm + 4;
  for (const auto& step : steps) text_end += kBodyLineMm * static_cast<double>(step.size()) + 1;
  text_end += 2 * kBodyLineMm + 4;  // the JSON lines, then space before the pieces

  int cols = static_cast<int>((width + gap) / (piece + gap));
  int rows = static_cast<int>((page.height - kMarginMm - text_end + gap) / (piece + label + gap));
  if (cols < 1 || rows < 1) {
    return R::Error("markers of " + s + " mm (" + Mm(piece) + " mm with their frame) do not fit on the page");
  }
  const bool as_on_board = cols >= 2 && rows >= 2;  // one page, each piece where it goes on the board
  if (as_on_board) cols = rows = 2;
  const int per_page = cols * rows, count = static_cast<int>(std::size(kBoardMarkers));
  const int pages = (count + per_page - 1) / per_page;
  const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);

  sheet::Sheet out{"swref board markers", page, {}};
  for (int p = 0; p < pages; ++p) {
    out.pages.push_back([=](cairo_t* cr) {
      std::string title = "swref board markers (DICT_4X4_50, " + s + " mm)";
      if (pages > 1) title += ", page " + std::to_string(p + 1) + " of " + std::to_string(pages);
      sheet::Header(cr, title);
      double y = kMarginMm + kHeaderMm + 4;
      for (const auto& step : steps) y = sheet::Lines(cr, step, {kMarginMm, y}, kBodyMm, kBodyLineMm) + 1;
      sheet::Lines(cr, json, {kMarginMm + 4, y}, 2.5, kBodyLineMm, Font::kMono);
      // The pieces, centred under the text.
      const int here = std::min(per_page, count - p * per_page), used_cols = std::min(cols, here);
      const double x0 = (page.width - used_cols * piece - (used_cols - 1) * gap) / 2;
      for (int i = 0; i < here; ++i) {
        const MarkerPiece& m = kBoardMarkers[p * per_page + i];
        const int col = as_on_board ? m.col : i % cols, row = as_on_board ? m.row : i / cols;
        const cv::Point2d at(x0 + col * (piece + gap), text_end + row * (piece + label + gap));
        DrawMarkerPiece(cr, *dict, m, at, size_mm, frame);
      }
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// ChArUco board.

// The board as OpenCV lays it out: a square holding a marker is white, every other square black. Taken from the
// board's own marker positions rather than a parity rule, so that the print follows OpenCV whatever its convention.
void DrawCharuco(cairo_t* cr, const cv::aruco::CharucoBoard& board, const CharucoSpec& spec, cv::Point2d at) {
  std::vector<bool> white(static_cast<size_t>(spec.squares_x * spec.squares_y), false);
  for (const auto& corners : board.objPoints) {
    const int col = static_cast<int>(corners[0].x / spec.square_mm);
    const int row = static_cast<int>(corners[0].y / spec.square_mm);
    white[static_cast<size_t>(row * spec.squares_x + col)] = true;
  }
  cairo_new_path(cr);
  for (int row = 0; row < spec.squares_y; ++row) {
    for (int col = 0; col < spec.squares_x; ++col) {
      if (white[static_cast<size_t>(row * spec.squares_x + col)]) continue;
      cairo_rectangle(cr, at.x + col * spec.square_mm, at.y + row * spec.square_mm, spec.square_mm, spec.square_mm);
    }
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_fill(cr);
  for (size_t i = 0; i < board.ids.size(); ++i) {
    const cv::Point3f& tl = board.objPoints[i][0];  // the marker's top-left corner (checked in MakeCharucoBoard)
    sheet::Marker(cr, *board.dictionary, board.ids[i], at + cv::Point2d(tl.x, tl.y), spec.marker_mm);
  }
}

Result<sheet::Sheet> CharucoSheet(cv::Size2d page, const CharucoSpec& spec) {
  using R = Result<sheet::Sheet>;
  auto board = MakeCharucoBoard(spec);
  if (!board) return R::Error(board.error());
  const std::string grid = std::to_string(spec.squares_x) + "x" + std::to_string(spec.squares_y);
  const std::string params = "ChArUco " + grid + " squares of " + Mm(spec.square_mm) + " mm, markers " +
                             Mm(spec.marker_mm) + " mm, " + spec.dictionary;
  const std::string command = "swref calibrate camera --charuco " + grid + " --square-mm " + Mm(spec.square_mm) +
                              " --marker-mm " + Mm(spec.marker_mm) + " --dictionary " + spec.dictionary +
                              " IMAGES... --out camera.json";
  const double width = page.width - 2 * kMarginMm;
  const std::vector<std::string> advice = sheet::Wrap(
      "Glue it flat onto stiff card. If a square is not " + Mm(spec.square_mm) + " mm, pass the measured size to "
          "--square-mm and scale --marker-mm alike. Take 15 to 30 photos with the table's camera from various "
          "angles (up to 45°) and distances, covering the whole image.",
      width, kBodyMm);
  const double text_top = kMarginMm + kHeaderMm + 3;  // baseline of the parameters line
  const double text_end = text_top + 8.5 + kBodyLineMm * static_cast<double>(advice.size()) - 1;
  const cv::Size2d size = spec.size_mm();
  const double room = page.height - kMarginMm - text_end;
  if (size.width > width || size.height > room) {
    return R::Error("a ChArUco board of " + Mm(size.width) + " x " + Mm(size.height) + " mm does not fit on the " +
                    "page (room for " + Mm(width) + " x " + Mm(room) + " mm under the instructions)");
  }
  const cv::Point2d at((page.width - size.width) / 2, text_end + (room - size.height) / 2);
  sheet::Sheet out{"swref ChArUco board", page, {}};
  out.pages.push_back([=, cv_board = *board](cairo_t* cr) {
    sheet::Header(cr, "swref ChArUco board for camera calibration");
    sheet::Text(cr, params, {kMarginMm, text_top}, 3.8, Font::kSansBold);
    sheet::Text(cr, command, {kMarginMm, text_top + 4.5}, 2.45, Font::kMono);
    sheet::Lines(cr, advice, {kMarginMm, text_top + 8.5}, kBodyMm, kBodyLineMm);
    DrawCharuco(cr, *cv_board, spec, at);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Enrollment mat.

void DrawMat(cairo_t* cr, const MatGeometry& mat, cv::Point2d at) {
  cairo_save(cr);
  cairo_translate(cr, at.x, at.y);
  cairo_set_source_rgb(cr, mat.outline_grey, mat.outline_grey, mat.outline_grey);
  cairo_set_line_width(cr, mat.outline_mm);
  for (const MatCell& cell : mat.cells) {
    cairo_rectangle(cr, cell.rect_mm.x, cell.rect_mm.y, cell.rect_mm.width, cell.rect_mm.height);
  }
  cairo_rectangle(cr, mat.notes_mm.x, mat.notes_mm.y, mat.notes_mm.width, mat.notes_mm.height);
  cairo_stroke(cr);
  for (const MatCell& cell : mat.cells) {
    sheet::Text(cr, cell.kind, {cell.rect_mm.x + cell.rect_mm.width / 2, cell.rect_mm.br().y - mat.label_baseline_mm},
                mat.label_mm, Font::kSans, mat.label_grey, true);
  }
  const cv::Point2d notes_at =
      mat.notes_mm.tl() + cv::Point2d(mat.notes_inset_mm, mat.notes_inset_mm + mat.notes_font_mm);
  sheet::Lines(cr, MatNotes(), notes_at, mat.notes_font_mm, mat.notes_line_mm);
  const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (const MatMarker& m : mat.markers) sheet::Marker(cr, *dict, m.id, m.corner_mm, m.size_mm);
  cairo_restore(cr);
}

// Where the mat's origin lies on a page: centred across, under the header and the line of text.
Result<cv::Point2d> MatOrigin(cv::Size2d page, const std::string& paper) {
  using R = Result<cv::Point2d>;
  const MatGeometry mat = Mat(paper);
  // The blank strip around the markers may run into the page margins; what is printed may not.
  const double top = kMarginMm + kHeaderMm + 7 - mat.quiet_mm;
  const cv::Size2d printed(mat.size_mm.width - 2 * mat.quiet_mm, mat.size_mm.height - 2 * mat.quiet_mm);
  if (printed.width > page.width - 2 * kMarginMm || top + mat.quiet_mm + printed.height > page.height - kMarginMm) {
    return R::Error("the enrollment mat does not fit on the page");  // a geometry bug: tests cover both papers
  }
  return cv::Point2d((page.width - mat.size_mm.width) / 2, top);
}

Result<sheet::Sheet> MatSheet(cv::Size2d page, const std::string& paper) {
  using R = Result<sheet::Sheet>;
  const MatGeometry mat = Mat(paper);
  const auto origin = MatOrigin(page, paper);
  if (!origin) return R::Error(origin.error());
  const cv::Point2d at = *origin;
  sheet::Sheet out{"swref token enrollment mat", page, {}};
  out.pages.push_back([=](cairo_t* cr) {
    sheet::Header(cr, "swref token enrollment mat");
    sheet::Text(cr,
                "One token of each kind in its cell; two photos, active sides up, then race tokens flipped "
                "(instructions at the bottom right).",
                {kMarginMm, kMarginMm + kHeaderMm + 2}, kBodyMm);
    DrawMat(cr, mat, at);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

Result<int> Write(const std::string& path, const std::string& paper,
                  const std::function<Result<sheet::Sheet>(cv::Size2d)>& make) {
  auto page = PaperSize(paper);
  if (!page) return Result<int>::Error(path + ": " + page.error());
  auto s = make(*page);
  if (!s) return Result<int>::Error(path + ": " + s.error());
  return sheet::WritePdf(path, *s);
}

Result<std::vector<cv::Mat>> Render(const std::string& paper, double px_per_mm,
                                    const std::function<Result<sheet::Sheet>(cv::Size2d)>& make) {
  using R = Result<std::vector<cv::Mat>>;
  if (!(px_per_mm > 0 && px_per_mm <= 40)) return R::Error("px_per_mm must lie in (0, 40]");
  auto page = PaperSize(paper);
  if (!page) return R::Error(page.error());
  auto s = make(*page);
  if (!s) return R::Error(s.error());
  return sheet::Render(*s, px_per_mm);
}

}  // namespace

Result<cv::Size2d> PaperSize(const std::string& paper) {
  std::string p = paper;
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return std::tolower(c); });
  if (p == "a4") return cv::Size2d(210, 297);
  if (p == "letter") return cv::Size2d(215.9, 279.4);
  return Result<cv::Size2d>::Error("unknown paper \"" + paper + "\" (expected a4 or letter)");
}

Result<cv::Ptr<cv::aruco::Dictionary>> ArucoDictionary(const std::string& name) {
  using D = cv::aruco::PREDEFINED_DICTIONARY_NAME;
  static const std::pair<const char*, D> kNames[] = {
      {"DICT_4X4_50", cv::aruco::DICT_4X4_50},         {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
      {"DICT_4X4_250", cv::aruco::DICT_4X4_250},       {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
      {"DICT_5X5_50", cv::aruco::DICT_5X5_50},         {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
      {"DICT_5X5_250", cv::aruco::DICT_5X5_250},       {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
      {"DICT_6X6_50", cv::aruco::DICT_6X6_50},         {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
      {"DICT_6X6_250", cv::aruco::DICT_6X6_250},       {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
      {"DICT_7X7_50", cv::aruco::DICT_7X7_50},         {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
      {"DICT_7X7_250", cv::aruco::DICT_7X7_250},       {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
      {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
      {"DICT_APRILTAG_16h5", cv::aruco::DICT_APRILTAG_16h5}, {"DICT_APRILTAG_25h9", cv::aruco::DICT_APRILTAG_25h9},
      {"DICT_APRILTAG_36h10", cv::aruco::DICT_APRILTAG_36h10},
      {"DICT_APRILTAG_36h11", cv::aruco::DICT_APRILTAG_36h11},
  };
  for (const auto& [n, d] : kNames)
    if (name == n) return cv::aruco::getPredefinedDictionary(d);
  return Result<cv::Ptr<cv::aruco::Dictionary>>::Error("unknown ArUco dictionary \"" + name +
                                                       "\" (expected one of OpenCV's, e.g. DICT_6X6_250)");
}

std::string CharucoSpec::Check() const {
  if (squares_x < 2 || squares_y < 2) return "a ChArUco board needs at least 2 x 2 squares";
  if (!(square_mm > 0)) return "square size must be positive";
  if (!(marker_mm > 0 && marker_mm < square_mm)) return "marker size must be positive and smaller than a square";
  auto dict = ArucoDictionary(dictionary);
  if (!dict) return dict.error();
  const int needed = squares_x * squares_y / 2;
  if ((*dict)->bytesList.rows < needed) {
    return dictionary + " holds " + std::to_string((*dict)->bytesList.rows) + " markers; a " +
           std::to_string(squares_x) + "x" + std::to_string(squares_y) + " board needs " + std::to_string(needed);
  }
  return "";
}

CharucoSpec DefaultCharuco(const std::string& paper) {
  CharucoSpec spec;
  auto page = PaperSize(paper);
  if (page && page->height < 290) {  // Letter: 18 mm shorter than A4
    spec.square_mm = 32;
    spec.marker_mm = 24;
  }
  return spec;
}

Result<cv::Ptr<cv::aruco::CharucoBoard>> MakeCharucoBoard(const CharucoSpec& spec) {
  using R = Result<cv::Ptr<cv::aruco::CharucoBoard>>;
  if (const std::string problem = spec.Check(); !problem.empty()) return R::Error(problem);
  cv::Ptr<cv::aruco::CharucoBoard> board =
      cv::aruco::CharucoBoard::create(spec.squares_x, spec.squares_y, static_cast<float>(spec.square_mm),
                                      static_cast<float>(spec.marker_mm), *ArucoDictionary(spec.dictionary));
  // The drawing relies on OpenCV 4.6's convention: marker corners clockwise from the top-left, y down.
  for (const auto& c : board->objPoints) CV_Assert(c[1].x > c[0].x && c[3].y > c[0].y);
  return board;
}

Result<int> WriteMarkersPdf(const std::string& path, const std::string& paper, double size_mm) {
  return Write(path, paper, [&](cv::Size2d page) { return MarkersSheet(page, size_mm); });
}

Result<int> WriteCharucoPdf(const std::string& path, const std::string& paper) {
  return WriteCharucoPdf(path, paper, DefaultCharuco(paper));
}

Result<int> WriteCharucoPdf(const std::string& path, const std::string& paper, const CharucoSpec& spec) {
  return Write(path, paper, [&](cv::Size2d page) { return CharucoSheet(page, spec); });
}

Result<int> WriteMatPdf(const std::string& path, const std::string& paper) {
  return Write(path, paper, [&](cv::Size2d page) { return MatSheet(page, paper); });
}

Result<std::vector<cv::Mat>> RenderMarkersPages(const std::string& paper, double size_mm, double px_per_mm) {
  return Render(paper, px_per_mm, [&](cv::Size2d page) { return MarkersSheet(page, size_mm); });
}

Result<std::vector<cv::Mat>> RenderCharucoPages(const std::string& paper, const CharucoSpec& spec,
                                                double px_per_mm) {
  return Render(paper, px_per_mm, [&](cv::Size2d page) { return CharucoSheet(page, spec); });
}

Result<std::vector<cv::Mat>> RenderMatPages(const std::string& paper, double px_per_mm) {
  return Render(paper, px_per_mm, [&](cv::Size2d page) { return MatSheet(page, paper); });
}

Result<cv::Point2d> MatOriginOnPage(const std::string& paper) {
  auto page = PaperSize(paper);
  if (!page) return Result<cv::Point2d>::Error(page.error());
  return MatOrigin(*page, paper);
}

}  // namespace swref::calibration
