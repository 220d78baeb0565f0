#include "datasets/dataset.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "datasets/token_art.h"
#include "vision/observation.h"

namespace swref::datasets {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path TempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("swref_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

DatasetOptions Small(const fs::path& out) {
  DatasetOptions o;
  o.out = out.string();
  o.scenes = 4;
  o.frame = {640, 360};
  o.crops_per_kind = 1;
  o.motion_rate = 0.5;
  o.table.seed = 3;
  return o;
}

TEST(GenerateDataset, WritesTheSetupMaterialImagesAndTruth) {
  const fs::path out = TempDir("ds");
  int last_done = 0, last_total = 0;
  auto summary = GenerateDataset(Small(out), [&](int d, int t) { last_done = d, last_total = t; });
  ASSERT_TRUE(summary.ok()) << summary.error();
  EXPECT_EQ(summary->images, 4);
  EXPECT_EQ(last_done, last_total);
  for (const char* f : {"dataset.json", "map.json", "layout.json", "reference.png", "reference.json", "mat_front.jpg", "mat_flipped.jpg",
                        "truth.jsonl", "frames.jsonl"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  for (const std::string& kind : AllTokenKinds()) EXPECT_TRUE(fs::exists(out / "crops" / kind / "00000.png")) << kind;
  EXPECT_EQ(summary->crops, static_cast<int>(AllTokenKinds().size()));
  std::ifstream truth(out / "truth.jsonl");
  std::string line;
  int n = 0, motion = 0;
  while (std::getline(truth, line)) {
    auto obs = vision::ParseObservation(nlohmann::json::parse(line), "truth.jsonl:" + std::to_string(n + 1));
    ASSERT_TRUE(obs.ok()) << obs.error();
    EXPECT_EQ(obs->regions.size(), 23u);  // every region of the 2-player map
    EXPECT_TRUE(fs::exists(out / obs->image)) << obs->image;
    motion += obs->status == vision::Status::kMotion;
    ++n;
  }
  EXPECT_EQ(n, 4);
  EXPECT_EQ(motion, summary->motion);
  fs::remove_all(out);
}

TEST(GenerateDataset, TheSameSeedGivesTheSameFiles) {
  const fs::path a = TempDir("ds_a"), b = TempDir("ds_b");
  DatasetOptions o = Small(a);
  o.crops_per_kind = 0;
  o.scenes = 2;
  ASSERT_TRUE(GenerateDataset(o).ok());
  o.out = b.string();
  ASSERT_TRUE(GenerateDataset(o).ok());
  EXPECT_EQ(Slurp(a / "truth.jsonl"), Slurp(b / "truth.jsonl"));
  EXPECT_EQ(Slurp(a / "images" / "s00001.jpg"), Slurp(b / "images" / "s00001.jpg"));
  EXPECT_EQ(Slurp(a / "layout.json"), Slurp(b / "layout.json"));
  fs::remove_all(a);
  o.out = a.string();
  o.table.seed = 4;
  ASSERT_TRUE(GenerateDataset(o).ok());
  EXPECT_NE(Slurp(a / "images" / "s00001.jpg"), Slurp(b / "images" / "s00001.jpg"));
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(GenerateDataset, BadOptionsAreRefusedWithTheirPlaceAndNothingIsOverwritten) {
  const fs::path out = TempDir("ds_bad");
  fs::create_directories(out);
  std::ofstream(out / "keep.txt") << "mine";
  auto r = GenerateDataset(Small(out));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(out.string() + ": the folder is not empty"), std::string::npos) << r.error();
  EXPECT_EQ(Slurp(out / "keep.txt"), "mine");
  DatasetOptions o = Small(TempDir("ds_bad2"));
  o.scenes = 0;
  EXPECT_NE(GenerateDataset(o).error().find("--scenes"), std::string::npos);
  o = Small(TempDir("ds_bad3"));
  o.table.map = "/nonexistent/map.json";
  EXPECT_NE(GenerateDataset(o).error().find("/nonexistent/map.json"), std::string::npos);
  fs::remove_all(out);
}

}  // namespace
}  // namespace swref::datasets
