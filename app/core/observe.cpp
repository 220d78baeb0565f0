#include "app/core/observe.h"

#include <filesystem>
#include <fstream>

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
          << nlohmann::json({{"decode", t.decode}, {"register", t.register_}, {"rectify", t.rectify}, {"gate", t.gate},
                             {"detect", t.detect}, {"classify", t.classify}, {"total", t.total}, {"reason", observer->last_reason()}})
                 .dump(1)
          << "\n";
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
  std::vector<vision::Observation> seen;
  for (size_t i = 0; i < truth->size(); ++i) {
    const std::string& image = (*truth)[i].image;
    seen.push_back(observer->ObserveFile((fs::path(dataset_dir) / image).string(), image));
    if (out) out << vision::ToJson(seen.back()).dump() << "\n";
    if (progress) progress(static_cast<int>(i + 1), static_cast<int>(truth->size()));
  }
  return datasets::Evaluate(*truth, seen);
}

}  // namespace swref::core
