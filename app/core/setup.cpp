#include "app/core/setup.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "calibration/intrinsics.h"
#include "calibration/mat.h"
#include "engine/components.h"
#include "engine/durable_write.h"

namespace swref::core {
namespace fs = std::filesystem;

std::vector<std::string> TokenKinds() {
  std::vector<std::string> kinds;
  for (int r = 0; r < engine::kRaceCount; ++r) kinds.emplace_back(engine::Info(static_cast<engine::Race>(r)).id);
  for (int r = 0; r < engine::kRaceCount; ++r) kinds.push_back(std::string(engine::Info(static_cast<engine::Race>(r)).id) + "_decline");
  kinds.emplace_back("lost_tribe");
  for (int p = 0; p < engine::kPieceCount; ++p) {
    if (static_cast<engine::Piece>(p) != engine::Piece::kLostTribe) kinds.emplace_back(engine::Info(static_cast<engine::Piece>(p)).id);
  }
  return kinds;
}

namespace {

// `lead` and each kind whose `field` is above 0, by the name the caller gives it and its figure (`format` of `scale`
// times the field), joined by `separator`; empty when there is none.
std::string KindsAdvice(const EnrollReport& report, double calibration::KindQuality::*field, const char* format, double scale,
                        const std::string& lead, const std::function<std::string(const std::string&)>& name, const std::string& separator) {
  std::string kinds;
  for (const calibration::KindQuality& k : report.kinds) {
    if (k.*field <= 0) continue;
    char figure[48];
    std::snprintf(figure, sizeof figure, format, scale * k.*field);
    kinds += (kinds.empty() ? "" : separator) + name(k.kind) + figure;
  }
  return kinds.empty() ? "" : lead + kinds;
}

}  // namespace

std::string OffCentreAdvice(const EnrollReport& report, const std::function<std::string(const std::string&)>& name,
                            const std::string& separator) {
  return KindsAdvice(report, &calibration::KindQuality::off_centre_mm, " (%.1f mm)", 1,
                     "Off-centre, check their photos (one washed out or cluttered, or crops not cut around the token): ", name, separator);
}

std::string OtherSideAdvice(const EnrollReport& report, const std::function<std::string(const std::string&)>& name,
                            const std::string& separator) {
  return KindsAdvice(report, &calibration::KindQuality::outline_from_other_side, " (%.0f %% of its other side)", 100,
                     "Outline unlike its other side's, whose size stands in; check their photos (a side that hardly differs from "
                     "the ground it lay on, or one whose ground was taken in): ",
                     name, separator);
}

engine::Result<calibration::BoardSetup> SetupBoard(const calibration::SetupRequest& request) { return calibration::SetupBoard(request); }

namespace {

// Builds the model, writes SETUP/tokens/model.json and the report.
engine::Result<EnrollReport> BuildAndSave(const std::string& setup_dir, const std::vector<calibration::EnrollPatch>& patches) {
  using R = engine::Result<EnrollReport>;
  auto model = calibration::TokenModel::Build(patches);
  if (!model) return R::Error(model.error());
  EnrollReport report;
  report.kinds = model->quality();
  for (const auto& k : report.kinds) report.samples += k.samples;
  report.look_alikes = model->LookAlikes();
  const auto have = model->Kinds();
  for (const std::string& k : TokenKinds()) {
    if (std::find(have.begin(), have.end(), k) == have.end()) report.missing_kinds.push_back(k);
  }
  const fs::path dir = fs::path(setup_dir) / "tokens";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return R::Error(dir.string() + ": cannot create the folder: " + ec.message());
  report.model_path = (dir / "model.json").string();
  // Replaced durably: a failed write never leaves a broken model behind.
  if (const auto written = engine::ReplaceFileDurably(report.model_path, model->ToJson().dump() + "\n"); !written.ok()) return R::Error(written.error);
  return report;
}

// The token's centre in a mat cell's crop: the middle of the footprint near the cell's centre (the label along
// the cell's bottom and the outline are left out).
cv::Point2d CellTokenCentre(const calibration::CellCrop& c) {
  const cv::Point2d mid((c.crop.cols - 1) / 2.0, (c.crop.rows - 1) / 2.0);
  if (c.mask.empty()) return mid;
  cv::Mat near = cv::Mat::zeros(c.mask.size(), CV_8U);
  cv::circle(near, cv::Point(cvRound(mid.x), cvRound(mid.y)), cvRound(0.42 * std::min(c.crop.cols, c.crop.rows)), cv::Scalar(255), cv::FILLED);
  const cv::Moments m = cv::moments(c.mask & near, true);
  return m.m00 > 0 ? cv::Point2d(m.m10 / m.m00, m.m01 / m.m00) : mid;
}

}  // namespace

engine::Result<EnrollReport> EnrollFromCrops(const std::string& setup_dir, const std::string& crops_dir) {
  using R = engine::Result<EnrollReport>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  // The crops come from the table camera: their scale is the board's in the reference photo.
  const cv::Size2d b = setup->layout.board_mm;
  const double px_per_mm = calibration::PxPerMmAt(setup->pose.image_from_board, {b.width / 2, b.height / 2});
  auto patches = calibration::ReadCropFolder(crops_dir, TokenKinds(), px_per_mm);
  if (!patches) return R::Error(patches.error());
  return BuildAndSave(setup_dir, *patches);
}

engine::Result<EnrollReport> EnrollFromMat(const std::string& setup_dir, const std::vector<std::string>& front,
                                           const std::vector<std::string>& flipped, const std::string& paper) {
  using R = engine::Result<EnrollReport>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  if (front.empty()) return R::Error("--mat: at least one photo of the mat with the tokens' active sides up");
  const calibration::MatGeometry mat = calibration::Mat(paper);
  // The table camera's lens, when the setup knows it: a photo of its size is taken to come from it.
  std::optional<calibration::CameraModel> camera;
  if (setup->has_camera) {
    auto read = calibration::ReadCameraFile((fs::path(setup_dir) / "camera.json").string());
    if (!read) return R::Error(read.error());
    camera = std::move(*read);
  }
  std::vector<calibration::EnrollPatch> patches;
  int group = 0;
  auto add = [&](const std::string& path, bool turned) -> std::string {
    auto image = calibration::ReadImageFile(path, calibration::ImageRead::kColor);
    if (!image) return image.error();
    cv::Mat photo = std::move(*image);
    if (camera && photo.size() == camera->image_size) {
      cv::Mat undistorted;
      cv::undistort(photo, undistorted, camera->K, camera->dist, camera->K);
      photo = undistorted;
    }
    auto read = calibration::ReadMatPhoto(photo, mat, path);
    if (!read) return read.error();
    const auto empty = calibration::EmptyCellMessages(*read, path);
    if (!empty.empty()) return empty.front() + (empty.size() > 1 ? " (and " + std::to_string(empty.size() - 1) + " more)" : "");
    for (size_t i = 0; i < read->cells.size(); ++i) {
      const calibration::CellCrop& c = read->cells[i];
      if (!c.visible || !c.occupied) continue;
      calibration::EnrollPatch p;
      p.kind = turned ? mat.cells[i].flipped_kind : mat.cells[i].kind;
      p.bgr = c.crop;
      p.px_per_mm = calibration::kCropPxPerMm;
      p.centre_px = CellTokenCentre(c);
      p.group = group;
      p.where = path + ", cell '" + mat.cells[i].kind + "'";
      patches.push_back(std::move(p));
    }
    ++group;
    return "";
  };
  for (const auto& p : front) {
    if (auto problem = add(p, false); !problem.empty()) return R::Error(problem);
  }
  for (const auto& p : flipped) {
    if (auto problem = add(p, true); !problem.empty()) return R::Error(problem);
  }
  return BuildAndSave(setup_dir, patches);
}

}  // namespace swref::core
