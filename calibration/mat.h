// The token enrollment mat (`swref print mat`, `swref enroll --mat PHOTO`): a printed sheet with one labelled
// cell per token kind that has a face of its own on the active side, and 4 ArUco markers at its corners so that
// a photo of it can be mapped back to the sheet. The user lays one token of each kind in its cell, photographs
// the mat with the active sides up, flips every race token (decline side up; the lost tribe and the pieces stay)
// and photographs it again. Each photo yields one crop per cell, labelled with the kind it must hold.
//
// This file is the single source of truth of the mat's geometry: the PDF (targets.h), the raster used by tests
// (RenderMat) and the photo reader all take it from Mat().
//
// Mat coordinates: millimetres, origin at the top-left corner of the mat, x right, y down. The mat includes a
// strip of blank paper around its markers (MatGeometry::quiet_mm), the white the marker detector needs outside
// a marker's black border; printing leaves it blank, so it may run into the printer's unprintable margin. The mat
// is the same on every paper; only its place on the page differs.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

inline constexpr const char* kMatDictionary = "DICT_4X4_50";
inline constexpr int kMatFirstMarkerId = 10;  // 10..13: never one of the board's corner markers 0..3

struct MatCell {
  std::string kind;          // the token kind that goes here with its active side up ("ratmen", "hero", ...)
  std::string flipped_kind;  // what the cell shows in the second photo: "ratmen_decline"; pieces stay as they are
  cv::Rect2d rect_mm;        // the cell's outline; its token is centred in it, its label printed along its bottom
};

struct MatMarker {
  int id = 0;                // DICT_4X4_50 id: 10 top-left, 11 top-right, 12 bottom-right, 13 bottom-left
  cv::Point2d corner_mm;     // top-left corner of the black square
  double size_mm = 0;        // side of the black square (its border included)
};

struct MatGeometry {
  cv::Size2d size_mm;              // the mat's extent: markers and the blank strip around them included
  double quiet_mm = 0;             // the blank strip: nothing printed closer to the mat's edge
  std::vector<MatCell> cells;      // 22, in a fixed order: the 14 races (engine order), lost_tribe, the 7 pieces
  std::vector<MatMarker> markers;  // 4, in id order
  cv::Rect2d notes_mm;             // the grid slots that hold the printed instructions (MatNotes) instead of a cell

  // How it is drawn, shared by the PDF and RenderMat. Greys: 0 black .. 1 white.
  double outline_mm = 0.3;         // cell and notes outlines
  double outline_grey = 0.6;
  double label_mm = 2.6;           // font size of a cell's label (its kind)
  double label_baseline_mm = 1.4;  // the label's baseline above the cell's bottom edge
  double label_grey = 0.3;
  double notes_font_mm = 2.4;      // the instructions: font size, line pitch, inset from the slot's top-left
  double notes_line_mm = 3.3;
  double notes_inset_mm = 3;
};

// The mat for "a4" or "letter" (the same geometry: it fits both). Any other paper name gets the A4 mat; the PDF
// writer is where unknown papers are rejected.
MatGeometry Mat(const std::string& paper = "a4");

// The instructions printed in the mat's notes slot, one line each (short enough for the slot at the PDF's font).
const std::vector<std::string>& MatNotes();

// The mat as printed, seen from straight above: CV_8UC3 BGR, white paper, size_mm * px_per_mm pixels; the centre
// of pixel (i, j) lies at mat mm ((i + 0.5) / px_per_mm, (j + 0.5) / px_per_mm).
cv::Mat RenderMat(const MatGeometry& mat, double px_per_mm);

inline constexpr double kCropPxPerMm = 6.0;      // resolution of the cell crops
inline constexpr double kOccupiedAbove = 0.5;    // CellCrop::occupancy above which a cell holds a token

struct CellCrop {
  std::string kind;             // the cell's kind (MatCell::kind; the caller knows which side was up)
  cv::Mat crop;                 // CV_8UC3 BGR, the cell's square at kCropPxPerMm, its token centred
  bool visible = true;          // false: part of the cell lies outside the photo (crop and scores are void)
  cv::Mat mask;                 // CV_8U, 255 where the crop is not paper or enclosed by what is not: the token, its
                                // shadow and the cell's printed label (rough: a guide for enrollment, not a cut-out)
  bool occupied = false;
  double occupancy = 0;         // fraction of the cell's blank centre (9 mm around it) that the mask covers, 0..1
  cv::Scalar paper_bgr;         // the paper's colour around this cell in the photo (for colour normalisation)
};

struct MatPhoto {
  cv::Matx33d mat_from_image;             // photo pixels (OpenCV's: pixel centres at integers) -> mat mm
  double reprojection_px = 0;             // RMS distance between detected and mapped marker corners, pixels
  std::vector<int> missing_markers;       // mat marker ids not found (at most one, else the photo is rejected)
  std::vector<CellCrop> cells;            // in MatGeometry::cells order
  std::vector<std::string> empty_cells;   // kinds of the visible cells without a token
  std::vector<std::string> unseen_cells;  // kinds of the cells not wholly inside the photo
};

// Finds the mat in a photo (BGR or grey) and cuts out every cell. Needs at least 3 of the 4 markers; the error
// names the photo (`where`) and the missing marker ids. Lens distortion is not modelled: undistort the photo first
// when the camera's intrinsics are known (a phone photo of an A4 sheet is usually fine as it is).
engine::Result<MatPhoto> ReadMatPhoto(const cv::Mat& photo, const MatGeometry& mat, const std::string& where);

// One line per empty or unseen cell, e.g. "mat photo img.jpg: cell 'hero' is empty"; none when every cell holds
// a token.
std::vector<std::string> EmptyCellMessages(const MatPhoto& photo, const std::string& where);

}  // namespace swref::calibration
