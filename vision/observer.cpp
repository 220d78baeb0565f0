#include "vision/observer.h"

#include "calibration/intrinsics.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace swref::vision {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

Observation Empty(const std::string& name, vision::Status status, int regions) {
  Observation o;
  o.image = name;
  o.status = status;
  o.regions.resize(regions);
  for (int r = 0; r < regions; ++r) o.regions[r].id = r;
  return o;
}

}  // namespace

engine::Result<Observer> Observer::Load(const std::string& setup_dir, const ObserverOptions& options) {
  using R = engine::Result<Observer>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  auto map = engine::LoadMap(setup->map, setup_dir);
  if (!map) return R::Error(map.error());
  const fs::path model_path = fs::path(setup_dir) / "tokens" / "model.json";
  std::ifstream in(model_path);
  if (!in) return R::Error(model_path.string() + ": no appearance model; enroll the tokens first (`swref enroll --setup " + setup_dir + " ...`)");
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) return R::Error(model_path.string() + ": not valid JSON");
  auto model = calibration::AppearanceModel::FromJson(doc, model_path.string());
  if (!model) return R::Error(model.error());
  const fs::path ref_path = fs::path(setup_dir) / "reference.png";
  cv::Mat reference = cv::imread(ref_path.string(), cv::IMREAD_COLOR);
  if (reference.empty()) return R::Error(ref_path.string() + ": cannot read the reference photo");
  const bool has_camera = setup->has_camera;
  Observer observer(std::move(*setup), *map, std::move(*model), std::move(reference), options);
  if (has_camera) {
    auto camera = calibration::ReadCameraFile((fs::path(setup_dir) / "camera.json").string());
    if (!camera) return R::Error(camera.error());
    observer.SetCamera(camera->K, camera->dist, camera->image_size);
  }
  return observer;
}

void Observer::SetCamera(const cv::Matx33d& K, const std::vector<double>& dist, cv::Size image_size) {
  cv::initUndistortRectifyMap(K, dist, cv::Mat(), K, image_size, CV_16SC2, undistort_x_, undistort_y_);
  camera_size_ = image_size;
}

Observer::Observer(calibration::BoardSetup setup, std::shared_ptr<const engine::Map> map, calibration::AppearanceModel model,
                   cv::Mat reference, const ObserverOptions& options)
    : setup_(std::move(setup)), map_(std::move(map)), model_(std::move(model)), options_(options) {
  reference_board_ = calibration::RectifyBoard(reference, setup_.pose.image_from_board, setup_.layout.board_mm, options_.px_per_mm);
  cv::Mat f;
  reference_board_.convertTo(f, CV_32FC3, 1.0 / 255);
  cv::cvtColor(f, reference_lab_, cv::COLOR_BGR2Lab);
  reference_board_.convertTo(reference_bgr_f_, CV_32FC3);
  region_labels_ = calibration::RasterizeLayout(setup_.layout, options_.px_per_mm);
  reference_ring_ = WarpEdgeRing(reference, setup_.pose.image_from_board, setup_.layout.board_mm);
  if (!setup_.layout.markers) features_ = std::make_shared<calibration::FeatureRegistration>(reference, setup_.pose.image_from_board);
}

Observation Observer::ObserveFile(const std::string& path, const std::string& name) {
  const auto start = Clock::now();
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) {
    reason_ = "cannot read the file";
    return Empty(name, Status::kBadImage, map_->size());
  }
  if (size == 0) {
    reason_ = "the file is empty";
    return Empty(name, Status::kBadImage, map_->size());
  }
  cv::Mat frame = cv::imread(path, cv::IMREAD_UNCHANGED);
  const double decode = Ms(start, Clock::now());
  if (frame.empty()) {
    reason_ = "not a readable image (unknown format or truncated)";
    return Empty(name, Status::kBadImage, map_->size());
  }
  Observation o = Observe(frame, name);
  times_.decode = decode;
  return o;
}

Observation Observer::Observe(const cv::Mat& input, const std::string& name) {
  const auto start = Clock::now();
  times_ = {};
  instances_.clear();
  reason_.clear();
  const int regions = map_->size();
  // Frames the pipeline cannot use are refused with a reason, never a crash.
  if (input.empty() || input.cols < 64 || input.rows < 64) {
    reason_ = "the image is too small (" + std::to_string(input.cols) + "x" + std::to_string(input.rows) + "; at least 64x64)";
    return Empty(name, Status::kBadImage, regions);
  }
  if (input.cols > kMaxImageSide || input.rows > kMaxImageSide) {
    reason_ = "the image is larger than " + std::to_string(kMaxImageSide) + " pixels a side";
    return Empty(name, Status::kBadImage, regions);
  }
  cv::Mat frame;
  if (input.depth() != CV_8U) {
    reason_ = "expected 8 bits per channel";
    return Empty(name, Status::kBadImage, regions);
  }
  if (input.channels() == 3) frame = input;
  else if (input.channels() == 4) cv::cvtColor(input, frame, cv::COLOR_BGRA2BGR);
  else if (input.channels() == 1) cv::cvtColor(input, frame, cv::COLOR_GRAY2BGR);
  else {
    reason_ = "expected a colour image (" + std::to_string(input.channels()) + " channels)";
    return Empty(name, Status::kBadImage, regions);
  }
  cv::Scalar mean, stddev;
  cv::meanStdDev(frame, mean, stddev);
  if (stddev[0] + stddev[1] + stddev[2] < 3) {
    reason_ = "the image is blank (one flat colour)";
    return Empty(name, Status::kBadImage, regions);
  }

  // 0. Undistort, when the camera is calibrated.
  if (!undistort_x_.empty()) {
    if (frame.size() != camera_size_) {
      reason_ = "the frame is " + std::to_string(frame.cols) + "x" + std::to_string(frame.rows) + ", the camera was calibrated at " +
                std::to_string(camera_size_.width) + "x" + std::to_string(camera_size_.height);
      return Empty(name, Status::kBadImage, regions);
    }
    cv::Mat undistorted;
    cv::remap(frame, undistorted, undistort_x_, undistort_y_, cv::INTER_LINEAR);
    frame = undistorted;
  }

  // 1. Register.
  auto t = Clock::now();
  auto pose = RegisterFrame(frame, setup_.layout, features_.get());
  times_.register_ = Ms(t, Clock::now());
  if (!pose) {
    reason_ = pose.error();
    return Empty(name, Status::kNoBoard, regions);
  }

  // 2-3a. Board coordinates, light matched to the reference.
  t = Clock::now();
  const Rectified rect = RectifyAndMatch(frame, pose->image_from_board, setup_.layout.board_mm, options_.px_per_mm, reference_bgr_f_);
  times_.rectify = Ms(t, Clock::now());
  if (debug_) debug_("1-rectified", rect.bgr), debug_("1-matched", rect.matched);

  // 3b. Foreground.
  t = Clock::now();
  const Foreground fg = FindForeground(rect, reference_lab_, options_.px_per_mm, options_.foreground_threshold);
  if (debug_) debug_("2-foreground", fg.mask);

  // 2. Gate: arms or a light change mean motion; nothing else is reported.
  std::string why;
  TableWatch table;
  if (cv::countNonZero(reference_ring_.valid) > 0) {
    const EdgeRing ring = WarpEdgeRing(frame, pose->image_from_board, setup_.layout.board_mm);
    table = WatchTable(ring, reference_ring_);
    if (debug_) {
      cv::Mat vis = ring.bgr.clone();
      vis.setTo(cv::Scalar(0, 0, 255), table.change);
      debug_("2-table-ring", vis);
    }
  }
  const bool motion = IsMotion(fg, options_.px_per_mm, options_.motion_area_mm2, table, &why);
  times_.gate = Ms(t, Clock::now());
  if (motion) {
    reason_ = why;
    Observation o = Empty(name, Status::kMotion, regions);
    times_.total = Ms(start, Clock::now());
    o.ms = times_.total;
    return o;
  }

  // 3c. Instances.
  t = Clock::now();
  instances_ = FindInstances(fg, options_.px_per_mm, region_labels_);
  times_.detect = Ms(t, Clock::now()) + times_.gate;

  // 4. Classify and count.
  t = Clock::now();
  ClassifyInstances(instances_, rect, fg.glare, options_.px_per_mm, model_);
  Observation o = CountRegions(instances_, *map_, fg.glare, region_labels_, options_.min_confidence);
  times_.classify = Ms(t, Clock::now());
  if (debug_) {
    cv::Mat vis = rect.bgr.clone();
    for (const Instance& i : instances_) {
      const cv::Point c(cvRound(i.centre_mm.x * options_.px_per_mm), cvRound(i.centre_mm.y * options_.px_per_mm));
      cv::circle(vis, c, cvRound(i.radius_mm * options_.px_per_mm), cv::Scalar(0, 0, 255), 1, cv::LINE_AA);
      cv::putText(vis, i.kind.substr(0, 6), c + cv::Point(-12, 4), cv::FONT_HERSHEY_PLAIN, 0.8, cv::Scalar(255, 255, 255), 1, cv::LINE_AA);
    }
    debug_("3-instances", vis);
  }
  o.image = name;
  o.status = Status::kOk;
  times_.total = Ms(start, Clock::now());
  o.ms = times_.total;
  return o;
}

}  // namespace swref::vision
