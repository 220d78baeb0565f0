// Synthetic datasets: `swref dataset generate`. A synthetic table (a map, its generated layout and board art, the
// table it lies on) photographed in many game states, with the exact truth of each photo in the Observation
// format, and the setup material a user would make for a real board (the empty board's reference photo, the
// layout, the map, enrollment crops of every token kind). Deterministic for a seed. Folder format: docs/datasets.md.
//
// DrawOrder. "Deterministic for a seed" holds for every compiler only if no expression makes two random draws
// whose order C++ leaves open (the arguments of one call, the operands of one operator): GCC evaluates a call's
// arguments last to first, Clang first to last, and the same seed gave another table. Every such place in
// datasets/ draws into named values first, in the order GCC used, so that the datasets, the demo and every figure
// measured on them are unchanged. A new draw keeps to one draw per statement.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/layout.h"
#include "datasets/camera.h"
#include "datasets/scene.h"
#include "engine/board.h"
#include "engine/map.h"
#include "engine/result.h"

namespace swref::datasets {

inline constexpr const char* kDatasetFormat = "swref-dataset/1";

// Independent random streams: the seed of part `stream`, item `index` of a dataset made from `seed`, so that adding
// scenes never changes the earlier ones.
uint64_t DeriveSeed(uint64_t seed, uint64_t stream, uint64_t index);

// Everything about one table that does not change between photos.
struct SyntheticTable {
  std::shared_ptr<const engine::Map> map;
  calibration::Layout layout;
  std::unique_ptr<PlacementGrid> grid;   // refers to `layout`: a table is not copied or moved once made
  cv::Mat board_art;                     // the printed board, top-down, at world resolution
  World empty;                           // the board (no pieces) lying on the table
};

struct TableOptions {
  std::string map = "2p";                // built-in key or a map file
  uint64_t seed = 1;
  bool markers = true;                   // ArUco markers at the board's corners
  double px_per_mm = 2.5;                // world resolution
  double margin_mm = 260;                // table shown around the board
};

engine::Result<std::unique_ptr<SyntheticTable>> MakeSyntheticTable(const TableOptions& options);

// One photo of `board` on the table: places the tokens (scene), composites them and photographs the world.
cv::Mat RenderScene(const SyntheticTable& table, const engine::Board& board, const SceneOptions& scene_options,
                    const CameraShot& shot, Scene* scene_out = nullptr);

// The pieces a map's setup puts on the board before the game (a mountain on every mountain region, a lost tribe
// where the map says): the board of a game's first turn.
engine::Board SetupBoard(const engine::Map& map);

// Called with (done, total) as the work advances.
using ProgressFn = std::function<void(int done, int total)>;

// The setup material of a synthetic table, written into an existing folder: map.json, layout.json,
// reference.png (+ reference.json: where the camera was), crops/<kind>/NNNNN.png, one token per image, and (with
// `mat_photos`) mat_front.jpg and mat_flipped.jpg: the printed enrollment mat with one token of each kind in its
// cell, active sides up, then the race tokens flipped (mat_photo.h), taken by the same camera under the
// reference's light.
struct SetupMaterialOptions {
  std::string out;
  std::string map = "2p";                // as given by the user: a built-in key is written out, a file copied
  cv::Size frame{1920, 1080};
  CameraShot reference_shot;             // how the empty board is photographed
  std::optional<Lens> lens;              // the camera's lens for the crops' photos (else one a photo)
  int crops_per_kind = 6;
  bool mat_photos = false;
  uint64_t seed = 1;
};
int SetupMaterialSteps(const SetupMaterialOptions& options);  // progress steps WriteSetupMaterial reports
// Returns the number of crops written.
engine::Result<int> WriteSetupMaterial(const SyntheticTable& table, const SetupMaterialOptions& options,
                                       const ProgressFn& progress = nullptr);

// Per image, where the camera was: board corners and marker corners in the image, image_from_board, tilt, light,
// arms (frames.jsonl; truth.jsonl holds the board truth).
nlohmann::ordered_json FrameJson(const std::string& image, const CameraShot& shot, const calibration::Layout& layout);
// Every token of a scene as it lies: kind, region, centre (board mm), rotation, stack height (`tokens` in frames.jsonl).
nlohmann::ordered_json TokensJson(const Scene& scene);

struct DatasetOptions {
  TableOptions table;
  int scenes = 20;                       // photos of game states
  cv::Size frame{1920, 1080};
  double motion_rate = 0.1;              // share of photos with arms over the board (truth status "motion")
  int crops_per_kind = 6;                // enrollment crops of each token kind
  bool mat_photos = true;                // the two photos of the enrollment mat (SetupMaterialOptions)
  std::string out;                       // folder to write (created; must be empty or absent)
  double max_tilt_deg = 15;              // the camera's tilt from overhead, per photo
  std::optional<Lens> lens;              // the camera's lens; else one drawn from the seed
};

struct DatasetSummary {
  int images = 0;
  int motion = 0;
  int crops = 0;
  int uncertain_regions = 0;             // regions whose count a stack hides
  double median_scene_ms = 0;            // place + compose + photograph + encode, per image
};

// camera.json (calibration/intrinsics.h) for a simulated camera's lens, as if the user had calibrated it exactly.
engine::Result<bool> WriteCameraJson(const std::filesystem::path& file, cv::Size frame, const Lens& lens);

engine::Result<DatasetSummary> GenerateDataset(const DatasetOptions& options, const ProgressFn& progress = nullptr);

}  // namespace swref::datasets
