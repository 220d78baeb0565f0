// Synthetic photos of the printed token enrollment mat, for `swref enroll --mat FRONT --flipped BACK`: the page
// exactly as `swref print mat` draws it (calibration/targets.h), lying on a table, with one stand-in token
// (token_art.h) in each of its cells, photographed by the table camera simulator (camera.h: tilt, lens, light,
// glare, noise, blur, JPEG). As the mat's printed instructions say, the front photo shows every token's active side
// (the race tokens, the lost tribe, the pieces) and the flipped photo the race tokens' decline sides, the lost
// tribe and the pieces unchanged. A hand lays each token near its cell's centre, turned any way.
//
// The camera's "board" is the page: ProjectBoardPoints(shot, page_mm, ...) maps page millimetres to the photo,
// and a mat point m lies at page point mat_origin_mm + m.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <opencv2/core.hpp>

#include "datasets/camera.h"
#include "datasets/scene.h"
#include "engine/result.h"

namespace swref::datasets {

struct MatPhotoOptions {
  std::string paper = "a4";           // the paper the mat was printed on: a4 or letter
  bool flipped = false;               // the second photo: race tokens decline side up
  std::set<std::string> empty_cells;  // cells (calibration::MatCell::kind) left without a token
  cv::Size frame{1920, 1080};
  ShotRanges ranges;              // how the camera is drawn (its lens: ranges.lens); the page fills the frame
                                  // as a board does
  std::optional<Lighting> light;  // the light; else the shot's own
  uint64_t seed = 1;              // the shot, the table, and where each token lies in its cell
  double px_per_mm = 6;           // the world's resolution (the page and the tokens before the camera): twice
                                  // a table camera's
  double table_margin_mm = 40;    // table shown around the page
};

struct MatPhotoShot {
  cv::Mat image;    // the photo (CV_8UC3 BGR, options.frame), JPEG artefacts included
  CameraShot shot;  // where the camera was
  cv::Size2d page_mm;
  cv::Point2d mat_origin_mm;  // the mat's origin on the page
  Scene scene;                // the tokens as laid: kind and centre in page mm, rotation
};

// Errors: an unknown paper, or an empty cell that is not a cell of the mat (naming it).
engine::Result<MatPhotoShot> RenderMatPhoto(const MatPhotoOptions& options);

}  // namespace swref::datasets
