#include "datasets/game_frames.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "calibration/image_io.h"
#include "engine/replay.h"
#include "engine/table_script.h"

namespace swref::datasets {
namespace fs = std::filesystem;
namespace {

enum GameStream : uint64_t { kGameCameraStream = 101, kGameFrameStream, kGameReferenceStream };

struct PlannedFrame {
  engine::Board board;
  bool motion = false;
  bool bumped = false;
};

struct PlannedEvent {
  int after_frame = -1;                // the last frame taken before the event; -1: before the first frame
  nlohmann::ordered_json action;
};

}  // namespace

engine::Result<GameFramesSummary> WriteGameFrames(const engine::Record& record, const GameFramesOptions& options,
                                                  const ProgressFn& progress) {
  using R = engine::Result<GameFramesSummary>;
  if (options.out.empty()) return R::Error("--out: give a folder to write the frames to");
  const fs::path out(options.out);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    return R::Error(out.string() + ": the folder is not empty; give a new folder (nothing was written)");
  }

  // Plan: the table script (engine/table_script.h) gives the still boards and the events between them; each board
  // is shot as a few frames, a move with 1-2 frames of an arm over the board first.
  auto script = engine::ScriptTable(record, fs::current_path());
  if (!script) return R::Error(script.error());
  const int bump_step = options.bump_at_step >= 0 ? options.bump_at_step : static_cast<int>(record.actions.size()) / 2;
  std::vector<PlannedFrame> plan;
  std::vector<int> last_frame_of_scene;
  GameFramesSummary summary;
  cv::RNG plan_rng(DeriveSeed(options.seed, kGameFrameStream, 0));
  for (const engine::TableScene& scene : script->scenes) {
    const bool bumped = scene.step > bump_step;  // the board is bumped after the bump step's action
    int motion_frames = 1;
    if (scene.kind == engine::SceneKind::kSetup) motion_frames = 0;
    if (scene.kind == engine::SceneKind::kMove) motion_frames = plan_rng.uniform(1, 3);
    if (scene.kind == engine::SceneKind::kAttempt) ++summary.flagged;
    for (int i = 0; i < motion_frames; ++i) plan.push_back({scene.board, true, bumped});
    plan.push_back({scene.board, false, bumped});
    plan.push_back({scene.board, false, bumped});
    last_frame_of_scene.push_back(static_cast<int>(plan.size()) - 1);
  }
  std::vector<PlannedEvent> events;
  for (const engine::TableEvent& e : script->events)
    events.push_back({e.after_scene < 0 ? -1 : last_frame_of_scene[e.after_scene], engine::EventJson(e, record.players)});

  TableOptions to;
  to.map = record.map;
  to.seed = options.seed;
  auto made = MakeSyntheticTable(to);
  if (!made) return R::Error(made.error());
  fs::create_directories(out / "frames", ec);
  if (ec) return R::Error(out.string() + ": cannot create the folder: " + ec.message());
  const SyntheticTable& table = **made;
  const cv::Size2d board_mm = table.layout.board_mm;

  // One camera for the whole game, as on a real table: a fixed pose and light.
  ShotRanges ranges;
  ranges.max_tilt_deg = 10;
  CameraShot base = RandomShot(options.frame, board_mm, ranges, DeriveSeed(options.seed, kGameCameraStream, 0));
  const int quality = base.sensor.jpeg_quality > 0 ? base.sensor.jpeg_quality : 90;
  base.sensor.jpeg_quality = 0;  // the file is the JPEG round trip
  Bump bump;
  {
    cv::RNG rng(DeriveSeed(options.seed, kGameCameraStream, 1));
    auto signed_draw = [&rng](double low, double high) {  // the size, then the sign: see DrawOrder in dataset.h
      const double size = rng.uniform(low, high);
      return rng.uniform(0, 2) ? size : -size;
    };
    bump.shift_mm.x = signed_draw(4.0, 9.0);
    bump.shift_mm.y = signed_draw(3.0, 7.0);
    bump.rotation_deg = signed_draw(0.6, 1.5);
  }

  SetupMaterialOptions setup;
  setup.out = options.out;
  setup.map = record.map;
  setup.frame = options.frame;
  setup.crops_per_kind = options.crops_per_kind;
  setup.seed = options.seed;
  setup.reference_shot = base;
  setup.lens = Lens{base.pose.focal_px, base.pose.k1, base.pose.k2};
  if (auto written = WriteCameraJson(out / "camera.json", options.frame, *setup.lens); !written) return R::Error(written.error());
  const int total = SetupMaterialSteps(setup) + static_cast<int>(plan.size());
  int done = 0;
  auto crops = WriteSetupMaterial(table, setup, [&](int d, int) {
    done = d;
    if (progress) progress(done, total);
  });
  if (!crops) return R::Error(crops.error());

  std::ofstream truth(out / "truth.jsonl"), frames(out / "frames.jsonl");
  std::vector<double> ms;
  for (size_t f = 0; f < plan.size(); ++f) {
    const auto start = std::chrono::steady_clock::now();
    const PlannedFrame& p = plan[f];
    CameraShot shot = base;
    if (p.bumped) shot.bump = bump;
    cv::RNG rng(DeriveSeed(options.seed, kGameFrameStream, 1 + f));
    shot.light.ev += rng.uniform(-0.03, 0.03);  // auto-exposure flicker: no two frames are bit-identical
    if (p.motion) AddRandomArms(shot, 1, DeriveSeed(options.seed, kGameFrameStream, 100000 + f));
    SceneOptions so;
    so.seed = options.seed;  // per region, so that untouched regions keep their tokens where they lay
    Scene scene;
    const cv::Mat frame = RenderScene(table, p.board, so, shot, &scene);
    char name[64];
    std::snprintf(name, sizeof name, "frames/f%05zu.jpg", f);
    if (auto w = calibration::WriteImageFile((out / name).string(), frame, quality); !w) return R::Error(w.error());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    scene.truth.image = name;
    scene.truth.status = p.motion ? vision::Status::kMotion : vision::Status::kOk;
    truth << vision::ToJson(scene.truth).dump() << "\n";
    nlohmann::ordered_json fj = FrameJson(name, shot, table.layout);
    fj["tokens"] = TokensJson(scene);
    frames << fj.dump() << "\n";
    ++summary.frames;
    summary.motion_frames += p.motion ? 1 : 0;
    if (progress) progress(++done, total);
  }

  std::ofstream ev(out / "events.jsonl");
  for (const PlannedEvent& e : events) {
    nlohmann::ordered_json j;
    j["after_frame"] = e.after_frame;
    for (const auto& [k, val] : e.action.items()) j[k] = val;
    ev << j.dump() << "\n";
  }
  summary.events = static_cast<int>(events.size());
  {
    std::ofstream rec(out / "record.json");
    rec << engine::ToJson(record).dump(1) << "\n";
    auto replay = engine::Replay(record, fs::current_path());
    if (!replay) return R::Error(replay.error());
    std::ofstream expected(out / "expected.json");
    expected << engine::PlayDocument(*replay).dump(1) << "\n";
    if (!rec || !expected) return R::Error((out / "expected.json").string() + ": cannot write");
  }
  truth.flush();
  frames.flush();
  ev.flush();
  if (!truth || !frames || !ev) return R::Error((out / "truth.jsonl").string() + ": cannot write");

  std::sort(ms.begin(), ms.end());
  summary.median_frame_ms = ms.empty() ? 0 : ms[ms.size() / 2];
  nlohmann::ordered_json info;
  info["format"] = kDatasetFormat;
  info["kind"] = "game";
  info["map"] = record.map;
  info["seed"] = options.seed;
  info["images"] = summary.frames;
  info["motion_images"] = summary.motion_frames;
  info["frame"] = {options.frame.width, options.frame.height};
  info["events"] = summary.events;
  info["flagged"] = summary.flagged;
  info["bump_after_step"] = bump_step;
  info["files"] = {{"truth", "truth.jsonl"}, {"frames", "frames.jsonl"}, {"events", "events.jsonl"}, {"record", "record.json"},
                   {"expected", "expected.json"}, {"reference", "reference.png"}, {"layout", "layout.json"}, {"map", "map.json"},
                   {"crops", "crops/<kind>/*.png"}};
  std::ofstream(out / "dataset.json") << info.dump(1) << "\n";
  return summary;
}

}  // namespace swref::datasets
