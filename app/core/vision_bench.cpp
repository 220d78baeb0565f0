#include "app/core/vision_bench.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "app/core/setup.h"
#include "app/core/synthetic.h"
#include "app/core/demo_table.h"
#include "engine/inject.h"
#include "vision/still.h"

namespace swref::core {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))];
}

// The kernel's high-water mark of a process's resident memory (VmHWM, kB), or 0 once it has exited.
long HighWaterKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

// Runs `argv` with its output thrown away; its peak resident memory in MB (0 when it could not run or failed).
// Not wait4's ru_maxrss: Linux folds the forking process's own peak into the child's at exec, so a child of this
// (large) bench process would report at least the bench's size. The child's own high-water mark is read from /proc
// every 5 ms instead, from the moment its program has replaced the fork; it only rises, so the last reading before
// the exit holds the peak (save a rise in the last 5 ms, while the program is tearing down).
// The moment of the exec is known from a pipe closed on exec: until then /proc shows the fork, with the bench's
// own high-water mark (when the bench and the program are the same executable, as `swref bench` running
// `swref observe`, the fork's /proc/PID/exe already names it: that test read the bench's 247 MB as the child's).
double ChildPeakMb(const std::vector<std::string>& argv) {
  std::vector<char*> args;  // made before the fork: the child of a threaded process should not allocate
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) return 0;
  const pid_t pid = fork();
  if (pid < 0) {
    close(exec_pipe[0]), close(exec_pipe[1]);
    return 0;
  }
  if (pid == 0) {
    close(exec_pipe[0]);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 1), dup2(null, 2), close(null);
    execv(args[0], args.data());
    const char failed = 1;
    (void)!write(exec_pipe[1], &failed, 1);
    _exit(127);
  }
  close(exec_pipe[1]);
  char byte = 0;
  ssize_t got;
  while ((got = read(exec_pipe[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  close(exec_pipe[0]);
  long peak_kb = 0;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) return 0;
    if (got == 0) peak_kb = std::max(peak_kb, HighWaterKb(pid));  // 0: end of file, the exec closed the pipe
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (got != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 0;
  return peak_kb / 1024.0;
}

// Each stage's median over several observations.
vision::StageTimes MedianStages(const std::vector<vision::StageTimes>& stages) {
  auto median = [&](double vision::StageTimes::*field) {
    std::vector<double> v;
    for (const auto& s : stages) v.push_back(s.*field);
    return Quantile(v, 0.5);
  };
  vision::StageTimes m;
  m.register_ = median(&vision::StageTimes::register_);
  m.rectify = median(&vision::StageTimes::rectify);
  m.foreground = median(&vision::StageTimes::foreground);
  m.gate = median(&vision::StageTimes::gate);
  m.instances = median(&vision::StageTimes::instances);
  m.count = median(&vision::StageTimes::count);
  m.total = median(&vision::StageTimes::total);
  return m;
}

// A game on the table as the referee watches it: a random game on the bench's map (with its illegal conquests
// photographed and taken back) made ready as the demo's table is (PrepareDemoTable: the camera's frames, the table
// set up and its tokens enrolled from its own material); then, frame by frame, the stillness gate, and each time
// the scene has just become still an incremental observation (the referee's) and, of the same frame, a full one,
// one after the other.
engine::Result<bool> TimeMoves(const VisionBenchOptions& options, const fs::path& work, const VisionBenchProgress& progress,
                               VisionBenchReport* report) {
  using R = engine::Result<bool>;
  auto map = engine::LoadMap(options.map, fs::current_path());
  if (!map) return R::Error(map.error());
  auto game = engine::PlayInjectedGame(*map, options.seed);
  if (!game) return R::Error("bench vision: the game: " + game.error());
  const auto step = [&](const std::string& stage, int64_t d, int64_t t) {
    if (progress) progress("a game: " + stage, static_cast<int>(d), static_cast<int>(t));
  };
  auto table = PrepareDemoTable(game->record, work / "game", options.seed, options.frame, step);
  if (!table) return R::Error(table.error());
  vision::ObserverOptions incremental;
  incremental.incremental = true;
  auto referee = vision::Observer::Load(table->setup, incremental);
  auto full = vision::Observer::Load(table->setup);
  if (!referee || !full) return R::Error(referee ? full.error() : referee.error());
  vision::StillWindow still;
  std::vector<double> moved, moved_full, share;
  std::vector<vision::StageTimes> stages;
  bool scene = false;  // the referee's observer holds a still scene (it observed one, and the board has not moved since)
  int in_full = 0;
  const int frames = static_cast<int>(table->truth.size());
  for (int f = 0; f < frames && static_cast<int>(moved.size()) < options.moves; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "f%05d.jpg", f);
    const auto read = calibration::ReadImageFile((fs::path(table->frames) / name).string());
    if (!read) return R::Error(read.error());
    still.Update(*read);
    if (progress) progress("a game observed", f + 1, frames);
    if (!still.just_stable()) continue;
    const int registrations = referee->registrations();
    auto a = Clock::now();
    const vision::Observation o = referee->Observe(*read, name);
    const double ms = Ms(a, Clock::now());
    const double changed = referee->last_times().changed_share;
    const bool had_scene = scene && referee->registrations() == registrations;
    scene = had_scene || o.status == vision::Status::kOk;
    // Left out: the first frame, a bump, nothing changed. Kept: every full_every-th in a row, observed in full.
    const bool periodic = o.status == vision::Status::kOk && changed < 0 && had_scene;
    if (o.status != vision::Status::kOk || (changed <= 0 && !periodic)) continue;
    full->ForgetScene();
    a = Clock::now();
    full->Observe(*read, name);
    moved_full.push_back(Ms(a, Clock::now()));
    moved.push_back(ms);
    if (periodic) {
      ++in_full;
    } else {
      share.push_back(changed);
      stages.push_back(referee->last_times());
    }
  }
  report->moves = static_cast<int>(moved.size());
  report->moves_in_full = in_full;
  report->full_every = incremental.full_every;
  report->move_ms = Quantile(moved, 0.5);
  report->move_p90_ms = Quantile(moved, 0.9);
  report->move_full_ms = Quantile(moved_full, 0.5);
  report->move_changed_share = Quantile(share, 0.5);
  report->move_stages = MedianStages(stages);
  return true;
}

}  // namespace

std::string VisionBenchOptions::Check() const {
  if (frames < 1 || frames > 1000) return "--frames: 1 to 1000";
  if (moves < 1 || moves > 1000) return "--moves: 1 to 1000";
  if (frame.width < 320 || frame.height < 240 || frame.width > 8192 || frame.height > 8192) return "--size: 320x240 to 8192x8192";
  return "";
}

engine::Result<VisionBenchReport> RunVisionBench(const VisionBenchOptions& options, const VisionBenchProgress& progress) {
  using R = engine::Result<VisionBenchReport>;
  if (auto problem = options.Check(); !problem.empty()) return R::Error("bench vision: " + problem);
  std::error_code ec;
  const fs::path work = fs::temp_directory_path() / ("swref-bench-vision-" + std::to_string(::getpid()));
  fs::remove_all(work, ec);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code e;
      fs::remove_all(dir, e);
    }
  } cleanup{work};

  // 1. Photos of game states, and the table set up from the dataset's own material.
  datasets::DatasetOptions dataset;
  dataset.table.map = options.map;
  dataset.table.seed = options.seed;
  dataset.scenes = options.frames;
  dataset.frame = options.frame;
  dataset.motion_rate = 0;
  dataset.max_tilt_deg = 10;
  dataset.out = (work / "photos").string();
  auto made = core::GenerateDataset(dataset, [&](int d, int t) {
    if (progress) progress("photographing", d, t);
  });
  if (!made) return R::Error(made.error());
  calibration::SetupRequest setup;
  setup.map = options.map;
  setup.layout = (work / "photos" / "layout.json").string();
  setup.reference = (work / "photos" / "reference.png").string();
  setup.out = (work / "setup").string();
  if (auto s = core::SetupBoard(setup); !s) return R::Error(s.error());
  if (auto e = core::EnrollFromCrops(setup.out, (work / "photos" / "crops").string()); !e) return R::Error(e.error());
  auto observer = vision::Observer::Load(setup.out);
  if (!observer) return R::Error(observer.error());
  std::vector<std::string> images;
  for (const auto& entry : fs::directory_iterator(work / "photos" / "images")) images.push_back(entry.path().string());
  std::sort(images.begin(), images.end());

  // 2. Every photo on one thread: the yardstick, the per-frame path, a cold and a warm observation.
  VisionBenchReport report;
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  std::vector<double> lab, per_frame, observe, cold;
  std::vector<vision::StageTimes> stages;
  vision::StillWindow still;
  int done = 0;
  for (const std::string& path : images) {
    const auto read = calibration::ReadImageFile(path);
    if (!read) continue;
    const cv::Mat& frame = *read;
    cv::Mat out;
    auto a = Clock::now();
    cv::cvtColor(frame, out, cv::COLOR_BGR2Lab);
    lab.push_back(Ms(a, Clock::now()));
    observer->ForgetPose();
    a = Clock::now();
    observer->Observe(frame, path);
    cold.push_back(Ms(a, Clock::now()));
    a = Clock::now();
    const bool unchanged = observer->PoseUnchanged(frame);
    still.Update(frame);
    per_frame.push_back(Ms(a, Clock::now()));
    if (!unchanged) continue;  // the pose check did not hold: not a stable frame's path
    a = Clock::now();
    const vision::Observation o = observer->Observe(frame, path);
    observe.push_back(Ms(a, Clock::now()));
    if (o.status == vision::Status::kOk) stages.push_back(observer->last_times());
    if (progress) progress("observing", ++done, static_cast<int>(images.size()));
  }
  // 3. A game's moves, each observed where it changed (the referee's way) and in full.
  if (auto moves = TimeMoves(options, work, progress, &report); !moves) {
    cv::setNumThreads(threads);
    return R::Error(moves.error());
  }
  cv::setNumThreads(threads);
  if (observe.empty()) return R::Error("bench vision: no photo could be observed with its pose kept");

  report.frames = static_cast<int>(observe.size());
  report.lab_ms = Quantile(lab, 0.5);
  report.per_frame_ms = Quantile(per_frame, 0.5);
  report.observe_ms = Quantile(observe, 0.5);
  report.observe_p90_ms = Quantile(observe, 0.9);
  report.cold_ms = Quantile(cold, 0.5);
  report.stages = MedianStages(stages);

  // 4. `swref observe` over the same photos, its peak memory.
  if (!options.swref_exe.empty()) {
    if (progress) progress("memory", 0, 1);
    std::vector<std::string> argv = {options.swref_exe, "observe", "--setup", setup.out};
    argv.insert(argv.end(), images.begin(), images.end());
    report.observe_peak_mb = ChildPeakMb(argv);
    report.observe_images = static_cast<int>(images.size());
    if (progress) progress("memory", 1, 1);
  }
  return report;
}

}  // namespace swref::core
