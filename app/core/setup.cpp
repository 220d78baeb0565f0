#include "app/core/setup.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "calibration/mat.h"
#include "engine/components.h"

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

engine::Result<calibration::BoardSetup> SetupBoard(const calibration::SetupRequest& request) { return calibration::SetupBoard(request); }

namespace {

// The report and the model file of an enrolled model.
engine::Result<EnrollReport> SaveModel(const std::string& setup_dir, const calibration::AppearanceModel* model) {
  using R = engine::Result<EnrollReport>;
  EnrollReport report;
  report.kinds = model->LeaveOneOut();
  for (const auto& k : report.kinds) report.samples += k.samples;  // photos, not their light variants
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
  // Written to a temporary file first, so that a failed write never leaves a broken model behind.
  const fs::path tmp = dir / "model.json.tmp";
  {
    std::ofstream out(tmp);
    out << model->ToJson().dump() << "\n";
    if (!out) return R::Error(tmp.string() + ": cannot write");
  }
  fs::rename(tmp, dir / "model.json", ec);
  if (ec) return R::Error(report.model_path + ": cannot write: " + ec.message());
  return report;
}

}  // namespace

engine::Result<EnrollReport> EnrollFromCrops(const std::string& setup_dir, const std::string& crops_dir) {
  using R = engine::Result<EnrollReport>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  auto model = calibration::EnrollFromCrops(crops_dir, TokenKinds());
  if (!model) return R::Error(model.error());
  return SaveModel(setup_dir, &*model);
}

engine::Result<EnrollReport> EnrollFromMat(const std::string& setup_dir, const std::vector<std::string>& front,
                                           const std::vector<std::string>& flipped, const std::string& paper) {
  using R = engine::Result<EnrollReport>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  if (front.empty()) return R::Error("--mat: at least one photo of the mat with the tokens' active sides up");
  const calibration::MatGeometry mat = calibration::Mat(paper);
  calibration::AppearanceModel model;
  auto add = [&](const std::string& path, bool turned) -> std::string {
    const cv::Mat photo = cv::imread(path, cv::IMREAD_COLOR);
    if (photo.empty()) return path + ": cannot read the photo";
    auto read = calibration::ReadMatPhoto(photo, mat, path);
    if (!read) return read.error();
    const auto empty = calibration::EmptyCellMessages(*read, path);
    if (!empty.empty()) return empty.front() + (empty.size() > 1 ? " (and " + std::to_string(empty.size() - 1) + " more)" : "");
    for (size_t i = 0; i < read->cells.size(); ++i) {
      const calibration::CellCrop& c = read->cells[i];
      if (!c.visible || !c.occupied) continue;
      model.AddCrop(turned ? mat.cells[i].flipped_kind : mat.cells[i].kind, c.crop);
    }
    return "";
  };
  for (const auto& p : front) {
    if (auto problem = add(p, false); !problem.empty()) return R::Error(problem);
  }
  for (const auto& p : flipped) {
    if (auto problem = add(p, true); !problem.empty()) return R::Error(problem);
  }
  model.Finish();
  return SaveModel(setup_dir, &model);
}

}  // namespace swref::core
