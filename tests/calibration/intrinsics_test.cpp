// Camera intrinsics and ArUco markers on real photographs (tests/data, OpenCV's own sample photos): accuracy
// against OpenCV's published results and gold corners, the per-view report, camera.json, and bad inputs.
#include "calibration/intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include "tests/test_images.h"
#include <opencv2/imgproc.hpp>

#include "calibration/markers.h"

namespace swref::calibration {
namespace {

namespace fs = std::filesystem;

const std::string kChess = std::string(SWREF_TEST_DATA_DIR) + "/opencv-chessboard-stereo/";
const std::string kAruco = std::string(SWREF_TEST_DATA_DIR) + "/opencv-aruco-charuco/";

std::vector<std::string> LeftSet() {
  std::vector<std::string> files;
  for (int i : {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14}) files.push_back(kChess + cv::format("left%02d.jpg", i));
  return files;
}

std::vector<std::string> CharucoSet() {
  return {kAruco + "img_00.jpg", kAruco + "img_01.jpg", kAruco + "img_02.jpg", kAruco + "img_03.jpg"};
}

// A fresh folder for files a test writes.
fs::path TempDir(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("swref_intrinsics_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The calibrations take seconds (the chessboard search): made once, shared by the tests that read them.
const engine::Result<CameraModel>& LeftModel() {
  static const engine::Result<CameraModel> model = CalibrateChessboard(LeftSet(), {9, 6}, 25);
  return model;
}

const engine::Result<CameraModel>& CharucoModel() {
  static const engine::Result<CameraModel> model = CalibrateCharuco(CharucoSet(), 5, 7, 40, 20, "DICT_6X6_250");
  return model;
}

void Print(const char* name, const CameraModel& m) {
  std::printf("%s: RMS %.4f px, fx %.2f fy %.2f (+-%.2f) cx %.2f cy %.2f, aspect %s, %d of %zu views\n", name, m.rms,
              m.fx(), m.fy(), m.sd[0], m.cx(), m.cy(), m.fixed_aspect ? "fixed" : "free", m.used_views(),
              m.views.size());
  for (const std::string& note : m.notes) std::printf("  %s\n", note.c_str());
}

TEST(CalibrateChessboard, OpenCvLeftSetMatchesOpenCvsResult) {
  const auto& model = LeftModel();
  ASSERT_TRUE(model.ok()) << model.error();
  Print("chessboard left set", *model);
  cv::FileStorage reference(kChess + "left_intrinsics.yml", cv::FileStorage::READ);
  cv::Mat K;
  reference["camera_matrix"] >> K;
  ASSERT_FALSE(K.empty());
  const double fx = K.at<double>(0, 0);  // 535.916, OpenCV's sample with FIX_ASPECT_RATIO
  EXPECT_LE(model->rms, 0.30);           // OpenCV's sample: 0.393 with findChessboardCorners
  EXPECT_LT(std::abs(model->fx() - fx) / fx, 0.01) << model->fx();
  EXPECT_LT(std::abs(model->cx() - K.at<double>(0, 2)), 5);
  EXPECT_LT(std::abs(model->cy() - K.at<double>(1, 2)), 5);
  EXPECT_EQ(model->image_size, cv::Size(640, 480));
  EXPECT_EQ(model->used_views(), 13);
  // The data show square pixels (fx and fy within 0.1 px of each other, +-0.8 px), so the rule fixes them.
  EXPECT_TRUE(model->fixed_aspect);
  EXPECT_DOUBLE_EQ(model->fx(), model->fy());
  ASSERT_EQ(model->dist.size(), 5u);
  EXPECT_LT(model->dist[0], 0);  // barrel distortion, as OpenCV finds (k1 -0.266)
}

TEST(CalibrateChessboard, FreeAndFixedAspectRatioAgreeOnTheLeftSet) {
  // What the kAuto rule relies on when it fixes fx = fy here: imposing it changes nothing the data can see.
  const auto& model = LeftModel();
  ASSERT_TRUE(model.ok()) << model.error();
  CalibrationOptions free;
  free.aspect = AspectRatio::kFree;
  auto loose = CalibrateChessboard(LeftSet(), {9, 6}, 25, free);
  ASSERT_TRUE(loose.ok()) << loose.error();
  std::printf("chessboard free: RMS %.4f, fx %.2f fy %.2f; fixed: RMS %.4f, fx = fy %.2f\n", loose->rms, loose->fx(),
              loose->fy(), model->rms, model->fx());
  EXPECT_FALSE(loose->fixed_aspect);
  EXPECT_NEAR(loose->rms, model->rms, 1e-3);
  EXPECT_NEAR(loose->fx(), model->fx(), 0.5);
  EXPECT_NEAR(loose->fy(), model->fy(), 0.5);
}

TEST(CalibrateChessboard, ReportsEveryViewsError) {
  const auto& model = LeftModel();
  ASSERT_TRUE(model.ok()) << model.error();
  double squares = 0;
  int corners = 0;
  for (const ViewReport& v : model->views) {
    ASSERT_TRUE(v.used) << v.file << ": " << v.reason;
    ASSERT_TRUE(v.error_px.has_value()) << v.file;
    std::printf("  %s %.3f px, %d corners\n", fs::path(v.file).filename().c_str(), *v.error_px, v.corners);
    EXPECT_GT(*v.error_px, 0);
    EXPECT_LT(*v.error_px, 0.5);
    EXPECT_EQ(v.corners, 54);
    EXPECT_TRUE(v.reason.empty());
    squares += *v.error_px * *v.error_px * v.corners;
    corners += v.corners;
  }
  // The overall RMS is the per-view errors pooled over every corner.
  EXPECT_NEAR(std::sqrt(squares / corners), model->rms, 1e-6);
}

TEST(CalibrateCharuco, TutorialPhotosMatchOpenCvsResult) {
  const auto& model = CharucoModel();
  ASSERT_TRUE(model.ok()) << model.error();
  Print("ChArUco img_00..03", *model);
  constexpr double kOpenCvFx = 452.51;  // tutorial_camera_charuco.yml (tests/data/opencv-aruco-charuco/README.md)
  EXPECT_LE(model->rms, 0.25);
  EXPECT_LT(std::abs(model->fx() - kOpenCvFx) / kOpenCvFx, 0.02) << model->fx();
  ASSERT_EQ(model->views.size(), 4u);
  const int expected_corners[] = {24, 24, 22, 24};  // what OpenCV 4.6 finds
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(model->views[i].used) << model->views[i].reason;
    EXPECT_EQ(model->views[i].corners, expected_corners[i]) << model->views[i].file;
    EXPECT_TRUE(model->views[i].error_px.has_value());
  }
}

TEST(CalibrateCharuco, KeepsTheAspectRatioFreeWhenTheDataCannotTell) {
  const auto& model = CharucoModel();
  ASSERT_TRUE(model.ok()) << model.error();
  // Four photos measure fx only to about +-23 px: fixing fx = fy would move fx by 8 px on an unchecked assumption.
  EXPECT_FALSE(model->fixed_aspect);
  EXPECT_GT(model->sd[0] / model->fx(), 0.01);
  ASSERT_FALSE(model->notes.empty());
  EXPECT_NE(model->notes[0].find("left free"), std::string::npos) << model->notes[0];
  CalibrationOptions fixed;
  fixed.aspect = AspectRatio::kFixed;
  auto forced = CalibrateCharuco(CharucoSet(), 5, 7, 40, 20, "DICT_6X6_250", fixed);
  ASSERT_TRUE(forced.ok()) << forced.error();
  std::printf("ChArUco with fx = fy imposed: RMS %.4f, fx %.2f (free: RMS %.4f, fx %.2f fy %.2f)\n", forced->rms,
              forced->fx(), model->rms, model->fx(), model->fy());
  EXPECT_TRUE(forced->fixed_aspect);
  EXPECT_DOUBLE_EQ(forced->fx(), forced->fy());
  EXPECT_GE(forced->rms, model->rms - 1e-9);  // one parameter less cannot fit better
}

TEST(CalibrateCharuco, DropsViewsWithTooFewCornersOrNoBoard) {
  CalibrationOptions options;
  options.min_charuco_corners = 20;
  int calls = 0;
  options.progress = [&](int done, int total) {
    ++calls;
    EXPECT_EQ(done, calls);
    EXPECT_EQ(total, 6);
  };
  std::vector<std::string> files = CharucoSet();
  files.push_back(kAruco + "chocclusion_original.jpg");  // the board partly covered: 16 corners
  files.push_back(kChess + "left01.jpg");                // a chessboard, no marker
  auto model = CalibrateCharuco(files, 5, 7, 40, 20, "DICT_6X6_250", options);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(model->used_views(), 4);
  EXPECT_FALSE(model->views[4].used);
  EXPECT_EQ(model->views[4].reason, "only 16 of 24 ChArUco corners (need 20)");
  EXPECT_FALSE(model->views[5].used);
  EXPECT_EQ(model->views[5].reason, "no marker of the ChArUco board found (DICT_6X6_250)");
  EXPECT_FALSE(model->views[5].error_px.has_value());
}

TEST(CalibrateCharuco, RejectsBadBoards) {
  auto unknown = CalibrateCharuco(CharucoSet(), 5, 7, 40, 20, "DICT_9X9_1");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("unknown ArUco dictionary \"DICT_9X9_1\""), std::string::npos) << unknown.error();
  auto marker = CalibrateCharuco(CharucoSet(), 5, 7, 40, 45, "DICT_6X6_250");
  ASSERT_FALSE(marker.ok());
  EXPECT_NE(marker.error().find("smaller than the square"), std::string::npos) << marker.error();
  auto small_dictionary = CalibrateCharuco(CharucoSet(), 12, 12, 40, 20, "DICT_4X4_50");
  ASSERT_FALSE(small_dictionary.ok());
  EXPECT_EQ(small_dictionary.error(), "dictionary DICT_4X4_50 has 50 markers; a 12x12 ChArUco board needs 72");
}

TEST(CalibrateChessboard, TooFewViewsNamesTheOnesFound) {
  auto model = CalibrateChessboard({kChess + "left01.jpg", kChess + "left02.jpg"}, {9, 6}, 25);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.error(),
            "need at least 3 views with the chessboard found; found it in 2 of 2: left01.jpg, left02.jpg");
}

TEST(CalibrateChessboard, DropsAPhotoWithoutTheBoard) {
  const std::vector<std::string> files = {kChess + "left01.jpg", kAruco + "gboriginal.png", kChess + "left03.jpg",
                                          kChess + "left04.jpg", kChess + "left06.jpg"};
  auto model = CalibrateChessboard(files, {9, 6}, 25);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->used_views(), 4);
  EXPECT_FALSE(model->views[1].used);
  EXPECT_EQ(model->views[1].reason, "no chessboard of 9x6 inner corners found");
  EXPECT_FALSE(model->views[1].error_px.has_value());

  // Without enough other photos, the error names the ones where the board was found.
  auto few = CalibrateChessboard({files[0], files[1], files[2]}, {9, 6}, 25);
  ASSERT_FALSE(few.ok());
  EXPECT_EQ(few.error(), "need at least 3 views with the chessboard found; found it in 2 of 3: left01.jpg, left03.jpg");
}

TEST(CalibrateChessboard, UnreadableOrMissingFileIsAnErrorNamingIt) {
  const fs::path dir = TempDir("unreadable");
  const std::string fake = (dir / "notes.jpg").string();
  std::ofstream(fake) << "this is not a JPEG";
  auto model = CalibrateChessboard({kChess + "left01.jpg", fake, kChess + "left03.jpg"}, {9, 6}, 25);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().find(fake), std::string::npos) << model.error();
  auto missing = CalibrateChessboard({kChess + "left01.jpg", kChess + "left10.jpg"}, {9, 6}, 25);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), kChess + "left10.jpg: no such file");
  auto pattern = CalibrateChessboard(LeftSet(), {2, 6}, 25);
  ASSERT_FALSE(pattern.ok());
  EXPECT_EQ(pattern.error(), "chessboard 2x6: expected at least 3x3 inner corners");
}

TEST(CalibrateChessboard, DropsAPhotoOfAnotherSize) {
  const fs::path dir = TempDir("sizes");
  cv::Mat big;
  cv::resize(swref::test::LoadImage(kChess + "left05.jpg"), big, {800, 600});
  swref::test::SaveImage((dir / "left05_800.png").string(), big);
  auto model = CalibrateChessboard(
      {kChess + "left01.jpg", kChess + "left03.jpg", (dir / "left05_800.png").string(), kChess + "left06.jpg"}, {9, 6},
      25);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->image_size, cv::Size(640, 480));
  EXPECT_FALSE(model->views[2].used);
  EXPECT_EQ(model->views[2].reason, "image size 800x600 differs from 640x480 (most photos)");
}

TEST(CalibrateChessboard, DropsAnOutlierViewAndCalibratesAgain) {
  // A photo whose board is bent by a ripple of 3 px: no camera and pose explain it, so its error stands out.
  // (Shorter or stronger ripples and findChessboardCornersSB no longer finds the board.)
  const fs::path dir = TempDir("outlier");
  const cv::Mat photo = swref::test::LoadImage(kChess + "left09.jpg", calibration::ImageRead::kGray);
  cv::Mat map_x(photo.size(), CV_32F), map_y(photo.size(), CV_32F);
  for (int y = 0; y < photo.rows; ++y)
    for (int x = 0; x < photo.cols; ++x) {
      map_x.at<float>(y, x) = static_cast<float>(x + 3 * std::sin(2 * CV_PI * y / 250));
      map_y.at<float>(y, x) = static_cast<float>(y + 3 * std::sin(2 * CV_PI * x / 250));
    }
  cv::Mat bent;
  cv::remap(photo, bent, map_x, map_y, cv::INTER_CUBIC);
  const std::string bent_file = (dir / "left09_bent.png").string();
  swref::test::SaveImage(bent_file, bent);
  const std::vector<std::string> files = {
      kChess + "left01.jpg", kChess + "left03.jpg", kChess + "left06.jpg", kChess + "left12.jpg", bent_file,
      kChess + "left13.jpg"};
  auto model = CalibrateChessboard(files, {9, 6}, 25);
  ASSERT_TRUE(model.ok()) << model.error();
  Print("with a bent photo", *model);
  const ViewReport& v = model->views[4];
  ASSERT_TRUE(v.error_px.has_value()) << v.reason;
  EXPECT_FALSE(v.used);
  EXPECT_GT(*v.error_px, 1.0);
  EXPECT_EQ(v.reason.rfind("per-view error ", 0), 0u) << v.reason;
  EXPECT_NE(v.reason.find("> 3x median"), std::string::npos) << v.reason;
  EXPECT_EQ(model->used_views(), 5);
  EXPECT_LE(model->rms, 0.30);
}

TEST(CalibrateChessboard, LargePhotosAreSearchedSmallAndRefinedFull) {
  // The left set at twice its size, searched at half size (detect_max_side 1000) then refined at full size.
  const fs::path dir = TempDir("large");
  std::vector<std::string> files;
  for (int i : {1, 3, 4, 6, 8, 9, 12, 14}) {
    cv::Mat big;
    cv::resize(swref::test::LoadImage(kChess + cv::format("left%02d.jpg", i), calibration::ImageRead::kGray), big, {}, 2, 2,
               cv::INTER_CUBIC);
    files.push_back((dir / cv::format("left%02d_x2.png", i)).string());
    swref::test::SaveImage(files.back(), big);
  }
  CalibrationOptions options;
  options.detect_max_side = 1000;
  auto model = CalibrateChessboard(files, {9, 6}, 25, options);
  ASSERT_TRUE(model.ok()) << model.error();
  Print("left set at 1280x960", *model);
  EXPECT_EQ(model->used_views(), 8);
  EXPECT_LT(std::abs(model->fx() / 2 - 535.9) / 535.9, 0.01);
  EXPECT_LE(model->rms, 0.60);  // 0.30 px at the original size
}

TEST(CameraFile, RoundTrip) {
  const auto& model = LeftModel();
  ASSERT_TRUE(model.ok()) << model.error();
  const std::string path = (TempDir("json") / "camera.json").string();
  ASSERT_EQ(WriteCameraFile(*model, path), "");
  auto again = ReadCameraFile(path);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->image_size, model->image_size);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_DOUBLE_EQ(again->K(r, c), model->K(r, c));
  EXPECT_EQ(again->dist, model->dist);
  EXPECT_DOUBLE_EQ(again->rms, model->rms);
  EXPECT_EQ(again->fixed_aspect, model->fixed_aspect);
  EXPECT_EQ(again->sd, model->sd);
  ASSERT_EQ(again->views.size(), model->views.size());
  for (size_t i = 0; i < model->views.size(); ++i) {
    EXPECT_EQ(again->views[i].file, model->views[i].file);
    EXPECT_EQ(again->views[i].used, model->views[i].used);
    EXPECT_EQ(again->views[i].error_px, model->views[i].error_px);
    EXPECT_EQ(again->views[i].corners, model->views[i].corners);
    EXPECT_EQ(again->views[i].reason, model->views[i].reason);
  }
  EXPECT_EQ(ToJson(*again), ToJson(*model));
}

TEST(CameraFile, ErrorsNameTheFileAndField) {
  const nlohmann::json good =
      nlohmann::json::parse(R"({"format": "swref-camera/1", "image_size": [640, 480], "fx": 500, "fy": 500,
      "cx": 320, "cy": 240, "dist": [0, 0, 0, 0, 0], "rms": 0.2,
      "views": [{"file": "a.jpg", "used": false, "error_px": null,
                 "reason": "no chessboard of 9x6 inner corners found"}]})");
  auto ok = ParseCamera(good, "camera.json");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_FALSE(ok->views[0].error_px.has_value());
  EXPECT_EQ(ok->sd, cv::Vec4d());
  struct Case {
    std::string pointer;
    nlohmann::json value;
    std::string error;
  };
  const Case cases[] = {
      {"/format", "swref-camera/2", "camera.json.format: expected \"swref-camera/1\""},
      {"/format", 1, "camera.json.format: expected \"swref-camera/1\""},
      {"/image_size", {640}, "camera.json.image_size: expected [width, height] in px, 1..8192 each"},
      // An image size beyond int was cast to int: 4294967297 became 1.
      {"/image_size/0", 4294967297LL, "camera.json.image_size: expected [width, height] in px, 1..8192 each"},
      {"/image_size/1", 8193, "camera.json.image_size: expected [width, height] in px, 1..8192 each"},
      {"/fx", -3, "camera.json.fx: expected a positive number"},
      {"/cy", "240", "camera.json.cy: expected a number"},
      {"/dist", {0, 0, 0, 0}, "camera.json.dist: expected [k1, k2, p1, p2, k3]"},
      {"/dist/2", nullptr, "camera.json.dist[2]: expected a number"},
      {"/rms", -1, "camera.json.rms: expected a number >= 0"},
      {"/aspect_ratio", "square", "camera.json.aspect_ratio: expected \"fixed\" or \"free\""},
      {"/views/0/used", "yes", "camera.json.views[0].used: expected true or false"},
      {"/views/0/error_px", "big", "camera.json.views[0].error_px: expected a number >= 0 or null"},
  };
  for (const Case& c : cases) {
    nlohmann::json doc = good;
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    auto r = ParseCamera(doc, "camera.json");
    ASSERT_FALSE(r.ok()) << c.pointer;
    EXPECT_EQ(r.error(), c.error);
  }
  auto missing = ReadCameraFile("/nonexistent/camera.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "/nonexistent/camera.json: cannot open the camera file (no such file)");
}

// ---- Markers --------------------------------------------------------------------------------------------------

TEST(DetectMarkers, MatchesOpenCvsGoldIdsAndCorners) {
  cv::FileStorage gold(kAruco + "expected_gold.yml", cv::FileStorage::READ);
  ASSERT_TRUE(gold.isOpened());
  double worst = 0;
  for (const char* key : {"singlemarkersoriginal", "gboriginal", "choriginal", "chocclusion"}) {
    const cv::FileNode entry = gold[key];
    const std::string dictionary_name = entry["dictionary"];
    // gboriginal uses a custom dictionary: the tutorial's file, which gives no maxCorrectionBits (OpenCV reads 0).
    auto dictionary = dictionary_name.rfind("DICT_", 0) == 0 ? DictionaryByName(dictionary_name)
                                                             : ReadDictionaryFile(kAruco + dictionary_name);
    ASSERT_TRUE(dictionary.ok()) << dictionary.error();
    std::vector<int> ids;
    entry["ids"] >> ids;
    ASSERT_EQ(static_cast<int>(ids.size()), static_cast<int>(entry["count"]));
    std::vector<std::vector<float>> corners;
    for (const cv::FileNode corner : entry["corners"]) {
      std::vector<float> xy;
      corner >> xy;
      ASSERT_EQ(xy.size(), 8u);
      corners.push_back(xy);
    }
    const cv::Mat image = swref::test::LoadImage(kAruco + std::string(entry["image"]));
    ASSERT_FALSE(image.empty()) << key;
    const std::vector<Marker> found = DetectMarkers(image, *dictionary);
    ASSERT_EQ(found.size(), ids.size()) << key;
    double key_worst = 0;
    for (size_t g = 0; g < ids.size(); ++g) {
      const auto it = std::find_if(found.begin(), found.end(), [&](const Marker& m) { return m.id == ids[g]; });
      ASSERT_NE(it, found.end()) << key << ": marker " << ids[g] << " not found";
      for (int k = 0; k < 4; ++k) {
        // Per coordinate, as OpenCV's tests compare.
        const double dx = std::abs(it->corners[k].x - corners[g][2 * k]),
                     dy = std::abs(it->corners[k].y - corners[g][2 * k + 1]);
        key_worst = std::max({key_worst, dx, dy});
      }
    }
    std::printf("%s: %zu markers, worst corner coordinate %.3f px from OpenCV's gold\n", key, found.size(), key_worst);
    EXPECT_LE(key_worst, 1.0) << key;
    worst = std::max(worst, key_worst);
  }
  std::printf("markers: worst %.3f px over the 4 photos\n", worst);
}

TEST(Dictionaries, ByNameAndFromFile) {
  auto d = DictionaryByName("DICT_4X4_50");
  ASSERT_TRUE(d.ok()) << d.error();
  EXPECT_EQ((*d)->bytesList.rows, 50);
  EXPECT_EQ((*d)->markerSize, 4);
  auto unknown = DictionaryByName("DICT_4x4_50");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().rfind("unknown ArUco dictionary \"DICT_4x4_50\" (known: DICT_4X4_50", 0), 0u)
      << unknown.error();

  auto custom = LoadDictionary(kAruco + "tutorial_dict.yml");
  ASSERT_TRUE(custom.ok()) << custom.error();
  EXPECT_EQ((*custom)->bytesList.rows, 35);
  EXPECT_EQ((*custom)->markerSize, 6);
  EXPECT_EQ((*custom)->maxCorrectionBits, 0);

  const fs::path dir = TempDir("dict");
  std::ofstream((dir / "short.yml").string())
      << "%YAML:1.0\nnmarkers: 2\nmarkersize: 4\nmarker_0: \"0101010101010101\"\nmarker_1: \"0101\"\n";
  auto bad = ReadDictionaryFile((dir / "short.yml").string());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), (dir / "short.yml").string() + ".marker_1: expected a string of 16 bits (0 or 1)");
  auto missing = ReadDictionaryFile((dir / "none.yml").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), (dir / "none.yml").string() + ": cannot open the dictionary file (no such file)");
  std::ofstream((dir / "empty.yml").string());
  auto empty = ReadDictionaryFile((dir / "empty.yml").string());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), (dir / "empty.yml").string() + ": not an OpenCV YAML/XML/JSON file (it is empty)");
}

}  // namespace
}  // namespace swref::calibration
