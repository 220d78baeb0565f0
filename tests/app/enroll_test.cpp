// `swref enroll` end to end on a generated table: the token model made from the two photos of the printed
// enrollment mat (datasets/mat_photo.h) against the one made from the dataset's crops, each then used by the
// observer on the dataset's game photos; the mat's bad inputs; the look-alike warnings.
#include "app/core/setup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "tests/test_images.h"

#include "app/core/observe.h"
#include "calibration/mat.h"
#include "datasets/dataset.h"
#include "datasets/mat_photo.h"
#include "datasets/token_art.h"

namespace swref::core {
namespace {

namespace fs = std::filesystem;

// One generated 2-player table (its game photos, reference, crops and mat photos) and a setup folder per use.
class Enroll : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("swref_enroll_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    datasets::DatasetOptions o;
    o.out = (root_ / "ds").string();
    o.scenes = 8;
    o.crops_per_kind = 5;
    o.motion_rate = 0;
    o.table.seed = 5;
    auto made = datasets::GenerateDataset(o);
    ASSERT_TRUE(made.ok()) << made.error();
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static fs::path Dataset() { return root_ / "ds"; }

  // A new setup folder for the dataset's table (its layout, reference photo and camera).
  static std::string NewSetup(const std::string& name) {
    calibration::SetupRequest q;
    q.map = "2p";
    q.layout = (Dataset() / "layout.json").string();
    q.reference = (Dataset() / "reference.png").string();
    q.camera = (Dataset() / "camera.json").string();
    q.out = (root_ / name).string();
    auto s = core::SetupBoard(q);
    EXPECT_TRUE(s.ok()) << s.error();
    return q.out;
  }

  static inline fs::path root_;
};

double MeanQuality(const EnrollReport& r, int* compared) {
  double sum = 0;
  int n = 0;
  for (const auto& k : r.kinds) {
    if (!k.compared) continue;  // a single photo cannot be left out
    sum += k.loo_accuracy * k.compared, n += k.compared;
  }
  *compared = n;
  return n ? sum / n : 0;
}

TEST_F(Enroll, FromTheMatPhotosNamesTheTokensAboutAsWellAsFromCrops) {
  const std::string mat_setup = NewSetup("mat"), crops_setup = NewSetup("crops");
  auto mat = EnrollFromMat(mat_setup, {(Dataset() / "mat_front.jpg").string()}, {(Dataset() / "mat_flipped.jpg").string()}, "a4");
  ASSERT_TRUE(mat.ok()) << mat.error();
  auto crops = EnrollFromCrops(crops_setup, (Dataset() / "crops").string());
  ASSERT_TRUE(crops.ok()) << crops.error();

  // Every kind is enrolled, each with its quality; the mat gives one photo of each race side and two of the lost
  // tribe and of each piece (they lie in both photos): only those two can be left out to measure it.
  EXPECT_TRUE(mat->missing_kinds.empty());
  ASSERT_EQ(mat->kinds.size(), datasets::AllTokenKinds().size());
  EXPECT_EQ(mat->samples, 22 + 22);
  std::map<std::string, int> photos;  // per kind: the photos that show it
  for (const calibration::MatCell& cell : calibration::Mat().cells) ++photos[cell.kind], ++photos[cell.flipped_kind];
  for (const auto& k : mat->kinds) {
    EXPECT_EQ(k.samples, photos[k.kind]) << k.kind;
    EXPECT_EQ(k.compared, photos[k.kind] > 1 ? photos[k.kind] : 0) << k.kind;  // one photo: nothing to leave out
    EXPECT_GE(k.loo_accuracy, 0) << k.kind;
    EXPECT_LE(k.loo_accuracy, 1) << k.kind;
  }
  EXPECT_TRUE(fs::exists(mat->model_path));
  int mat_compared = 0, crops_compared = 0;
  const double mat_loo = MeanQuality(*mat, &mat_compared), crops_loo = MeanQuality(*crops, &crops_compared);

  // Each model in the observer, over the dataset's game photos.
  auto with_mat = EvaluateWithObserver(mat_setup, Dataset().string(), "", nullptr);
  ASSERT_TRUE(with_mat.ok()) << with_mat.error();
  auto with_crops = EvaluateWithObserver(crops_setup, Dataset().string(), "", nullptr);
  ASSERT_TRUE(with_crops.ok()) << with_crops.error();
  std::printf(
      "enroll from the mat: %d photos, leave-one-out %.3f over the %d with a second photo, %zu look-alike pairs; "
      "tokens named right %.3f (%d of %d), region error %.3f, boards exact %.3f\n",
      mat->samples, mat_loo, mat_compared, mat->look_alikes.size(), with_mat->token.kind_accuracy(), with_mat->token.kind_right,
      with_mat->token.tokens, with_mat->region_error_rate(), with_mat->exact_rate());
  std::printf(
      "enroll from crops:   %d crops, leave-one-out %.3f over %d, %zu look-alike pairs; "
      "tokens named right %.3f (%d of %d), region error %.3f, boards exact %.3f\n",
      crops->samples, crops_loo, crops_compared, crops->look_alikes.size(), with_crops->token.kind_accuracy(), with_crops->token.kind_right,
      with_crops->token.tokens, with_crops->region_error_rate(), with_crops->exact_rate());
  EXPECT_LE(mat->look_alikes.size(), 2u);  // a clean enrollment: none or few
  EXPECT_LE(crops->look_alikes.size(), 2u);
  ASSERT_GT(with_crops->token.tokens, 50);
  EXPECT_GE(with_mat->token.kind_accuracy(), with_crops->token.kind_accuracy() - 0.03);
  EXPECT_LE(with_mat->region_error_rate(), with_crops->region_error_rate() + 0.03);
}

// A mat photo with an empty cell is refused by enroll itself, naming the photo and the cell.
TEST_F(Enroll, AMatPhotoWithAnEmptyCellIsNamed) {
  const std::string setup = NewSetup("missing");
  datasets::MatPhotoOptions o;
  o.empty_cells = {"sorcerers", "hero"};
  o.seed = 9;
  auto shot = datasets::RenderMatPhoto(o);
  ASSERT_TRUE(shot.ok()) << shot.error();
  const std::string photo = (root_ / "missing.jpg").string();
  ASSERT_TRUE(swref::test::SaveImage(photo, shot->image));
  auto r = EnrollFromMat(setup, {photo}, {(Dataset() / "mat_flipped.jpg").string()}, "a4");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "mat photo " + photo + ": cell 'sorcerers' is empty (and 1 more)");
  EXPECT_FALSE(fs::exists(fs::path(setup) / "tokens" / "model.json"));
  // The flipped photo is checked the same way.
  r = EnrollFromMat(setup, {(Dataset() / "mat_front.jpg").string()}, {photo}, "a4");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "mat photo " + photo + ": cell 'sorcerers' is empty (and 1 more)");
}

// The advice on off-centre kinds, as `swref enroll` and the GUI's wizard both show it: each such kind by the name
// the caller gives it, with its distance; nothing when every kind is centred.
TEST(OffCentreAdvice, NamesEachOffCentreKindWithItsDistance) {
  EnrollReport report;
  report.kinds.resize(3);
  report.kinds[0].kind = "orcs";
  report.kinds[1].kind = "elves", report.kinds[1].off_centre_mm = 4.26;
  report.kinds[2].kind = "dragon", report.kinds[2].off_centre_mm = 5;
  auto upper = [](const std::string& kind) {
    std::string s = kind;
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
  };
  EXPECT_EQ(OffCentreAdvice(report, upper, ", "),
            "Off-centre, check their photos (one washed out or cluttered, or crops not cut around the token): "
            "ELVES (4.3 mm), DRAGON (5.0 mm)");
  report.kinds[1].off_centre_mm = report.kinds[2].off_centre_mm = 0;
  EXPECT_EQ(OffCentreAdvice(report, upper, ", "), "");
}

}  // namespace
// The advice on kinds whose outline measured far from their other side's (the other side's size stood in), as
// `swref enroll` and the GUI's wizard both show it; nothing when there are none.
TEST(OtherSideAdvice, NamesEachKindWithItsShare) {
  EnrollReport report;
  report.kinds.resize(2);
  report.kinds[0].kind = "tritons";
  report.kinds[1].kind = "tritons_decline", report.kinds[1].outline_from_other_side = 0.404;
  EXPECT_EQ(OtherSideAdvice(report, [](const std::string& kind) { return kind; }, ", "),
            "Outline unlike its other side's, whose size stands in; check their photos (a side that hardly differs from "
            "the ground it lay on, or one whose ground was taken in): tritons_decline (40 % of its other side)");
  report.kinds[1].outline_from_other_side = 0;
  EXPECT_EQ(OtherSideAdvice(report, [](const std::string& kind) { return kind; }, ", "), "");
}

}  // namespace swref::core
