#include "app/core/observe.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>


#include "calibration/image_io.h"
#include "app/core/setup.h"
#include "datasets/dataset.h"

namespace swref::core {
namespace fs = std::filesystem;

engine::Result<int> ObserveImages(const ObserveRequest& request,
                                  const std::function<void(const vision::Observation&, const std::string& reason)>& emit) {
  vision::ObserverOptions options;
  options.incremental = request.incremental;
  auto observer = vision::Observer::Load(request.setup, options);
  if (!observer) return engine::Result<int>::Error(observer.error());
  int n = 0;
  // The first debug file that could not be written (disk full, a folder taken away): the run stops with it, after
  // the frame's observation was given out.
  std::string debug_error;
  auto write_json = [&debug_error](const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text << "\n";
    out.close();
    if (!out && debug_error.empty()) debug_error = file.string() + ": cannot write";
  };
  for (const std::string& image : request.images) {
    if (!request.debug_dir.empty()) {
      const fs::path dir = fs::path(request.debug_dir) / fs::path(image).stem();
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) return engine::Result<int>::Error(dir.string() + ": cannot create the debug folder: " + ec.message());
      observer->SetDebugSink([dir, &debug_error](const std::string& name, const cv::Mat& img) {
        auto written = calibration::WriteImageFile((dir / (name + ".png")).string(), img);
        if (!written && debug_error.empty()) debug_error = written.error();
      });
    }
    const vision::Observation o = observer->ObserveFile(image, image);
    emit(o, observer->last_reason());
    if (!request.debug_dir.empty()) {
      const vision::StageTimes& t = observer->last_times();
      write_json(fs::path(request.debug_dir) / fs::path(image).stem() / "times.json",
                 nlohmann::json({{"decode", t.decode},
                             {"register", t.register_},
                             {"rectify", t.rectify},
                             {"foreground", t.foreground},
                             {"gate", t.gate},
                             {"instances", t.instances},
                             {"count", t.count},
                             {"total", t.total},
                             {"changed_share", t.changed_share},
                             {"tokens_kept", t.tokens_kept},
                             {"reason", observer->last_reason()}})
                     .dump(1));
      // What the observer made of each token: for finding out why a region was read as it was.
      nlohmann::ordered_json inst = nlohmann::ordered_json::array();
      for (const vision::Instance& i : observer->last_instances()) {
        inst.push_back({{"kind", i.kind},
                        {"region", i.region},
                        {"x_mm", std::round(i.centre_mm.x * 10) / 10},
                        {"y_mm", std::round(i.centre_mm.y * 10) / 10},
                        {"rotation_deg", std::round(i.rotation_rad * 1800 / M_PI) / 10},
                        {"confidence", std::round(i.confidence * 100) / 100},
                        {"error", std::round(i.error * 10) / 10},
                        {"fit", std::round(i.fit * 100) / 100},
                        {"runner_up", i.runner_up},
                        {"runner_up_error", std::round(i.runner_up_error * 10) / 10},
                        {"board_error", std::round(i.board_error * 10) / 10},
                        {"visible", std::round(i.visible * 100) / 100},
                        {"stack", i.stack},
                        {"stack_unsure", i.stack_unsure},
                        {"shadow_mm", std::round(i.shadow_mm * 100) / 100},
                        {"shadow_ratio", std::round(i.shadow_ratio * 100) / 100},
                        {"wall_mm", std::round(i.wall_mm * 10) / 10},
                        {"wall_expected_mm", std::round(i.wall_expected_mm * 10) / 10}});
      }
      write_json(fs::path(request.debug_dir) / fs::path(image).stem() / "instances.json", inst.dump(1));
      if (!debug_error.empty()) return engine::Result<int>::Error("--debug-dir: " + debug_error);
    }
    ++n;
  }
  return n;
}

engine::Result<datasets::EvalReport> EvaluateWithObserver(const std::string& setup, const std::string& dataset_dir,
                                                          const std::string& observations_out,
                                                          const std::function<void(int, int)>& progress) {
  using R = engine::Result<datasets::EvalReport>;
  auto truth = datasets::ReadObservations((fs::path(dataset_dir) / "truth.jsonl").string());
  if (!truth) return R::Error(truth.error());
  auto observer = vision::Observer::Load(setup);
  if (!observer) return R::Error(observer.error());
  std::ofstream out;
  if (!observations_out.empty()) {
    out.open(observations_out);
    if (!out) return R::Error(observations_out + ": cannot write");
  }
  // The tokens of each image, when the dataset lists them (frames.jsonl): scored token by token too.
  std::map<std::string, std::vector<datasets::TruthToken>> tokens;
  {
    std::ifstream frames(fs::path(dataset_dir) / "frames.jsonl");
    std::string line;
    while (std::getline(frames, line)) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("image")) tokens[j["image"].get<std::string>()] = datasets::TruthTokens(j);
    }
  }
  std::vector<vision::Observation> seen;
  datasets::TokenScore token_score;
  for (size_t i = 0; i < truth->size(); ++i) {
    const std::string& image = (*truth)[i].image;
    seen.push_back(observer->ObserveFile((fs::path(dataset_dir) / image).string(), image));
    if ((*truth)[i].status == vision::Status::kOk && seen.back().status == vision::Status::kOk && tokens.count(image)) {
      datasets::ScoreTokens(tokens[image], observer->last_instances(), &token_score);
    }
    if (out) out << vision::ToJson(seen.back()).dump() << "\n";
    if (progress) progress(static_cast<int>(i + 1), static_cast<int>(truth->size()));
  }
  datasets::EvalReport report = datasets::Evaluate(*truth, seen);
  report.token = token_score;
  return report;
}

std::string SuiteOptions::Check() const {
  if (dir.empty()) return "give the suite's folder";
  if (maps.empty()) return "no maps";
  if (scenes < 1 || scenes > 10000) return "scenes per map: 1 to 10000";
  return "";
}

engine::Result<SuiteReport> RunVisionSuite(const SuiteOptions& options,
                                           const std::function<void(const std::string&, const std::string&, int, int)>& progress) {
  using R = engine::Result<SuiteReport>;
  if (auto problem = options.Check(); !problem.empty()) return R::Error("dataset suite: " + problem);
  SuiteReport report;
  for (size_t m = 0; m < options.maps.size(); ++m) {
    const std::string& map = options.maps[m];
    const fs::path base = fs::path(options.dir) / map;
    const fs::path data = base / "dataset", setup = base / "setup";
    // Reused only when it is the same suite: the dataset's own description says which.
    bool reuse = false;
    if (std::ifstream info(data / "dataset.json"); info) {
      const nlohmann::json j = nlohmann::json::parse(info, nullptr, false);
      reuse = j.is_object() && j.value("map", "") == map && j.value("seed", uint64_t{0}) == options.seed + m &&
              j.value("images", -1) == options.scenes && fs::exists(setup / "tokens" / "model.json");
    }
    if (!reuse) {
      std::error_code ec;
      fs::remove_all(base, ec);
      datasets::DatasetOptions d;
      d.table.map = map;
      d.table.seed = options.seed + m;
      d.scenes = options.scenes;
      d.frame = options.frame;
      d.max_tilt_deg = 10;
      d.out = data.string();
      auto made = datasets::GenerateDataset(d, [&](int done, int total) {
        if (progress) progress(map, "photographing", done, total);
      });
      if (!made) return R::Error(made.error());
      calibration::SetupRequest sr;
      sr.map = map;
      sr.layout = (data / "layout.json").string();
      sr.reference = (data / "reference.png").string();
      sr.out = setup.string();
      if (auto s = core::SetupBoard(sr); !s) return R::Error(map + ": " + s.error());
      if (auto e = EnrollFromCrops(sr.out, (data / "crops").string()); !e) return R::Error(map + ": " + e.error());
    }
    auto r = EvaluateWithObserver(setup.string(), data.string(), (base / "observations.jsonl").string(), [&](int done, int total) {
      if (progress) progress(map, "observing", done, total);
    });
    if (!r) return R::Error(map + ": " + r.error());
    datasets::Merge(&report.all, *r);
    report.maps.emplace_back(map, std::move(*r));
  }
  return report;
}

}  // namespace swref::core
