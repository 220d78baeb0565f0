#include "vision/observer.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/intrinsics.h"
#include "engine/json_input.h"

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

std::string PrepareFrame(const cv::Mat& input, cv::Mat* frame) {
  if (input.empty() || input.cols < 64 || input.rows < 64) {
    return "the image is too small (" + std::to_string(input.cols) + "x" + std::to_string(input.rows) + "; at least 64x64)";
  }
  if (input.cols > kMaxImageSide || input.rows > kMaxImageSide) return "the image is larger than " + std::to_string(kMaxImageSide) + " pixels a side";
  if (input.depth() != CV_8U) return "expected 8 bits per channel";
  if (input.channels() == 3) *frame = input;
  else if (input.channels() == 4) cv::cvtColor(input, *frame, cv::COLOR_BGRA2BGR);
  else if (input.channels() == 1) cv::cvtColor(input, *frame, cv::COLOR_GRAY2BGR);
  else return "expected a colour image (" + std::to_string(input.channels()) + " channels)";
  // Judged on every fourth row (a view of the frame, no copy): a whole 1080p frame's statistics cost 2 ms, a
  // tenth of the per-frame path's budget, and a blank frame is blank in any of its rows.
  const cv::Mat rows(frame->rows / 4, frame->cols, frame->type(), frame->data, frame->step[0] * 4);
  cv::Scalar mean, stddev;
  cv::meanStdDev(rows, mean, stddev);
  if (stddev[0] + stddev[1] + stddev[2] < 3) return "the image is blank (one flat colour)";
  return "";
}

engine::Result<Observer> Observer::Load(const std::string& setup_dir, const ObserverOptions& options) {
  using R = engine::Result<Observer>;
  auto setup = calibration::ReadSetup(setup_dir);
  if (!setup) return R::Error(setup.error());
  auto map = engine::LoadMap(setup->map, setup_dir);
  if (!map) return R::Error(map.error());
  const fs::path model_path = fs::path(setup_dir) / "tokens" / "model.json";
  if (!std::ifstream(model_path)) return R::Error(model_path.string() + ": no token model; enroll the tokens first (`swref enroll --setup " + setup_dir + " ...`)");
  auto doc = engine::ReadJsonFile(model_path, engine::kMaxTokenModelBytes, "token model");
  if (!doc) return R::Error(doc.error());
  auto model = calibration::TokenModel::FromJson(*doc, model_path.string());
  if (!model) return R::Error(model.error());
  const fs::path ref_path = fs::path(setup_dir) / "reference.png";
  auto reference = calibration::ReadImageFile(ref_path.string(), calibration::ImageRead::kColor);
  if (!reference) return R::Error(reference.error());
  const bool has_camera = setup->has_camera;
  Observer observer(std::move(*setup), *map, std::move(*model), std::move(*reference), options);
  if (has_camera) {
    auto camera = calibration::ReadCameraFile((fs::path(setup_dir) / "camera.json").string());
    if (!camera) return R::Error(camera.error());
    observer.SetCamera(camera->K, camera->dist, camera->image_size);
  }
  return observer;
}

void Observer::SetCamera(const cv::Matx33d& K, const std::vector<double>& dist, cv::Size image_size) {
  K_ = K;
  dist_ = dist;
  camera_size_ = image_size;
  frame_pose_ = {};
  pose_check_.Clear();
  still_scene_.reset();
}

std::vector<cv::Point2d> Observer::CheckAnchors() const {
  // The markers' centres, or without markers points 30 mm in from the board's corners.
  std::vector<cv::Point2d> board_pts;
  if (setup_.layout.markers) {
    const double h = setup_.layout.markers->size_mm / 2;
    for (const auto& [id, c] : setup_.layout.markers->corners) board_pts.emplace_back(c.x + h, c.y + h);
  } else {
    const cv::Size2d b = setup_.layout.board_mm;
    board_pts = {{30, 30}, {b.width - 30, 30}, {b.width - 30, b.height - 30}, {30, b.height - 30}};
  }
  std::vector<cv::Point2d> px;
  for (const cv::Point2d& p : board_pts) px.push_back(ProjectToFrame(frame_pose_.pose.image_from_board, K_, dist_, p));
  return px;
}

Observer::Observer(calibration::BoardSetup setup, std::shared_ptr<const engine::Map> map, calibration::TokenModel model, cv::Mat reference,
                   const ObserverOptions& options)
    : setup_(std::move(setup)), map_(std::move(map)), model_(std::move(model)), options_(options) {
  // The reference photo is undistorted (setup did it): its maps need no lens.
  FramePose ref;
  ref.pose = setup_.pose;
  MakeBoardMaps(ref, setup_.layout.board_mm, cv::Matx33d::eye(), {});
  cv::remap(reference, reference_board_, ref.map1, ref.map2, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  reference_lab_ = calibration::MatchLab(reference_board_);
  reference_foreground_ = MakeForegroundReference(reference_board_);
  reference_small_ = LightReference(reference_board_);
  reference_cells_ = GlareCells(reference_board_);
  reference_half_lab_ = OutlineLab(reference_board_);
  marker_stickers_ = MarkerStickers(setup_.layout, reference_board_.size());
  region_labels_ = calibration::RasterizeLayout(setup_.layout, kBoardPxPerMm);
  reference_glare_ = ReferenceGlare(reference_board_, region_labels_);
  const EdgeRing ring = WarpEdgeRing(reference, ref, setup_.layout.board_mm, cv::Matx33d::eye(), {});
  ring_reference_ = ring.bgr;
  ring_valid_ = ring.valid;
  if (!setup_.layout.markers) features_ = std::make_shared<calibration::FeatureRegistration>(reference, setup_.pose.image_from_board);
}

std::string Observer::NotTheCameraSize(cv::Size frame) const {
  return "the frame is " + std::to_string(frame.width) + "x" + std::to_string(frame.height) + ", the camera was calibrated at " +
         std::to_string(camera_size_.width) + "x" + std::to_string(camera_size_.height);
}

Observation Observer::ObserveFile(const std::string& path, const std::string& name) {
  const auto start = Clock::now();
  // The header's size is checked before decoding: a small file cannot make the decoder allocate a huge picture.
  // With a calibrated camera, the frame must have the camera's size (or its transpose: a JPEG's EXIF orientation
  // may turn it), so a frame of another size is refused from its header, before the decoder spends time and memory
  // on it. Observe() checks the decoded size exactly.
  auto bad = [&](std::string why) {
    reason_ = std::move(why);
    return Empty(name, Status::kBadImage, map_->size());
  };
  auto bytes = engine::ReadFileBytes(path, calibration::kMaxImageFileBytes, "image");
  if (!bytes) return bad(bytes.error());
  if (!dist_.empty()) {
    auto header = calibration::PeekImageHeader(*bytes, path);
    if (!header) return bad(header.error());
    const cv::Size s = header->size;
    if (s != camera_size_ && cv::Size(s.height, s.width) != camera_size_) {
      return bad(NotTheCameraSize(s));
    }
  }
  auto frame = calibration::DecodeImage(*bytes, calibration::ImageRead::kUnchanged, path, kMaxImageSide);
  const double decode = Ms(start, Clock::now());
  if (!frame) return bad(frame.error());
  Observation o = Observe(*frame, name);
  times_.decode = decode;
  return o;
}

std::string Observer::RestorePose(const calibration::BoardPose& pose, const cv::Mat& input) {
  cv::Mat frame;
  if (std::string why = PrepareFrame(input, &frame); !why.empty()) return why;
  frame_pose_.pose = pose;
  MakeBoardMaps(frame_pose_, setup_.layout.board_mm, K_, dist_);
  frame_pose_.ring1.release();
  pose_check_.Reset(frame, CheckAnchors());
  possible_stacks_.clear();
  still_scene_.reset();
  return "";
}

Observation Observer::Observe(const cv::Mat& input, const std::string& name) {
  const auto start = Clock::now();
  times_ = {};
  instances_.clear();
  changed_regions_.clear();
  reason_.clear();
  const int regions = map_->size();
  cv::Mat frame;
  if (std::string why = PrepareFrame(input, &frame); !why.empty()) {
    reason_ = why;
    return Empty(name, Status::kBadImage, regions);
  }
  if (!dist_.empty() && frame.size() != camera_size_) {
    reason_ = NotTheCameraSize(frame.size());
    return Empty(name, Status::kBadImage, regions);
  }

  // 1. Register: the board's pose in this frame, and the maps that take its pixels out of the frame. The cheap
  // check first: when the board has not moved, the pose and its maps stand.
  auto t = Clock::now();
  if (!pose_check_.Unchanged(frame)) {
    cv::Mat for_features = frame;
    if (features_ && !dist_.empty()) cv::undistort(frame, for_features, K_, dist_, K_);
    auto pose = RegisterFrame(for_features, setup_.layout, features_.get(), K_, features_ ? std::vector<double>{} : dist_);
    if (!pose) {
      pose_check_.Clear();
      times_.register_ = Ms(t, Clock::now());
      reason_ = pose.error();
      return Empty(name, Status::kNoBoard, regions);
    }
    ++registrations_;
    possible_stacks_.clear();  // the tokens are seen from elsewhere now, or it is another board
    still_scene_.reset();
    frame_pose_.pose = *pose;
    MakeBoardMaps(frame_pose_, setup_.layout.board_mm, K_, dist_);
    frame_pose_.ring1.release();
    pose_check_.Reset(frame, CheckAnchors());
  }
  times_.register_ = Ms(t, Clock::now());

  // 2. Rectify: board coordinates, the light matched to the reference's.
  t = Clock::now();
  const Rectified rect = Rectify(frame, frame_pose_, reference_small_, reference_cells_, reference_half_lab_, marker_stickers_, reference_board_);
  times_.rectify = Ms(t, Clock::now());
  if (debug_) {
    debug_("0-reference", reference_board_), debug_("1-rectified", rect.bgr), debug_("1-matched", rect.matched);
    double top = 0;
    cv::minMaxLoc(rect.outline_votes, nullptr, &top);
    cv::Mat votes;
    rect.outline_votes.convertTo(votes, CV_8U, 255.0 / std::max(top, 1.0));
    debug_("1-outline-votes", votes);
  }

  // 3. Foreground.
  t = Clock::now();
  const Foreground fg = FindForeground(rect, reference_foreground_, options_.foreground_threshold);
  times_.foreground = Ms(t, Clock::now());
  if (debug_) {
    cv::Mat vis;
    cv::merge(std::vector<cv::Mat>{fg.glare, fg.mask, fg.blind}, vis);  // foreground green, glare blue, blinded red
    debug_("2-foreground", vis);
  }

  // 4. Gate: arms over the board mean motion; nothing else is reported.
  t = Clock::now();
  TableWatch table;
  if (cv::countNonZero(ring_valid_) > 0) {
    const EdgeRing ring = WarpEdgeRing(frame, frame_pose_, setup_.layout.board_mm, K_, dist_);
    table = WatchTable(ring, EdgeRing{ring_reference_, ring_valid_}, rect.glare_colour);
    if (debug_) {
      cv::Mat vis = ring.bgr.clone();
      vis.setTo(cv::Scalar(0, 0, 255), table.change);
      debug_("2-table-ring", vis);
    }
  }
  std::string why;
  const bool motion = IsMotion(fg, options_.motion_area_mm2, table, &why);
  times_.gate = Ms(t, Clock::now());
  if (motion) {
    reason_ = why;
    Observation o = Empty(name, Status::kMotion, regions);
    times_.total = Ms(start, Clock::now());
    o.ms = times_.total;
    return o;
  }

  // 5. Instances: the foreground explained token by token; after a still frame from the same pose, only where the
  // board changed since (the rest keeps that frame's tokens).
  t = Clock::now();
  std::optional<Focus> focus;
  if (options_.incremental && still_scene_ && still_scene_->half_lab.size() == rect.half_lab.size()) {
    const cv::Mat changed_half = ChangedSince(rect.half_lab, still_scene_->half_lab);
    if (scene_run_ + 1 < options_.full_every) focus = FocusOnChanges(changed_half, *still_scene_, model_, region_labels_.size());
    changed_regions_ = RegionsChanged(changed_half, region_labels_, regions);
  }
  scene_run_ = focus ? scene_run_ + 1 : 0;
  cv::Mat unexplained;
  instances_ = FindInstances(rect, fg, reference_board_, reference_glare_, reference_lab_, model_, region_labels_, options_, &unexplained,
                             focus ? &*focus : nullptr);
  if (focus) times_.changed_share = focus->changed_share, times_.tokens_kept = static_cast<int>(focus->kept.size());
  // 6. Stacks, and the doubts of the last still frame kept.
  const cv::Point3d camera = CameraOverBoard(frame_pose_.pose.image_from_board, dist_.empty() ? nullptr : &K_, frame.size());
  std::vector<StackMeasure> measures;
  if (focus) measures = KeptStackMeasures(*focus, *still_scene_, instances_, model_, region_labels_.size());
  std::vector<Instance> found;  // as FindInstances gave them, for the next frame (incremental observation)
  if (options_.incremental) found = instances_;
  JudgeStacks(instances_, rect, fg, reference_foreground_.lab, model_, camera, &measures);
  if (options_.incremental) still_scene_ = StillScene{rect.half_lab, std::move(found), std::move(measures), unexplained};
  possible_stacks_ = KeepStackDoubts(instances_, possible_stacks_);
  times_.instances = Ms(t, Clock::now());

  // 7. Count every region.
  t = Clock::now();
  Observation o =
      CountRegions(instances_, *map_, region_labels_, FrameDoubts{fg.blind, fg.glare, unexplained, fg.washed}, options_.min_confidence);
  times_.count = Ms(t, Clock::now());
  if (debug_) {
    cv::Mat vis = rect.bgr.clone();
    cv::Mat outline = cv::Mat::zeros(vis.size(), CV_8U);
    for (const Instance& i : instances_) {
      if (const auto* k = model_.Find(i.kind)) PaintFootprint(*k, i.centre_mm, i.rotation_rad, outline);
    }
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(outline, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    cv::drawContours(vis, contours, -1, cv::Scalar(0, 0, 255), 1, cv::LINE_AA);
    vis.setTo(cv::Scalar(255, 0, 255), unexplained);
    for (const Instance& i : instances_) {
      const cv::Point c(cvRound(i.centre_mm.x * kBoardPxPerMm), cvRound(i.centre_mm.y * kBoardPxPerMm));
      const cv::Scalar colour = i.confidence < options_.min_confidence ? cv::Scalar(0, 140, 255) : cv::Scalar(255, 255, 255);
      cv::putText(vis, i.kind.substr(0, 6) + (i.stack_unsure ? "+" : ""), c + cv::Point(-14, 4), cv::FONT_HERSHEY_PLAIN, 0.8, colour, 1, cv::LINE_AA);
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
