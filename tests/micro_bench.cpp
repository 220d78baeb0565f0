// Micro-benchmarks (Google Benchmark; not tests: times are measured here, never asserted in the suite).
// Run: build/tests/micro_bench [--benchmark_repetitions=5 --benchmark_filter=...]
// - BM_RenderCached / BM_RenderUncached: the table camera simulator, RenderFrame of a 1920x1080 frame from a
//   900 x 700 mm world at 2.5 px/mm with every effect on, on one thread, with the remap tables cached (a demo's frames
//   share a pose) and rebuilt (every frame a new pose);
// - BM_RenderToken: one stand-in token drawn at 3 px/mm at a new angle (the synthetic scenes draw hundreds);
// - BM_PlanarityOfAGrid: the map planarity test on a triangulated 20 x 10 grid (200 vertices), far above the
//   official maps' 40 regions.
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/camera.h"
#include "datasets/token_art.h"
#include "engine/planarity.h"

namespace {

using namespace swref::datasets;

// A textured world (smooth noise with edges), so that remap and JPEG see realistic content rather than a flat fill.
const World& BenchWorld() {
  static const World world = [] {
    World w;
    w.px_per_mm = 2.5;
    w.origin_mm = {-150, -150};
    w.board_mm = {600, 400};
    cv::Mat noise(70, 90, CV_8UC3);
    cv::RNG rng(1);
    rng.fill(noise, cv::RNG::UNIFORM, 0, 256);
    cv::resize(noise, w.image, cv::Size(2250, 1750), 0, 0, cv::INTER_CUBIC);
    for (int i = 0; i < 60; ++i)
      cv::circle(w.image, cv::Point(rng.uniform(400, 1850), rng.uniform(400, 1350)), 31, cv::Scalar(40, 40, 200), -1,
                 cv::LINE_AA);
    return w;
  }();
  return world;
}

CameraShot FullShot(int arms) {
  ShotRanges ranges;
  CameraShot shot = RandomShot({1920, 1080}, {600, 400}, ranges, 12);
  // Every effect on, whatever the seed drew.
  shot.light.glare = {Glare{{700, 400}, {220, 120}, 30, 0.3}, Glare{{1300, 700}, {150, 100}, -20, 0.2}};
  shot.light.vignetting = 0.3;
  shot.light.gradient = 0.2;
  shot.sensor = Sensor{3, 0.8, 85};
  shot.pose.k1 = 0.08;
  shot.pose.k2 = -0.02;
  shot.arms.clear();
  if (arms > 0) AddRandomArms(shot, arms, 5);
  for (Arm& arm : shot.arms) arm.motion_blur_px = 20;
  return shot;
}

void BM_RenderCached(benchmark::State& state) {
  cv::setNumThreads(1);
  const CameraShot shot = FullShot(int(state.range(0)));
  RenderFrame(BenchWorld(), shot);  // fills the cache
  for (auto _ : state) benchmark::DoNotOptimize(RenderFrame(BenchWorld(), shot).data);
}
BENCHMARK(BM_RenderCached)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(2);

void BM_RenderUncached(benchmark::State& state) {
  cv::setNumThreads(1);
  CameraShot shot = FullShot(int(state.range(0)));
  for (auto _ : state) {
    shot.pose.look_at_mm.x += 1e-3;  // a new pose every frame: the tables are rebuilt
    benchmark::DoNotOptimize(RenderFrame(BenchWorld(), shot).data);
  }
}
BENCHMARK(BM_RenderUncached)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(2);

void BM_RenderToken(benchmark::State& state) {
  cv::setNumThreads(1);
  const auto& kinds = AllTokenKinds();
  int i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(RenderToken(kinds[i % kinds.size()], 3.0, i * 11.0).data);
    ++i;
  }
}
BENCHMARK(BM_RenderToken)->Unit(benchmark::kMillisecond)->MinTime(1);

void BM_PlanarityOfAGrid(benchmark::State& state) {
  const int rows = 10, cols = 20;
  std::vector<std::pair<int, int>> edges;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int v = r * cols + c;
      if (c + 1 < cols) edges.push_back({v, v + 1});
      if (r + 1 < rows) edges.push_back({v, v + cols});
      if (c + 1 < cols && r + 1 < rows) edges.push_back({v, v + cols + 1});
    }
  for (auto _ : state) benchmark::DoNotOptimize(swref::engine::TestPlanarity(rows * cols, edges).planar);
}
BENCHMARK(BM_PlanarityOfAGrid)->Unit(benchmark::kMillisecond)->MinTime(1);

}  // namespace

BENCHMARK_MAIN();
