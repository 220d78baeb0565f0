#include "calibration/appearance.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/dataset.h"
#include "datasets/token_art.h"

namespace swref::calibration {
namespace {

namespace fs = std::filesystem;

// Enrollment crops of every kind from a synthetic table (a dataset of one scene).
fs::path Crops(const std::string& name, uint64_t seed, int per_kind) {
  const fs::path dir = fs::temp_directory_path() / ("swref_crops_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  datasets::DatasetOptions o;
  o.out = dir.string();
  o.scenes = 1;
  o.frame = {1280, 720};
  o.crops_per_kind = per_kind;
  o.table.seed = seed;
  auto r = datasets::GenerateDataset(o);
  EXPECT_TRUE(r.ok()) << r.error();
  return dir;
}

TEST(Appearance, DescriptorIgnoresRotation) {
  const cv::Mat token = datasets::RenderToken("orcs", 3.0, 0);
  auto patch = [&](double deg) {
    cv::Mat t = datasets::RenderToken("orcs", 3.0, deg), bgr(t.rows * 3 / 2, t.rows * 3 / 2, CV_8UC3, cv::Scalar(90, 140, 120));
    const cv::Rect at((bgr.cols - t.cols) / 2, (bgr.rows - t.rows) / 2, t.cols, t.rows);
    std::vector<cv::Mat> ch;
    cv::split(t, ch);
    cv::Mat rgb;
    cv::merge(std::vector<cv::Mat>{ch[0], ch[1], ch[2]}, rgb);
    rgb.copyTo(bgr(at), ch[3]);
    return bgr;
  };
  const auto a = DescribeToken(patch(0)), b = DescribeToken(patch(37)), c = DescribeToken(patch(90));
  double ab = 0, ac = 0, norm = 0;
  for (size_t i = 0; i < a.size(); ++i) ab += std::pow(a[i] - b[i], 2), ac += std::pow(a[i] - c[i], 2), norm += a[i] * a[i];
  EXPECT_LT(std::sqrt(ab / norm), 0.08);
  EXPECT_LT(std::sqrt(ac / norm), 0.08);
  (void)token;
}

TEST(Appearance, EnrollsFromCropsAndNamesTokensOfAnotherTable) {
  const fs::path train = Crops("train", 1, 5), test = Crops("test", 2, 2);
  auto model = EnrollFromCrops((train / "crops").string(), datasets::AllTokenKinds());
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->Kinds().size(), datasets::AllTokenKinds().size());
  double loo = 0;
  int n = 0;
  for (const auto& q : model->LeaveOneOut()) loo += q.loo_accuracy * q.samples, n += q.samples;
  loo /= n;
  int right = 0, total = 0;
  for (const auto& kind_dir : fs::directory_iterator(test / "crops")) {
    for (const auto& f : fs::directory_iterator(kind_dir.path())) {
      const auto c = model->Classify(DescribeToken(cv::imread(f.path().string())));
      right += c.kind == kind_dir.path().filename().string();
      ++total;
    }
  }
  const double cross = static_cast<double>(right) / total;
  std::printf("enrollment: leave-one-out %.3f over %d crops; another table %.3f (%d of %d); %zu look-alike pairs\n", loo, n, cross,
              right, total, model->LookAlikes().size());
  EXPECT_GT(loo, 0.88);
  EXPECT_GT(cross, 0.88);
  // The model survives its file.
  auto back = AppearanceModel::FromJson(nlohmann::json::parse(model->ToJson().dump()), "tokens/model.json");
  ASSERT_TRUE(back.ok()) << back.error();
  back->Finish();
  const auto d = DescribeToken(cv::imread((test / "crops" / "ratmen" / "00000.png").string()));
  EXPECT_EQ(back->Classify(d).kind, model->Classify(d).kind);
  fs::remove_all(train);
  fs::remove_all(test);
}

TEST(Appearance, BadCropFoldersAreNamed) {
  const fs::path dir = fs::temp_directory_path() / ("swref_badcrops_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_EQ(EnrollFromCrops(dir.string(), {}).error(), dir.string() + ": not a folder (expected DIR/<token kind>/*.png)");
  fs::create_directories(dir / "goblins");
  std::ofstream(dir / "goblins" / "a.png") << "x";
  EXPECT_NE(EnrollFromCrops(dir.string(), datasets::AllTokenKinds()).error().find("\"goblins\" is not a token kind"), std::string::npos);
  fs::remove_all(dir / "goblins");
  fs::create_directories(dir / "orcs");
  std::ofstream(dir / "orcs" / "a.png") << "not an image";
  EXPECT_EQ(EnrollFromCrops(dir.string(), {}).error(), (dir / "orcs" / "a.png").string() + ": cannot read the image");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace swref::calibration
