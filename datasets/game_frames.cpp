#include "datasets/game_frames.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "engine/replay.h"

namespace swref::datasets {
namespace fs = std::filesystem;
namespace {

enum Stream : uint64_t { kCameraStream = 101, kFrameStream, kReferenceStream };

bool SameBoard(const engine::Board& a, const engine::Board& b) {
  static_assert(std::is_trivially_copyable_v<engine::RegionState>);
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(engine::RegionState)) == 0;
}

struct PlannedFrame {
  engine::Board board;
  bool motion = false;
  bool bumped = false;
};

struct PlannedEvent {
  int after_frame = -1;                // the last frame taken before the event; -1: before the first frame
  nlohmann::ordered_json action;
};

// The board as the player left it when making a conquest the rules then rejected: the defenders gone, the
// player's tokens in the region.
engine::Board AttemptedConquest(const engine::Game& game, const engine::Action& a) {
  engine::Board board = game.board();
  const int race = game.players()[a.player].active;
  if (race < 0 || !game.map().Valid(a.region)) return board;
  engine::RegionState& r = board[a.region];
  r.ClearOccupant();
  r.lost_tribe = 0;
  r.owner = static_cast<int8_t>(a.player);
  r.race = static_cast<int8_t>(race);
  r.tokens = static_cast<uint8_t>(a.tokens > 0 ? a.tokens : game.ConquestCost(static_cast<engine::Race>(race), a.region).total);
  return board;
}

bool OffBoard(engine::ActionType t) {
  return t == engine::ActionType::kPick || t == engine::ActionType::kDecline || t == engine::ActionType::kEndTurn ||
         t == engine::ActionType::kAlly;
}

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

  // Plan: replay the record, noting the board each frame shows and the events between frames.
  auto started = engine::StartGame(record, fs::current_path());
  if (!started) return R::Error(started.error());
  engine::Game game = std::move(*started);
  const int bump_step = options.bump_at_step >= 0 ? options.bump_at_step : static_cast<int>(record.actions.size()) / 2;
  std::vector<PlannedFrame> plan;
  std::vector<PlannedEvent> events;
  bool bumped = false;
  auto shoot = [&](const engine::Board& board, int motion_frames) {
    for (int i = 0; i < motion_frames; ++i) plan.push_back({board, true, bumped});
    plan.push_back({board, false, bumped});
    plan.push_back({board, false, bumped});
  };
  auto event = [&](nlohmann::ordered_json action) {
    events.push_back({static_cast<int>(plan.size()) - 1, std::move(action)});
  };
  shoot(game.board(), 0);  // the set-up board before the first move
  GameFramesSummary summary;
  cv::RNG plan_rng(DeriveSeed(options.seed, kFrameStream, 0));
  for (size_t i = 0; i < record.actions.size(); ++i) {
    const engine::Action& a = record.actions[i];
    const engine::Board before = game.board();
    if (a.type == engine::ActionType::kConquer && a.die >= 0) {
      event({{"player", record.players[a.player]}, {"do", "die"}, {"face", a.die}});
    }
    const engine::Board attempted = a.type == engine::ActionType::kConquer ? AttemptedConquest(game, a) : before;
    const engine::Verdict v = game.Apply(a);
    if (OffBoard(a.type)) {
      const nlohmann::json action = engine::ToJson(a, record.players);
      nlohmann::ordered_json j;
      j["player"] = action.value("player", "");  // the documented key order: player, do, the rest
      j["do"] = action.value("do", "");
      for (const auto& [k, val] : action.items()) j[k] = val;
      event(std::move(j));
    }
    if (v.ok()) {
      if (!SameBoard(before, game.board())) shoot(game.board(), plan_rng.uniform(1, 3));
    } else if (a.type == engine::ActionType::kConquer && !SameBoard(before, attempted)) {
      shoot(attempted, 1);   // the illegal conquest as the player made it
      shoot(before, 1);      // flagged, the player takes it back
      ++summary.flagged;
    }
    if (static_cast<int>(i) == bump_step) bumped = true;
  }

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
  CameraShot base = RandomShot(options.frame, board_mm, ranges, DeriveSeed(options.seed, kCameraStream, 0));
  const int quality = base.sensor.jpeg_quality > 0 ? base.sensor.jpeg_quality : 90;
  base.sensor.jpeg_quality = 0;  // the file is the JPEG round trip
  Bump bump;
  {
    cv::RNG rng(DeriveSeed(options.seed, kCameraStream, 1));
    bump.shift_mm = {rng.uniform(4.0, 9.0) * (rng.uniform(0, 2) ? 1 : -1), rng.uniform(3.0, 7.0) * (rng.uniform(0, 2) ? 1 : -1)};
    bump.rotation_deg = rng.uniform(0.6, 1.5) * (rng.uniform(0, 2) ? 1 : -1);
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
    cv::RNG rng(DeriveSeed(options.seed, kFrameStream, 1 + f));
    shot.light.ev += rng.uniform(-0.03, 0.03);  // auto-exposure flicker: no two frames are bit-identical
    if (p.motion) AddRandomArms(shot, 1, DeriveSeed(options.seed, kFrameStream, 100000 + f));
    SceneOptions so;
    so.seed = options.seed;  // per region, so that untouched regions keep their tokens where they lay
    Scene scene;
    const cv::Mat frame = RenderScene(table, p.board, so, shot, &scene);
    char name[64];
    std::snprintf(name, sizeof name, "frames/f%05zu.jpg", f);
    if (!cv::imwrite((out / name).string(), frame, {cv::IMWRITE_JPEG_QUALITY, quality})) {
      return R::Error((out / name).string() + ": cannot write");
    }
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    scene.truth.image = name;
    scene.truth.status = p.motion ? vision::Status::kMotion : vision::Status::kOk;
    truth << vision::ToJson(scene.truth).dump() << "\n";
    frames << FrameJson(name, shot, table.layout).dump() << "\n";
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
