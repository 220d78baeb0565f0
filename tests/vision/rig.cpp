#include "tests/vision/rig.h"

#include <unistd.h>
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "engine/random_game.h"
#include "tests/test_images.h"

namespace swref::vision::test {
namespace fs = std::filesystem;

Rig MakeRig(uint64_t seed, const ObserverOptions& options) {
  Rig rig;
  datasets::TableOptions to;
  to.seed = seed;
  auto t = datasets::MakeSyntheticTable(to);
  EXPECT_TRUE(t.ok()) << t.error();
  rig.table = std::move(*t);
  const fs::path dir = fs::temp_directory_path() / ("swref_rig_" + std::to_string(::getpid()) + "_" + std::to_string(seed));
  fs::remove_all(dir);
  datasets::DatasetOptions o;
  o.out = dir.string();
  o.scenes = 1;
  o.crops_per_kind = 4;
  o.table.seed = seed;
  o.lens = datasets::Lens{1.2 * 1920, 0, 0};  // a distortion-free camera: the test frames below have none
  EXPECT_TRUE(datasets::GenerateDataset(o).ok());
  // The setup's reference photo: the crops were taken under its light, as at a real setup.
  const cv::Mat reference = swref::test::LoadImage((dir / "reference.png").string());
  calibration::BoardSetup setup;
  setup.map = "2p";
  setup.layout = rig.table->layout;
  setup.reference_size = reference.size();
  auto pose = calibration::RegisterByMarkers(reference, *rig.table->layout.markers, "reference");
  EXPECT_TRUE(pose.ok());
  setup.pose = *pose;
  const cv::Size2d b = setup.layout.board_mm;
  auto patches = calibration::ReadCropFolder((dir / "crops").string(), {}, calibration::PxPerMmAt(pose->image_from_board, {b.width / 2, b.height / 2}));
  EXPECT_TRUE(patches.ok());
  auto model = calibration::TokenModel::Build(*patches);
  EXPECT_TRUE(model.ok());
  fs::remove_all(dir);
  rig.observer.emplace(setup, rig.table->map, std::move(*model), reference, options);
  return rig;
}

std::vector<engine::Board> BoardsOfAGame(const std::shared_ptr<const engine::Map>& map, uint64_t seed, int every, int first) {
  std::vector<engine::Board> boards;
  int k = 0;
  auto game = engine::PlayRandomGame(map, seed, [&](const engine::Game& g, const engine::Action&) {
    if (k++ % every == first) boards.push_back(g.board());
  });
  EXPECT_TRUE(game.ok());
  return boards;
}


std::vector<int> LargestPlainLand(const datasets::SyntheticTable& table, const engine::Board& board) {
  const cv::Mat labels = calibration::RasterizeLayout(table.layout, 1.0);
  std::vector<std::pair<int, int>> area;  // (mm², region)
  for (const engine::Region& r : table.map->regions) {
    const engine::RegionState& s = board[r.id];
    if (r.IsWater() || s.mountain || s.lost_tribe) continue;
    area.emplace_back(cv::countNonZero(labels == r.id), r.id);
  }
  std::sort(area.rbegin(), area.rend());
  std::vector<int> ids;
  for (const auto& [mm2, id] : area) ids.push_back(id);
  return ids;
}

}  // namespace swref::vision::test
