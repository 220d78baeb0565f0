// The enrollment mat (mat.h): its geometry, its raster and the photo reader.
//
// Layout (194 x 240 mm printed, in a 4 mm blank strip: 202 x 248 mm; fits A4 and Letter with a header above): a
// 4 x 6 grid of 40 mm cells, the 22 kinds in the first 22 slots and the instructions in the last two; the 14 mm
// markers stand beside the grid's corner cells, 3 mm from it, so they add width (which both papers have to spare)
// rather than height (which Letter lacks).
// A 40 mm cell leaves 3 mm around the largest piece (the 34 mm dragon) and 7.5 mm around a race token.
//
// Reading a photo, step by step: find the markers, fit the homography mat_from_image to their 16 (or 12) corners,
// warp each cell to a square crop, and decide whether it holds a token. Nothing is printed in a cell's centre, so
// an empty cell's centre is plain paper; a token is what is darker or more colourful than the paper, together with
// what that encloses (symbols in near-white ink). The paper's colour is measured per cell on a ring just inside
// the cell's outline, which a centred token leaves free, so that the light's colour and a brightness gradient
// across the mat cancel out. On 40 of the simulator's photos a token covered 64-100% of its cell's centre and an
// empty cell none of it, except for two pale tokens washed out by strong glare in one photo.
#include "calibration/mat.h"

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/components.h"
#include "engine/map.h"

namespace swref::calibration {
namespace {

using engine::Result;

constexpr double kCellMm = 40, kMarkerMm = 14, kMarkerGapMm = 3;
constexpr double kQuietMm = 4;  // 1.7 marker cells of white outside the markers' black border
constexpr int kCols = 4, kRows = 6;

// Where the photo reader looks, in mm from the cell's centre or edge.
constexpr double kCentreRadiusMm = 9;          // the blank centre every token covers (the smallest is 22 mm wide)
constexpr double kRingFromMm = 1, kRingToMm = 3;  // paper ring inside the outline, clear of the outline's blur
constexpr double kNotPaper = 0.15;             // darker or more saturated than paper by this fraction: a token
constexpr double kOutlineBandMm = 1.5;         // the printed outline and its blur, ignored

// The kinds in print order, each with the kind its cell shows once the race tokens are flipped.
std::vector<std::pair<std::string, std::string>> MatKinds() {
  std::vector<std::pair<std::string, std::string>> kinds;
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const std::string id(engine::Info(static_cast<engine::Race>(r)).id);
    kinds.emplace_back(id, id + "_decline");
  }
  kinds.emplace_back("lost_tribe", "lost_tribe");  // the same picture on both sides
  for (engine::Piece p :
       {engine::Piece::kMountain, engine::Piece::kTrollLair, engine::Piece::kFortress, engine::Piece::kEncampment,
        engine::Piece::kHole, engine::Piece::kHero, engine::Piece::kDragon}) {
    const std::string id(engine::Info(p).id);
    kinds.emplace_back(id, id);
  }
  return kinds;
}

// Per-channel value below which `fraction` of the masked pixels lie.
cv::Scalar Percentile(const cv::Mat& bgr, const cv::Mat& mask, double fraction) {
  std::vector<cv::Mat> planes;
  cv::split(bgr, planes);
  cv::Scalar out;
  for (int c = 0; c < 3; ++c) {
    std::vector<uchar> values;
    values.reserve(static_cast<size_t>(cv::countNonZero(mask)));
    for (int y = 0; y < mask.rows; ++y) {
      const uchar* m = mask.ptr<uchar>(y);
      const uchar* v = planes[c].ptr<uchar>(y);
      for (int x = 0; x < mask.cols; ++x)
        if (m[x]) values.push_back(v[x]);
    }
    if (values.empty()) continue;
    auto nth = values.begin() + static_cast<long>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), nth, values.end());
    out[c] = *nth;
  }
  return out;
}

// The masks of a cell's crop: the paper ring and the blank centre.
struct CropMasks {
  cv::Mat ring, centre;
};

CropMasks Masks(cv::Size2d cell_mm) {
  const double ppm = kCropPxPerMm;
  const cv::Size size(cvRound(cell_mm.width * ppm), cvRound(cell_mm.height * ppm));
  CropMasks m{cv::Mat(size, CV_8U, cv::Scalar(0)), cv::Mat(size, CV_8U, cv::Scalar(0))};
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      const double xm = (x + 0.5) / ppm, ym = (y + 0.5) / ppm;  // mm from the cell's top-left corner
      const double edge = std::min({xm, ym, cell_mm.width - xm, cell_mm.height - ym});
      if (edge >= kRingFromMm && edge <= kRingToMm) m.ring.at<uchar>(y, x) = 255;
      const double from_centre = std::hypot(xm - cell_mm.width / 2, ym - cell_mm.height / 2);
      if (from_centre <= kCentreRadiusMm) m.centre.at<uchar>(y, x) = 255;
    }
  }
  return m;
}

// The token's footprint in a crop: the pixels that are not paper (darker than the paper or of another hue: the
// weakest channel falls below the paper's by kNotPaper), plus everything they enclose. The filling matters: many
// symbols are printed in a near-white ink that a camera cannot tell from paper, but every token's background
// colour rings its symbol. The paper is flooded from the crop's border, with the outer band (the printed outline)
// taken as paper; whatever the flood does not reach is token, or the printed label. Returns CV_8U 0/255.
cv::Mat Footprint(const cv::Mat& crop, const cv::Scalar& paper) {
  cv::Mat mask(crop.size(), CV_8U);
  const double inv[3] = {1 / std::max(paper[0], 1.0), 1 / std::max(paper[1], 1.0), 1 / std::max(paper[2], 1.0)};
  for (int y = 0; y < crop.rows; ++y) {
    const cv::Vec3b* p = crop.ptr<cv::Vec3b>(y);
    uchar* m = mask.ptr<uchar>(y);
    for (int x = 0; x < crop.cols; ++x) {
      const double weakest = std::min({p[x][0] * inv[0], p[x][1] * inv[1], p[x][2] * inv[2]});
      m[x] = 1 - weakest > kNotPaper ? 255 : 0;
    }
  }
  const int band = cvRound(kOutlineBandMm * kCropPxPerMm);
  mask.rowRange(0, band).setTo(0);
  mask.rowRange(mask.rows - band, mask.rows).setTo(0);
  mask.colRange(0, band).setTo(0);
  mask.colRange(mask.cols - band, mask.cols).setTo(0);
  cv::Mat reached = mask.clone();
  cv::floodFill(reached, cv::Point(0, 0), cv::Scalar(128));
  return reached != 128;
}

// Marker corners in mat mm, in ArUco's order (top-left, top-right, bottom-right, bottom-left).
std::vector<cv::Point2f> MarkerCorners(const MatMarker& m) {
  const auto x = static_cast<float>(m.corner_mm.x), y = static_cast<float>(m.corner_mm.y);
  const auto s = static_cast<float>(m.size_mm);
  return {{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}};
}

}  // namespace

MatGeometry Mat(const std::string& /*paper*/) {
  MatGeometry mat;
  mat.quiet_mm = kQuietMm;
  const double grid_x = kQuietMm + kMarkerMm + kMarkerGapMm, grid_y = kQuietMm;
  mat.size_mm = {2 * grid_x + kCols * kCellMm, 2 * grid_y + kRows * kCellMm};
  int slot = 0;
  for (const auto& [kind, flipped] : MatKinds()) {
    const cv::Rect2d rect(grid_x + (slot % kCols) * kCellMm, grid_y + (slot / kCols) * kCellMm, kCellMm, kCellMm);
    mat.cells.push_back({kind, flipped, rect});
    ++slot;
  }
  // The remaining slots of the last row hold the instructions.
  mat.notes_mm = cv::Rect2d(grid_x + (slot % kCols) * kCellMm, grid_y + (slot / kCols) * kCellMm,
                            (kCols - slot % kCols) * kCellMm, kCellMm);
  const double left = kQuietMm, top = kQuietMm;
  const double right = mat.size_mm.width - kQuietMm - kMarkerMm, bottom = mat.size_mm.height - kQuietMm - kMarkerMm;
  mat.markers = {{kMatFirstMarkerId, {left, top}, kMarkerMm},
                 {kMatFirstMarkerId + 1, {right, top}, kMarkerMm},
                 {kMatFirstMarkerId + 2, {right, bottom}, kMarkerMm},
                 {kMatFirstMarkerId + 3, {left, bottom}, kMarkerMm}};
  return mat;
}

const std::vector<std::string>& MatNotes() {
  static const std::vector<std::string> notes = {
      "1. Put one token of each kind in its cell, active",
      "   side up, near the centre. Photograph the whole",
      "   mat from above, all 4 corner markers in view,",
      "   in even light without glare.",
      "2. Flip every race token (decline side up); the",
      "   lost tribe and the pieces stay. Photograph again.",
      "3. swref enroll --setup SETUP",
      "      --mat ACTIVE.jpg --flipped DECLINE.jpg",
  };
  return notes;
}

cv::Mat RenderMat(const MatGeometry& mat, double px_per_mm) {
  CV_Assert(px_per_mm > 0);
  const double s = px_per_mm;
  cv::Mat img(cvRound(mat.size_mm.height * s), cvRound(mat.size_mm.width * s), CV_8UC3, cv::Scalar::all(255));
  constexpr int kShift = 4;  // sub-pixel drawing: outlines land where the PDF puts them
  auto fixed = [&](cv::Point2d mm) {  // mm -> OpenCV's pixel-centre coordinates, fixed point
    return cv::Point(cvRound((mm.x * s - 0.5) * (1 << kShift)), cvRound((mm.y * s - 0.5) * (1 << kShift)));
  };
  const int outline = std::max(1, cvRound(mat.outline_mm * s));
  const cv::Scalar outline_bgr = cv::Scalar::all(255 * mat.outline_grey);
  for (const MatCell& cell : mat.cells)
    cv::rectangle(img, fixed(cell.rect_mm.tl()), fixed(cell.rect_mm.br()), outline_bgr, outline, cv::LINE_AA, kShift);
  cv::rectangle(img, fixed(mat.notes_mm.tl()), fixed(mat.notes_mm.br()), outline_bgr, outline, cv::LINE_AA, kShift);

  // Hershey text is sized by its cap height: about 0.7 of the PDF font's size.
  const int font = cv::FONT_HERSHEY_SIMPLEX;
  auto put = [&](const std::string& text, cv::Point2d baseline_mm, double font_mm, bool centred, double grey) {
    int base = 0;
    const cv::Size unit = cv::getTextSize("H", font, 1.0, 1, &base);
    const double scale = 0.7 * font_mm * s / unit.height;
    const int thick = std::max(1, cvRound(scale * 1.6));
    const cv::Size size = cv::getTextSize(text, font, scale, thick, &base);
    const double x = baseline_mm.x * s - (centred ? size.width / 2.0 : 0);
    cv::putText(img, text, cv::Point(cvRound(x), cvRound(baseline_mm.y * s)), font, scale, cv::Scalar::all(255 * grey),
                thick, cv::LINE_AA);
  };
  for (const MatCell& cell : mat.cells) {
    put(cell.kind, {cell.rect_mm.x + cell.rect_mm.width / 2, cell.rect_mm.br().y - mat.label_baseline_mm},
        mat.label_mm, true, mat.label_grey);
  }
  double y = mat.notes_mm.y + mat.notes_inset_mm + mat.notes_font_mm;
  for (const std::string& line : MatNotes()) {
    put(line, {mat.notes_mm.x + mat.notes_inset_mm, y}, mat.notes_font_mm, false, 0.15);
    y += mat.notes_line_mm;
  }

  const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  for (const MatMarker& m : mat.markers) {
    const cv::Rect at(cvRound(m.corner_mm.x * s), cvRound(m.corner_mm.y * s), cvRound(m.size_mm * s),
                      cvRound(m.size_mm * s));
    cv::Mat marker;
    cv::aruco::drawMarker(dict, m.id, at.width, marker, 1);
    cv::cvtColor(marker, marker, cv::COLOR_GRAY2BGR);
    marker.copyTo(img(at & cv::Rect(0, 0, img.cols, img.rows)));
  }
  return img;
}

Result<MatPhoto> ReadMatPhoto(const cv::Mat& photo, const MatGeometry& mat, const std::string& where) {
  using R = Result<MatPhoto>;
  const std::string at = "mat photo " + where + ": ";
  if (photo.empty()) return R::Error(at + "empty image");
  if (photo.depth() != CV_8U || (photo.channels() != 1 && photo.channels() != 3)) {
    return R::Error(at + "expected an 8-bit grey or BGR image");
  }
  cv::Mat bgr, grey;
  if (photo.channels() == 1) {
    grey = photo;
    cv::cvtColor(photo, bgr, cv::COLOR_GRAY2BGR);
  } else {
    bgr = photo;
    cv::cvtColor(photo, grey, cv::COLOR_BGR2GRAY);
  }

  // Step 1: the markers. Sub-pixel corners: the crops are only as well placed as these 16 points.
  const cv::Ptr<cv::aruco::Dictionary> dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  cv::Ptr<cv::aruco::DetectorParameters> params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(grey, dict, corners, ids, params);
  std::map<int, std::vector<cv::Point2f>> seen;
  std::vector<int> foreign;
  for (size_t i = 0; i < ids.size(); ++i) {
    const bool ours =
        std::any_of(mat.markers.begin(), mat.markers.end(), [&](const MatMarker& m) { return m.id == ids[i]; });
    if (!ours) {
      foreign.push_back(ids[i]);
    } else if (!seen.emplace(ids[i], corners[i]).second) {
      return R::Error(at + "marker " + std::to_string(ids[i]) + " appears twice (two mats in one photo?)");
    }
  }
  MatPhoto out;
  for (const MatMarker& m : mat.markers)
    if (!seen.count(m.id)) out.missing_markers.push_back(m.id);
  if (seen.size() < 3) {
    std::string why = at + "found " + std::to_string(seen.size()) + " of the mat's 4 corner markers (missing " +
                      engine::IdList(out.missing_markers) + "); at least 3 are needed: photograph the whole mat";
    std::sort(foreign.begin(), foreign.end());
    if (!foreign.empty()) why += " (markers " + engine::IdList(foreign) + " seen are not the mat's)";
    return R::Error(why);
  }

  // Step 2: the homography, and a check that the markers sit where the mat has them (not some other sheet).
  std::vector<cv::Point2f> in_image, in_mat;
  for (const MatMarker& m : mat.markers) {
    const auto it = seen.find(m.id);
    if (it == seen.end()) continue;
    in_image.insert(in_image.end(), it->second.begin(), it->second.end());
    const std::vector<cv::Point2f> mm = MarkerCorners(m);
    in_mat.insert(in_mat.end(), mm.begin(), mm.end());
  }
  const cv::Mat h = cv::findHomography(in_image, in_mat, 0);
  if (h.empty()) return R::Error(at + "the mat's markers do not fit a plane (degenerate detection)");
  out.mat_from_image = cv::Matx33d(h);
  const cv::Matx33d image_from_mat = out.mat_from_image.inv();
  std::vector<cv::Point2f> back;
  cv::perspectiveTransform(in_mat, back, cv::Mat(image_from_mat));
  double sum2 = 0;
  for (size_t i = 0; i < back.size(); ++i) sum2 += std::pow(cv::norm(back[i] - in_image[i]), 2);
  out.reprojection_px = std::sqrt(sum2 / static_cast<double>(back.size()));
  const double marker_px = cv::norm(in_image[0] - in_image[1]);
  if (out.reprojection_px > std::max(2.0, 0.1 * marker_px)) {
    return R::Error(at + "the markers are not where the mat has them (" + std::to_string(out.reprojection_px) +
                    " px off): is this the swref enrollment mat, lying flat?");
  }

  // Step 3: the cells.
  std::map<std::pair<int, int>, CropMasks> masks;  // by crop size: every cell of the standard mat shares one
  const cv::Rect frame(0, 0, bgr.cols, bgr.rows);
  for (const MatCell& cell : mat.cells) {
    CellCrop c;
    c.kind = cell.kind;
    // crop pixel centres (i + 0.5) / ppm mm from the cell's top-left corner
    const double s = kCropPxPerMm;
    const cv::Matx33d crop_from_mat(s, 0, -cell.rect_mm.x * s - 0.5, 0, s, -cell.rect_mm.y * s - 0.5, 0, 0, 1);
    std::vector<cv::Point2f> outline = {cell.rect_mm.tl(), cell.rect_mm.tl() + cv::Point2d(cell.rect_mm.width, 0),
                                        cell.rect_mm.br(), cell.rect_mm.tl() + cv::Point2d(0, cell.rect_mm.height)};
    cv::perspectiveTransform(outline, outline, cv::Mat(image_from_mat));
    c.visible = std::all_of(outline.begin(), outline.end(), [&](const cv::Point2f& p) { return frame.contains(p); });
    const cv::Size size(cvRound(cell.rect_mm.width * s), cvRound(cell.rect_mm.height * s));
    cv::warpPerspective(bgr, c.crop, cv::Mat(crop_from_mat * out.mat_from_image), size, cv::INTER_LINEAR,
                        cv::BORDER_REPLICATE);
    auto mask = masks.find({size.width, size.height});
    if (mask == masks.end()) mask = masks.emplace(std::pair(size.width, size.height), Masks(cell.rect_mm.size())).first;
    if (c.visible) {
      c.paper_bgr = Percentile(c.crop, mask->second.ring, 0.75);
      c.mask = Footprint(c.crop, c.paper_bgr);
      const cv::Mat& centre = mask->second.centre;
      c.occupancy = static_cast<double>(cv::countNonZero(c.mask & centre)) / std::max(1, cv::countNonZero(centre));
      c.occupied = c.occupancy > kOccupiedAbove;
      if (!c.occupied) out.empty_cells.push_back(cell.kind);
    } else {
      out.unseen_cells.push_back(cell.kind);
    }
    out.cells.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> EmptyCellMessages(const MatPhoto& photo, const std::string& where) {
  std::vector<std::string> lines;
  for (const std::string& kind : photo.unseen_cells)
    lines.push_back("mat photo " + where + ": cell '" + kind + "' is not wholly in the photo");
  for (const std::string& kind : photo.empty_cells)
    lines.push_back("mat photo " + where + ": cell '" + kind + "' is empty");
  return lines;
}

}  // namespace swref::calibration
