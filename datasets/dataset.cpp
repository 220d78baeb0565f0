#include "datasets/dataset.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "calibration/intrinsics.h"
#include "datasets/board_art.h"
#include "datasets/layout_gen.h"
#include "datasets/mat_photo.h"
#include "datasets/token_art.h"
#include "engine/builtin_maps.h"
#include "engine/components.h"
#include "engine/random_game.h"

namespace swref::datasets {
namespace fs = std::filesystem;

uint64_t DeriveSeed(uint64_t seed, uint64_t stream, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + stream * 0xBF58476D1CE4E5B9ULL + index * 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace {

uint64_t SubSeed(uint64_t seed, uint64_t stream, uint64_t index) { return DeriveSeed(seed, stream, index); }

enum Stream : uint64_t {
  kLayoutStream = 1,
  kArtStream,
  kTableStream,
  kReferenceStream,
  kCropStream,
  kGameStream,
  kSceneStream,
  kLensStream,
  kMatStream
};

std::string Numbered(const char* prefix, int i, const char* ext) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%05d%s", prefix, i, ext);
  return buf;
}

template <typename T>
engine::Result<T> WriteError(const fs::path& path, const std::string& what) {
  return engine::Result<T>::Error(path.string() + ": " + what);
}

bool WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

nlohmann::ordered_json PointsJson(const std::vector<cv::Point2d>& pts) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& p : pts) a.push_back({std::round(p.x * 100) / 100, std::round(p.y * 100) / 100});
  return a;
}

}  // namespace

nlohmann::ordered_json FrameJson(const std::string& image, const CameraShot& shot, const calibration::Layout& layout) {
  nlohmann::ordered_json j;
  j["image"] = image;
  const cv::Size2d b = layout.board_mm;
  j["board_corners_px"] = PointsJson(ProjectBoardPoints(shot, b, {{0, 0}, {b.width, 0}, {b.width, b.height}, {0, b.height}}));
  const cv::Matx33d h = ImageFromBoard(shot, b);
  j["image_from_board"] = nlohmann::ordered_json::array();
  for (int r = 0; r < 3; ++r) j["image_from_board"].push_back({h(r, 0), h(r, 1), h(r, 2)});
  if (layout.markers) {
    const double s = layout.markers->size_mm;
    for (const auto& [id, c] : layout.markers->corners) {
      j["markers_px"][std::to_string(id)] =
          PointsJson(ProjectBoardPoints(shot, b, {c, {c.x + s, c.y}, {c.x + s, c.y + s}, {c.x, c.y + s}}));
    }
  }
  j["tilt_deg"] = std::round(shot.pose.tilt_deg * 100) / 100;
  j["roll_deg"] = std::round(shot.pose.roll_deg * 100) / 100;
  j["k1"] = shot.pose.k1;
  j["kelvin"] = std::round(shot.light.kelvin);
  j["ev"] = std::round(shot.light.ev * 100) / 100;
  j["glare"] = shot.light.glare.size();
  j["arms"] = shot.arms.size();
  j["bump_mm"] = {shot.bump.shift_mm.x, shot.bump.shift_mm.y};
  j["bump_deg"] = shot.bump.rotation_deg;
  return j;
}

nlohmann::ordered_json TokensJson(const Scene& scene) {
  nlohmann::ordered_json tokens = nlohmann::ordered_json::array();
  for (const Placement& p : scene.placements) {
    tokens.push_back({{"kind", p.kind},
                      {"region", p.region},
                      {"x_mm", std::round(p.centre_mm.x * 100) / 100},
                      {"y_mm", std::round(p.centre_mm.y * 100) / 100},
                      {"rotation_deg", p.rotation_deg},
                      {"stack", p.stack}});
  }
  return tokens;
}

namespace {

double MedianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Game states to photograph: boards after random actions of seeded random games, spread over several games.
engine::Result<std::vector<engine::Board>> SampleBoards(const std::shared_ptr<const engine::Map>& map, int count, uint64_t seed) {
  std::vector<engine::Board> states;
  const int games = std::max(1, (count + 29) / 30);
  for (int g = 0; g < games; ++g) {
    std::vector<engine::Board> all;
    auto game = engine::PlayRandomGame(map, SubSeed(seed, kGameStream, g),
                                       [&](const engine::Game& state, const engine::Action&) { all.push_back(state.board()); });
    if (!game) return engine::Result<std::vector<engine::Board>>::Error("random game for the scenes: " + game.error());
    const int want = count * (g + 1) / games - count * g / games;
    cv::RNG rng(SubSeed(seed, kGameStream, 1000 + g));
    for (int i = 0; i < want && !all.empty(); ++i) states.push_back(all[rng.uniform(0, static_cast<int>(all.size()))]);
  }
  return states;
}

}  // namespace

engine::Board SetupBoard(const engine::Map& map) {
  engine::Board board(map.regions.size());
  for (const engine::Region& r : map.regions) {
    board[r.id].lost_tribe = r.lost_tribe ? 1 : 0;
    board[r.id].mountain = r.HasMountain() ? 1 : 0;
  }
  return board;
}

engine::Result<std::unique_ptr<SyntheticTable>> MakeSyntheticTable(const TableOptions& options) {
  using R = engine::Result<std::unique_ptr<SyntheticTable>>;
  auto map = engine::LoadMap(options.map, fs::current_path());
  if (!map) return R::Error(map.error());
  auto table = std::make_unique<SyntheticTable>();
  table->map = *map;
  LayoutOptions lo;
  lo.seed = SubSeed(options.seed, kLayoutStream, 0);
  auto layout = GenerateLayout(**map, lo);
  if (!layout) return R::Error("layout for map " + options.map + ": " + layout.error());
  table->layout = std::move(*layout);
  table->layout.map = (*map)->key;
  if (options.markers) AddCornerMarkers(table->layout);
  table->grid = std::make_unique<PlacementGrid>(table->layout);
  BoardArtOptions art;
  art.px_per_mm = options.px_per_mm;
  art.seed = SubSeed(options.seed, kArtStream, 0);
  table->board_art = RenderBoard(**map, table->layout, art);
  const cv::Size2d world_mm(table->layout.board_mm.width + 2 * options.margin_mm,
                            table->layout.board_mm.height + 2 * options.margin_mm);
  const uint64_t table_seed = SubSeed(options.seed, kTableStream, 0);
  const auto kind = static_cast<TableKind>(table_seed % 5);
  const cv::Mat table_art = RenderTable(cv::Size(cvRound(world_mm.width * options.px_per_mm), cvRound(world_mm.height * options.px_per_mm)),
                                        options.px_per_mm, kind, table_seed);
  table->empty = MakeEmptyWorld(table->board_art, table->layout.board_mm, options.px_per_mm, table_art, options.margin_mm);
  return table;
}

cv::Mat RenderScene(const SyntheticTable& table, const engine::Board& board, const SceneOptions& scene_options,
                    const CameraShot& shot, Scene* scene_out) {
  Scene scene = PlaceBoard(board, *table.grid, scene_options);
  const cv::Point3d camera = CameraOverBoard(shot, table.layout.board_mm);
  const World world = ComposeWorld(table.empty, scene, shot.light, &camera);
  cv::Mat frame = RenderFrame(world, shot);
  if (scene_out) *scene_out = std::move(scene);
  return frame;
}

int SetupMaterialSteps(const SetupMaterialOptions& options) {
  // 1 for the reference, 1 for the mat photos, then one per round of 12 crops.
  return 1 + (options.mat_photos ? 1 : 0) +
         (options.crops_per_kind > 0 ? (static_cast<int>(AllTokenKinds().size()) * options.crops_per_kind + 11) / 12 : 0);
}

engine::Result<int> WriteSetupMaterial(const SyntheticTable& table, const SetupMaterialOptions& options,
                                       const ProgressFn& progress) {
  const fs::path out(options.out);
  std::error_code ec;
  const cv::Size2d board_mm = table.layout.board_mm;

  // The map and the layout, as the setup reads them.
  calibration::Layout layout = table.layout;
  if (const char* text = engine::BuiltinMapText(options.map)) {
    if (!WriteText(out / "map.json", text)) return WriteError<int>(out / "map.json", "cannot write");
  } else {
    fs::copy_file(options.map, out / "map.json", ec);
    if (ec) return WriteError<int>(out / "map.json", "cannot copy the map file: " + ec.message());
    layout.map = "map.json";
  }
  if (!WriteText(out / "layout.json", ToJson(layout).dump(1) + "\n")) return WriteError<int>(out / "layout.json", "cannot write");

  const int steps = SetupMaterialSteps(options);
  const int crop_rounds = steps - 1 - (options.mat_photos ? 1 : 0);
  int done = 0;
  auto advance = [&] {
    if (progress) progress(++done, steps);
  };

  // The empty board's reference photo: the setup's pieces absent, as ARCHITECTURE's setup folder asks.
  {
    CameraShot shot = options.reference_shot;
    shot.sensor.jpeg_quality = 0;
    const cv::Mat ref = RenderFrame(table.empty, shot);
    if (auto w = calibration::WriteImageFile((out / "reference.png").string(), ref); !w) return engine::Result<int>::Error(w.error());
    std::ofstream f(out / "reference.json");
    f << FrameJson("reference.png", shot, table.layout).dump() << "\n";
    advance();
  }

  // The enrollment mat, photographed on each side by the table camera under the reference's light (JPEG files, as
  // a camera writes them).
  if (options.mat_photos) {
    for (const bool flipped : {false, true}) {
      MatPhotoOptions mat;
      mat.flipped = flipped;
      mat.frame = options.frame;
      mat.ranges.lens = options.lens;
      mat.ranges.jpeg = false;  // the file is the JPEG round trip
      mat.light = options.reference_shot.light;
      mat.seed = SubSeed(options.seed, kMatStream, flipped ? 1 : 0);
      auto photo = RenderMatPhoto(mat);
      if (!photo) return engine::Result<int>::Error(photo.error());
      const fs::path file = out / (flipped ? "mat_flipped.jpg" : "mat_front.jpg");
      if (auto w = calibration::WriteImageFile(file.string(), photo->image, 90); !w) return engine::Result<int>::Error(w.error());
    }
    advance();
  }

  int crops = 0;
  // Enrollment crops: each round photographs up to 12 different kinds lying apart on the empty board, then cuts
  // a square around each token (1.5 times its radius in every direction).
  {
    std::vector<std::string> queue;
    for (int k = 0; k < options.crops_per_kind; ++k) {
      for (const std::string& kind : AllTokenKinds()) queue.push_back(kind);
    }
    std::map<std::string, int> count;
    for (int round = 0; round < crop_rounds; ++round) {
      cv::RNG rng(SubSeed(options.seed, kCropStream, round));
      Scene scene;
      for (size_t q = static_cast<size_t>(round) * 12; q < std::min(queue.size(), static_cast<size_t>(round + 1) * 12); ++q) {
        // A spot with room, at least a token's width from the others.
        for (int t = 0; t < 200; ++t) {
          const double y = rng.uniform(30.0, board_mm.height - 30);  // y first: see DrawOrder in dataset.h
          const cv::Point2d at(rng.uniform(30.0, board_mm.width - 30), y);
          if (table.grid->Clearance(at) < 4) continue;
          bool apart = true;
          for (const Placement& p : scene.placements) apart = apart && cv::norm(p.centre_mm - at) > 45;
          if (!apart && t < 199) continue;
          Placement p;
          p.kind = queue[q];
          p.region = table.grid->RegionAt(at);
          p.centre_mm = at;
          p.rotation_deg = 5.0 * rng.uniform(0, 72);
          scene.placements.push_back(p);
          break;
        }
      }
      ShotRanges ranges;
      ranges.lens = options.lens;
      CameraShot shot = RandomShot(options.frame, board_mm, ranges, SubSeed(options.seed, kCropStream, 10000 + round));
      // Enrollment is part of the setup: the tokens are photographed under the light of the reference photo.
      shot.light = options.reference_shot.light;
      const cv::Point3d camera = CameraOverBoard(shot, board_mm);
      const World world = ComposeWorld(table.empty, scene, shot.light, &camera);
      const cv::Mat frame = RenderFrame(world, shot);
      for (const Placement& p : scene.placements) {
        const double r = DesignOf(p.kind).size_mm / 2;
        const auto px = ProjectBoardPoints(shot, board_mm, {p.centre_mm, p.centre_mm + cv::Point2d(r, 0), p.centre_mm + cv::Point2d(0, r)});
        const double radius_px = std::max(cv::norm(px[1] - px[0]), cv::norm(px[2] - px[0])) * 1.5;
        const cv::Rect box(cvRound(px[0].x - radius_px), cvRound(px[0].y - radius_px), cvRound(2 * radius_px), cvRound(2 * radius_px));
        // A crop follows the convention (square, the token centred) or is not written: one cut by the frame's
        // edge would put the token off its centre.
        if ((box & cv::Rect(0, 0, frame.cols, frame.rows)) != box) continue;
        const fs::path dir = out / "crops" / p.kind;
        fs::create_directories(dir, ec);
        const fs::path file = dir / Numbered("", count[p.kind]++, ".png");
        if (auto w = calibration::WriteImageFile(file.string(), frame(box)); !w) return engine::Result<int>::Error(w.error());
        ++crops;
      }
      advance();
    }
  }

  return crops;
}

engine::Result<bool> WriteCameraJson(const fs::path& file, cv::Size frame, const Lens& lens) {
  calibration::CameraModel camera;
  camera.image_size = frame;
  camera.K = cv::Matx33d(lens.focal_px, 0, (frame.width - 1) / 2.0, 0, lens.focal_px, (frame.height - 1) / 2.0, 0, 0, 1);
  camera.dist = {lens.k1, lens.k2, 0, 0, 0};
  camera.fixed_aspect = true;
  const std::string error = calibration::WriteCameraFile(camera, file.string());
  if (!error.empty()) return engine::Result<bool>::Error(error);
  return true;
}

engine::Result<DatasetSummary> GenerateDataset(const DatasetOptions& options, const ProgressFn& progress) {
  using R = engine::Result<DatasetSummary>;
  if (options.out.empty()) return R::Error("--out: give a folder to write the dataset to");
  if (options.scenes < 1 || options.scenes > 100000) return R::Error("--scenes: expected 1..100000, got " + std::to_string(options.scenes));
  if (options.frame.width < 320 || options.frame.height < 240 || options.frame.width > 8192 || options.frame.height > 8192) {
    return R::Error("--size: a frame from 320x240 to 8192x8192 pixels");
  }
  if (options.crops_per_kind < 0 || options.crops_per_kind > 1000) return R::Error("--crops: expected 0..1000");
  if (options.motion_rate < 0 || options.motion_rate > 1) return R::Error("--motion: expected a share from 0 to 1");
  const fs::path out(options.out);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    return R::Error(out.string() + ": the folder is not empty; give a new folder (nothing was written)");
  }
  auto made = MakeSyntheticTable(options.table);  // before anything is written: a bad map leaves no folder behind
  if (!made) return R::Error(made.error());
  fs::create_directories(out / "images", ec);
  if (ec) return R::Error(out.string() + ": cannot create the folder: " + ec.message());
  const SyntheticTable& table = **made;
  const cv::Size2d board_mm = table.layout.board_mm;

  SetupMaterialOptions setup;
  setup.out = options.out;
  setup.map = options.table.map;
  setup.frame = options.frame;
  setup.crops_per_kind = options.crops_per_kind;
  setup.mat_photos = options.mat_photos;
  setup.seed = options.table.seed;
  // One camera for the whole dataset, as at a real table: one lens (its calibration is written as camera.json),
  // while the pose, the light and the sensor's noise change from photo to photo.
  ShotRanges ranges;
  ranges.max_tilt_deg = options.max_tilt_deg;
  ranges.lens = options.lens ? *options.lens : RandomLens(options.frame, ranges.max_k1, SubSeed(options.table.seed, kLensStream, 0));
  setup.lens = ranges.lens;
  if (auto written = WriteCameraJson(out / "camera.json", options.frame, *ranges.lens); !written) return R::Error(written.error());
  {
    ShotRanges reference_ranges = ranges;
    reference_ranges.glare = false;
    setup.reference_shot = RandomShot(options.frame, board_mm, reference_ranges, SubSeed(options.table.seed, kReferenceStream, 0));
  }
  const int total = SetupMaterialSteps(setup) + options.scenes;
  int done = 0;
  DatasetSummary summary;
  auto crops = WriteSetupMaterial(table, setup, [&](int d, int) {
    done = d;
    if (progress) progress(done, total);
  });
  if (!crops) return R::Error(crops.error());
  summary.crops = *crops;
  auto advance = [&] {
    if (progress) progress(++done, total);
  };

  // The scenes.
  auto boards = SampleBoards(table.map, options.scenes, options.table.seed);
  if (!boards) return R::Error(boards.error());
  std::ofstream truth(out / "truth.jsonl"), frames(out / "frames.jsonl");
  if (!truth || !frames) return WriteError<DatasetSummary>(out / "truth.jsonl", "cannot write");
  std::vector<double> ms;
  for (int i = 0; i < options.scenes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const uint64_t seed = SubSeed(options.table.seed, kSceneStream, i);
    cv::RNG rng(seed);
    const bool motion = rng.uniform(0.0, 1.0) < options.motion_rate;
    CameraShot shot = RandomShot(options.frame, board_mm, ranges, seed);
    if (motion) AddRandomArms(shot, rng.uniform(1, 3), seed + 1);
    const int quality = shot.sensor.jpeg_quality > 0 ? shot.sensor.jpeg_quality : 90;
    shot.sensor.jpeg_quality = 0;  // the file itself is the JPEG round trip
    SceneOptions so;
    so.seed = seed;
    Scene scene;
    const cv::Mat frame = RenderScene(table, (*boards)[i], so, shot, &scene);
    const std::string name = Numbered("images/s", i, ".jpg");
    if (auto w = calibration::WriteImageFile((out / name).string(), frame, quality); !w) return engine::Result<DatasetSummary>::Error(w.error());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    scene.truth.image = name;
    scene.truth.status = motion ? vision::Status::kMotion : vision::Status::kOk;
    truth << vision::ToJson(scene.truth).dump() << "\n";
    nlohmann::ordered_json fj = FrameJson(name, shot, table.layout);
    fj["tokens"] = TokensJson(scene);
    frames << fj.dump() << "\n";
    for (const auto& r : scene.truth.regions) summary.uncertain_regions += r.tokens_certain ? 0 : 1;
    ++summary.images;
    summary.motion += motion ? 1 : 0;
    advance();
  }
  truth.flush();
  frames.flush();
  if (!truth || !frames) return WriteError<DatasetSummary>(out / "truth.jsonl", "cannot write");
  summary.median_scene_ms = MedianOf(ms);

  nlohmann::ordered_json info;
  info["format"] = kDatasetFormat;
  info["map"] = options.table.map;
  info["seed"] = options.table.seed;
  info["images"] = summary.images;
  info["motion_images"] = summary.motion;
  info["frame"] = {options.frame.width, options.frame.height};
  info["markers"] = options.table.markers;
  info["crops"] = summary.crops;
  info["files"] = {{"truth", "truth.jsonl"}, {"frames", "frames.jsonl"}, {"reference", "reference.png"},
                   {"camera", "camera.json"}, {"layout", "layout.json"}, {"map", "map.json"}, {"crops", "crops/<kind>/*.png"}};
  if (options.mat_photos) info["files"]["mat"] = {"mat_front.jpg", "mat_flipped.jpg"};
  if (!WriteText(out / "dataset.json", info.dump(1) + "\n")) return WriteError<DatasetSummary>(out / "dataset.json", "cannot write");
  return summary;
}

}  // namespace swref::datasets
