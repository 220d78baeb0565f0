#include "app/core/observe.h"

#include <filesystem>
#include <cmath>
#include <fstream>
#include <map>

#include <opencv2/imgcodecs.hpp>

namespace swref::core {
namespace fs = std::filesystem;

engine::Result<int> ObserveImages(const ObserveRequest& request, const std::function<void(const vision::Observation&)>& emit) {
  auto observer = vision::Observer::Load(request.setup);
  if (!observer) return engine::Result<int>::Error(observer.error());
  int n = 0;
  for (const std::string& image : request.images) {
    if (!request.debug_dir.empty()) {
      const fs::path dir = fs::path(request.debug_dir) / fs::path(image).stem();
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) return engine::Result<int>::Error(dir.string() + ": cannot create the debug folder: " + ec.message());
      observer->SetDebugSink([dir](const std::string& name, const cv::Mat& img) { cv::imwrite((dir / (name + ".png")).string(), img); });
    }
    emit(observer->ObserveFile(image, image));
    if (!request.debug_dir.empty()) {
      const vision::StageTimes& t = observer->last_times();
      std::ofstream(fs::path(request.debug_dir) / fs::path(image).stem() / "times.json")
          << nlohmann::json({{"decode", t.decode}, {"register", t.register_}, {"rectify", t.rectify}, {"foreground", t.foreground},
                             {"gate", t.gate}, {"instances", t.instances}, {"count", t.count}, {"total", t.total}, {"reason", observer->last_reason()}})
                 .dump(1)
          << "\n";
      // What the observer made of each token: for finding out why a region was read as it was.
      nlohmann::ordered_json inst = nlohmann::ordered_json::array();
      for (const vision::Instance& i : observer->last_instances()) {
        inst.push_back({{"kind", i.kind}, {"region", i.region}, {"x_mm", std::round(i.centre_mm.x * 10) / 10},
                        {"y_mm", std::round(i.centre_mm.y * 10) / 10}, {"rotation_deg", std::round(i.rotation_rad * 1800 / M_PI) / 10},
                        {"confidence", std::round(i.confidence * 100) / 100}, {"error", std::round(i.error * 10) / 10},
                        {"board_error", std::round(i.board_error * 10) / 10}, {"visible", std::round(i.visible * 100) / 100},
                        {"stack", i.stack}, {"stack_unsure", i.stack_unsure}, {"shadow_mm", std::round(i.shadow_mm * 10) / 10},
                        {"wall_mm", std::round(i.wall_mm * 10) / 10}, {"wall_expected_mm", std::round(i.wall_expected_mm * 10) / 10}});
      }
      std::ofstream(fs::path(request.debug_dir) / fs::path(image).stem() / "instances.json") << inst.dump(1) << "\n";
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

}  // namespace swref::core
