// Synthetic photos of the printed enrollment mat (mat_photo.h): the printed page in the world, the tokens in their
// cells, the camera.
#include "datasets/mat_photo.h"

#include <opencv2/core.hpp>

#include "calibration/mat.h"
#include "calibration/targets.h"
#include "datasets/board_art.h"
#include "datasets/dataset.h"

namespace swref::datasets {
namespace {

enum MatStream : uint64_t { kMatShotStream = 1, kMatTableStream, kMatPlacementStream };

constexpr double kJitterMm = 2.5;  // how far from its cell's centre a hand leaves a token

// One token in every cell but the empty ones, near the cell's centre, turned any way (page mm).
Scene LayTokens(const calibration::MatGeometry& mat, cv::Point2d origin, const MatPhotoOptions& options) {
  cv::RNG rng(DeriveSeed(options.seed, kMatPlacementStream, 0));
  Scene scene;
  for (const calibration::MatCell& cell : mat.cells) {
    if (options.empty_cells.count(cell.kind)) continue;
    Placement p;
    p.kind = options.flipped ? cell.flipped_kind : cell.kind;
    const cv::Point2d centre = (cell.rect_mm.tl() + cell.rect_mm.br()) * 0.5;
    const double jitter_y = rng.uniform(-kJitterMm, kJitterMm);  // y first: see DrawOrder in dataset.h
    p.centre_mm = origin + centre + cv::Point2d(rng.uniform(-kJitterMm, kJitterMm), jitter_y);
    p.rotation_deg = rng.uniform(0.0, 360.0);
    scene.placements.push_back(p);
  }
  return scene;
}

}  // namespace

engine::Result<MatPhotoShot> RenderMatPhoto(const MatPhotoOptions& options) {
  using R = engine::Result<MatPhotoShot>;
  const calibration::MatGeometry mat = calibration::Mat(options.paper);
  for (const std::string& kind : options.empty_cells) {
    bool known = false;
    for (const calibration::MatCell& cell : mat.cells) known = known || cell.kind == kind;
    if (!known) return R::Error("empty cell '" + kind + "' is not a cell of the enrollment mat");
  }
  auto page_mm = calibration::PaperSize(options.paper);
  if (!page_mm) return R::Error(page_mm.error());
  auto origin = calibration::MatOriginOnPage(options.paper);
  if (!origin) return R::Error(origin.error());
  auto pages = calibration::RenderMatPages(options.paper, options.px_per_mm);
  if (!pages) return R::Error(pages.error());

  MatPhotoShot out;
  out.page_mm = *page_mm;
  out.mat_origin_mm = *origin;
  out.shot = RandomShot(options.frame, out.page_mm, options.ranges, DeriveSeed(options.seed, kMatShotStream, 0));
  if (options.light) out.shot.light = *options.light;

  const double ppm = options.px_per_mm, margin = options.table_margin_mm;
  const cv::Size table(cvRound((out.page_mm.width + 2 * margin) * ppm), cvRound((out.page_mm.height + 2 * margin) * ppm));
  const uint64_t table_seed = DeriveSeed(options.seed, kMatTableStream, 0);
  const World bare =
      MakeEmptyWorld(pages->front(), out.page_mm, ppm, RenderTable(table, ppm, static_cast<TableKind>(table_seed % 5), table_seed), margin);
  out.scene = LayTokens(mat, out.mat_origin_mm, options);
  const cv::Point3d camera = CameraOverBoard(out.shot, out.page_mm);
  out.image = RenderFrame(ComposeWorld(bare, out.scene, out.shot.light, &camera), out.shot);
  return out;
}

}  // namespace swref::datasets
