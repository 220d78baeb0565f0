#include "app/core/setup.h"

#include <filesystem>
#include <fstream>

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

engine::Result<EnrollReport> EnrollFromCrops(const std::string& setup_dir, const std::string& crops_dir) {
  using R = engine::Result<EnrollReport>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  auto model = calibration::EnrollFromCrops(crops_dir, TokenKinds());
  if (!model) return R::Error(model.error());
  EnrollReport report;
  report.samples = model->size();
  report.kinds = model->LeaveOneOut();
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

}  // namespace swref::core
