#include "app/core/synthetic.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include <opencv2/core/utility.hpp>

#include "calibration/image_io.h"
#include "app/core/demo.h"
#include "app/core/hash.h"
#include "datasets/scene.h"
#include "engine/map.h"
#include "engine/random_game.h"
#include "engine/record.h"

namespace swref::core {
namespace {

double Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Peak resident memory of this process, MB (Linux /proc), 0 if unknown.
double PeakRssMb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

}  // namespace

engine::Result<datasets::DatasetSummary> GenerateDataset(const datasets::DatasetOptions& options, const ProgressFn& progress) {
  return datasets::GenerateDataset(options, progress);
}

engine::Result<datasets::GameFramesSummary> GenerateDemoFrames(uint64_t seed, const datasets::GameFramesOptions& options,
                                                               const ProgressFn& progress) {
  auto demo = RunDemo(seed);
  if (!demo) return engine::Result<datasets::GameFramesSummary>::Error(demo.error());
  return datasets::WriteGameFrames(demo->record, options, progress);
}

engine::Result<datasets::GameFramesSummary> GenerateRecordFrames(const std::string& record_path, const datasets::GameFramesOptions& options,
                                                                 const ProgressFn& progress) {
  using R = engine::Result<datasets::GameFramesSummary>;
  auto record = engine::ReadRecordFile(record_path);
  if (!record) return R::Error(record.error());
  if (!engine::BuiltinMap(record->map)) {  // a map file: found beside the record, as `swref play` finds it
    const std::filesystem::path map = std::filesystem::path(record_path).parent_path() / record->map;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(map, ec)) return R::Error(record_path + ": map: \"" + record->map + "\" is neither a built-in map (2p, 3p, 4p, 5p) nor a file beside the record");
    record->map = std::filesystem::absolute(map).string();
  }
  // Every action the rules reject must be one the table can show and take back (ScriptReport says which is not).
  if (auto script = ScriptReport(*record); !script) return R::Error(record_path + ": " + script.error());
  return datasets::WriteGameFrames(*record, options, progress);
}

engine::Result<int> PrintTokens(const std::string& path, const datasets::TokenSheetOptions& options) {
  return datasets::WriteTokenSheetPdf(path, options);
}

std::string SceneBenchOptions::Check() const {
  if (scenes < 3 || scenes > 10000) return "--scenes: expected 3..10000";
  if (width < 320 || height < 240 || width > 8192 || height > 8192) return "--size: a frame from 320x240 to 8192x8192 pixels";
  return "";
}

engine::Result<SceneBenchReport> RunSceneBench(const SceneBenchOptions& options, const ProgressFn& progress) {
  using R = engine::Result<SceneBenchReport>;
  if (auto problem = options.Check(); !problem.empty()) return R::Error("bench scene: " + problem);
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  SceneBenchReport report;
  auto t0 = std::chrono::steady_clock::now();
  datasets::TableOptions to;
  to.map = options.map;
  to.seed = options.seed;
  auto table = datasets::MakeSyntheticTable(to);
  if (!table) return cv::setNumThreads(threads), R::Error(table.error());
  report.table_ms = Ms(t0, std::chrono::steady_clock::now());

  // Boards from one random game, spread over its course.
  std::vector<engine::Board> boards;
  auto game = engine::PlayRandomGame((*table)->map, options.seed,
                                     [&](const engine::Game& g, const engine::Action&) { boards.push_back(g.board()); });
  if (!game || boards.empty()) return cv::setNumThreads(threads), R::Error("bench scene: the random game failed");

  std::vector<double> total, place, compose, camera, encode;
  std::ostringstream digest;
  const cv::Size frame(options.width, options.height);
  for (int i = 0; i < options.scenes; ++i) {
    const engine::Board& board = boards[static_cast<size_t>(i) * boards.size() / options.scenes];
    const uint64_t seed = datasets::DeriveSeed(options.seed, 7, i);
    datasets::CameraShot shot = datasets::RandomShot(frame, (*table)->layout.board_mm, datasets::ShotRanges{}, seed);
    if (i % 10 == 9) datasets::AddRandomArms(shot, 1, seed + 1);
    const int quality = shot.sensor.jpeg_quality > 0 ? shot.sensor.jpeg_quality : 90;
    shot.sensor.jpeg_quality = 0;
    datasets::SceneOptions so;
    so.seed = seed;
    const auto a = std::chrono::steady_clock::now();
    const datasets::Scene scene = datasets::PlaceBoard(board, *(*table)->grid, so);
    const auto b = std::chrono::steady_clock::now();
    const cv::Point3d over = datasets::CameraOverBoard(shot, (*table)->layout.board_mm);
    const datasets::World world = datasets::ComposeWorld((*table)->empty, scene, shot.light, &over);
    const auto c = std::chrono::steady_clock::now();
    const cv::Mat image = datasets::RenderFrame(world, shot);
    const auto d = std::chrono::steady_clock::now();
    const auto jpeg = calibration::EncodeImage(".jpg", image, quality);
    const auto e = std::chrono::steady_clock::now();
    place.push_back(Ms(a, b));
    compose.push_back(Ms(b, c));
    camera.push_back(Ms(c, d));
    encode.push_back(Ms(d, e));
    total.push_back(Ms(a, e));
    digest << vision::ToJson(scene.truth).dump() << "\n";
    if (progress) progress(i + 1, options.scenes);
  }
  cv::setNumThreads(threads);
  report.scenes = options.scenes;
  report.median_ms = Median(total);
  std::vector<double> sorted = total;
  std::sort(sorted.begin(), sorted.end());
  report.p90_ms = sorted[std::min(sorted.size() - 1, sorted.size() * 9 / 10)];
  report.place_ms = Median(place);
  report.compose_ms = Median(compose);
  report.camera_ms = Median(camera);
  report.encode_ms = Median(encode);
  report.peak_rss_mb = PeakRssMb();
  report.signature = Sha256Hex(digest.str()).substr(0, 16);
  return report;
}

}  // namespace swref::core
