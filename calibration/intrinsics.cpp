#include "calibration/intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "calibration/markers.h"
#include "engine/json_input.h"

namespace swref::calibration {

int CameraModel::used_views() const {
  return static_cast<int>(std::count_if(views.begin(), views.end(), [](const ViewReport& v) { return v.used; }));
}

namespace {

using CameraResult = engine::Result<CameraModel>;

template <typename... Args>
std::string Format(const char* format, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

std::string FileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// The target's corners in one photo: where they lie on the board (mm, z = 0) and where they appear (px).
struct Corners {
  std::vector<cv::Point3f> board;
  std::vector<cv::Point2f> image;
};

// Looks for the target in a grey photo: "" with `out` filled, or the reason the photo cannot be used.
using FindTarget = std::function<std::string(const cv::Mat& gray, Corners* out)>;

// ---- Finding the targets --------------------------------------------------------------------------------------

FindTarget ChessboardFinder(cv::Size pattern, double square_mm, int detect_max_side) {
  Corners grid;
  for (int y = 0; y < pattern.height; ++y)
    for (int x = 0; x < pattern.width; ++x)
      grid.board.emplace_back(static_cast<float>(x * square_mm), static_cast<float>(y * square_mm), 0.f);
  return [=](const cv::Mat& gray, Corners* out) -> std::string {
    // findChessboardCornersSB's time grows with the pixel count (0.4 s at 640x480, 14 s at 4000x3000), so a large
    // photo is searched at half size, as often as needed, and its corners are refined at full size afterwards.
    cv::Mat small = gray;
    int scale = 1;
    while (std::max(small.cols, small.rows) > detect_max_side) {
      cv::pyrDown(small, small);
      scale *= 2;
    }
    std::vector<cv::Point2f> corners;
    bool found = false;
    const int tries[] = {cv::CALIB_CB_ACCURACY, cv::CALIB_CB_ACCURACY | cv::CALIB_CB_NORMALIZE_IMAGE};
    for (int flags : tries)
      if ((found = cv::findChessboardCornersSB(small, pattern, corners, flags))) break;
    if (!found) return Format("no chessboard of %dx%d inner corners found", pattern.width, pattern.height);
    if (scale > 1) {
      // The refinement window stays within a third of the closest corner spacing so that it never reaches into
      // the neighbouring corner.
      double spacing = 1e9;
      for (int y = 0; y < pattern.height; ++y)
        for (int x = 0; x < pattern.width; ++x) {
          const cv::Point2f p = corners[y * pattern.width + x];
          if (x + 1 < pattern.width) spacing = std::min(spacing, cv::norm(p - corners[y * pattern.width + x + 1]));
          if (y + 1 < pattern.height) spacing = std::min(spacing, cv::norm(p - corners[(y + 1) * pattern.width + x]));
        }
      for (cv::Point2f& p : corners)
        p = (p + cv::Point2f(0.5f, 0.5f)) * static_cast<float>(scale) - cv::Point2f(0.5f, 0.5f);
      const int half = std::clamp(static_cast<int>(spacing * scale / 3), 2, 15);
      cv::cornerSubPix(gray, corners, {half, half}, {-1, -1},
                       {cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 0.01});
    }
    *out = grid;
    out->image = std::move(corners);
    return "";
  };
}

// True when the board points span a plane: all on one line, they give no homography to start calibrating from.
bool SpansPlane(const std::vector<cv::Point3f>& points, double square_mm) {
  if (points.size() < 3) return false;
  const cv::Point2f a(points[0].x, points[0].y);
  cv::Point2f b = a;
  for (const cv::Point3f& p : points)
    if (cv::norm(cv::Point2f(p.x, p.y) - a) > cv::norm(b - a)) b = {p.x, p.y};
  for (const cv::Point3f& p : points)
    if (std::abs((b - a).cross(cv::Point2f(p.x, p.y) - a)) > 0.5 * square_mm * square_mm) return true;
  return false;
}

FindTarget CharucoFinder(const cv::Ptr<cv::aruco::CharucoBoard>& board, const std::string& dictionary_name,
                         double square_mm, int min_corners) {
  return [=](const cv::Mat& gray, Corners* out) -> std::string {
    std::vector<std::vector<cv::Point2f>> marker_corners;
    std::vector<int> marker_ids;
    // Markers of the same dictionary that are not on this board (another target in view) would confuse the
    // interpolation: keep the board's own.
    for (const Marker& m : DetectMarkers(gray, board->dictionary)) {
      if (std::find(board->ids.begin(), board->ids.end(), m.id) == board->ids.end()) continue;
      marker_ids.push_back(m.id);
      marker_corners.emplace_back(m.corners.begin(), m.corners.end());
    }
    if (marker_ids.empty()) return "no marker of the ChArUco board found (" + dictionary_name + ")";
    std::vector<cv::Point2f> corners;
    std::vector<int> ids;
    cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, gray, board, corners, ids);
    const int total = static_cast<int>(board->chessboardCorners.size());
    if (static_cast<int>(ids.size()) < min_corners)
      return Format("only %d of %d ChArUco corners (need %d)", static_cast<int>(ids.size()), total, min_corners);
    // What calibrateCameraCharuco() does: each corner id stands for its board position.
    out->board.clear();
    for (int id : ids) out->board.push_back(board->chessboardCorners[id]);
    if (!SpansPlane(out->board, square_mm))
      return Format("the %d ChArUco corners found lie on one line", static_cast<int>(ids.size()));
    out->image = std::move(corners);
    return "";
  };
}

// ---- Fitting the camera ---------------------------------------------------------------------------------------

struct Fit {
  cv::Matx33d K;
  std::vector<double> dist;
  double rms = 0;
  std::vector<double> view_errors;  // per view given, same order
  cv::Vec4d sd;                     // fx, fy, cx, cy
  bool fixed_aspect = false;
  std::string note;  // why the aspect ratio is fixed or free
};

engine::Result<Fit> Solve(const std::vector<const Corners*>& views, cv::Size size, bool fixed_aspect) {
  std::vector<std::vector<cv::Point3f>> board;
  std::vector<std::vector<cv::Point2f>> image;
  for (const Corners* v : views) {
    board.push_back(v->board);
    image.push_back(v->image);
  }
  // With CALIB_FIX_ASPECT_RATIO OpenCV keeps the ratio fx/fy of the matrix given: the identity gives square pixels.
  cv::Mat K = cv::Mat::eye(3, 3, CV_64F), dist, sd_intrinsics, sd_extrinsics, per_view;
  std::vector<cv::Mat> rvecs, tvecs;
  Fit fit;
  fit.fixed_aspect = fixed_aspect;
  try {
    fit.rms = cv::calibrateCamera(board, image, size, K, dist, rvecs, tvecs, sd_intrinsics, sd_extrinsics, per_view,
                                  fixed_aspect ? cv::CALIB_FIX_ASPECT_RATIO : 0);
  } catch (const cv::Exception& e) {
    return engine::Result<Fit>::Error("OpenCV could not calibrate from these views: " + e.err);
  }
  if (!std::isfinite(fit.rms) || !cv::checkRange(K))
    return engine::Result<Fit>::Error("the calibration did not converge (the views may be too alike)");
  fit.K = cv::Matx33d(K.ptr<double>());
  dist.reshape(1, 1).copyTo(fit.dist);
  per_view.reshape(1, 1).copyTo(fit.view_errors);
  for (int i = 0; i < 4; ++i) fit.sd[i] = sd_intrinsics.at<double>(i);
  if (fixed_aspect) fit.sd[0] = fit.sd[1];  // fx is tied to fy: OpenCV reports its deviation under fy alone
  return fit;
}

// Calibrates with the aspect ratio the options ask for; for kAuto, fixes fx = fy only when a free fit shows
// square pixels: both focal lengths measured to 1 % and equal within 2 sigma (see intrinsics.h).
engine::Result<Fit> FitCamera(const std::vector<const Corners*>& views, cv::Size size, AspectRatio aspect) {
  if (aspect != AspectRatio::kAuto) {
    auto fit = Solve(views, size, aspect == AspectRatio::kFixed);
    if (fit)
      fit->note = aspect == AspectRatio::kFixed ? "fx = fy imposed (as asked)" : "fx and fy left free (as asked)";
    return fit;
  }
  auto free_fit = Solve(views, size, false);
  if (!free_fit) return free_fit;
  const double fx = free_fit->K(0, 0), fy = free_fit->K(1, 1);
  // The uncertainty of fx - fy, taking them as independent: they are positively correlated, so this errs on the
  // side of calling them equal, which the 1 % precision demanded first keeps harmless.
  const double sigma = std::hypot(free_fit->sd[0], free_fit->sd[1]);
  const double relative = std::max(free_fit->sd[0] / fx, free_fit->sd[1] / fy);
  if (relative > 0.01) {
    free_fit->note = Format(
        "fx and fy left free: these photos measure them only to +-%.1f px (%.1f %%); more photos, tilted "
        "20-45 degrees in different directions, would pin them down",
        std::max(free_fit->sd[0], free_fit->sd[1]), 100 * relative);
    return free_fit;
  }
  if (std::abs(fx - fy) > 2 * sigma) {
    free_fit->note =
        Format("fx and fy left free: they differ by %.1f px, more than twice their uncertainty (+-%.1f px)",
               std::abs(fx - fy), sigma);
    return free_fit;
  }
  auto fixed = Solve(views, size, true);
  if (!fixed) return fixed;
  fixed->note =
      Format("fx = fy imposed: a free fit found fx %.2f and fy %.2f px, equal within their uncertainty (+-%.1f px)", fx,
             fy, sigma);
  return fixed;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Reads every photo, finds the target, drops what cannot be used, calibrates, drops outliers once and calibrates
// again. `target` names the target in messages ("the chessboard").
CameraResult Calibrate(const std::vector<std::string>& files, const std::string& target, const FindTarget& find,
            const CalibrationOptions& options) {
  if (files.empty()) return CameraResult::Error("no photos given");
  // Check every file before the slow part, so that a typo fails at once.
  for (const std::string& file : files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return CameraResult::Error(file + ": no such file");
    if (!LooksLikeImage(file)) return CameraResult::Error(file + ": not a PNG or JPEG image");
  }
  const int n = static_cast<int>(files.size());
  CameraModel model;
  model.views.resize(n);
  std::vector<Corners> found(n);
  std::vector<cv::Size> sizes(n);
  std::map<std::pair<int, int>, int> size_count;
  for (int i = 0; i < n; ++i) {
    ViewReport& view = model.views[i];
    view.file = files[i];
    auto read = ReadImageFile(files[i], ImageRead::kGray);
    if (!read) return CameraResult::Error(read.error());
    const cv::Mat gray = std::move(*read);
    sizes[i] = gray.size();
    ++size_count[{gray.cols, gray.rows}];
    view.reason = find(gray, &found[i]);
    view.used = view.reason.empty();
    view.corners = view.used ? static_cast<int>(found[i].image.size()) : 0;
    if (options.progress) options.progress(i + 1, n);
  }

  // One camera mode: the size most photos share (the first such photo's on a tie) is the camera's.
  int best = 0;
  for (int i = 0; i < n; ++i)
    if (const int c = size_count[{sizes[i].width, sizes[i].height}]; c > best) {
      best = c;
      model.image_size = sizes[i];
    }
  std::vector<std::string> found_in;
  int other_size = 0;
  std::vector<int> used;
  for (int i = 0; i < n; ++i) {
    ViewReport& view = model.views[i];
    if (view.used) found_in.push_back(FileName(files[i]));
    if (sizes[i] != model.image_size) {
      other_size += view.used ? 1 : 0;
      view.used = false;
      view.reason = Format("image size %dx%d differs from %dx%d (most photos)", sizes[i].width, sizes[i].height,
                           model.image_size.width, model.image_size.height);
    }
    if (view.used) used.push_back(i);
  }
  const int min_views = std::max(1, options.min_views);
  if (static_cast<int>(used.size()) < min_views) {
    std::string message = Format("need at least %d views with %s found; found it in %d of %d", min_views,
                                 target.c_str(), static_cast<int>(found_in.size()), n);
    for (size_t k = 0; k < found_in.size(); ++k) message += (k ? ", " : ": ") + found_in[k];
    if (other_size > 0)
      message += Format(" (%d of them with another image size than %dx%d)", other_size, model.image_size.width,
                        model.image_size.height);
    return CameraResult::Error(message);
  }

  auto views_of = [&](const std::vector<int>& indices) {
    std::vector<const Corners*> v;
    for (int i : indices) v.push_back(&found[i]);
    return v;
  };
  auto fit = FitCamera(views_of(used), model.image_size, options.aspect);
  if (!fit) return CameraResult::Error(fit.error());

  // One outlier pass: a view far worse than the typical one (a wrong corner order, motion blur, a bent print).
  const double median = Median(fit->view_errors);
  std::vector<int> kept;
  std::string dropped;
  for (size_t k = 0; k < used.size(); ++k) {
    const double e = fit->view_errors[k];
    ViewReport& view = model.views[used[k]];
    view.error_px = e;
    if (e > options.outlier_factor * median && e > options.outlier_min_px) {
      view.used = false;
      view.reason = Format("per-view error %.2f px > %gx median %.2f px", e, options.outlier_factor, median);
      dropped += (dropped.empty() ? "" : "; ") + FileName(view.file) + ": " + view.reason;
    } else {
      kept.push_back(used[k]);
    }
  }
  if (kept.size() != used.size()) {
    if (static_cast<int>(kept.size()) < min_views)
      return CameraResult::Error(Format("only %d views left after dropping outliers (", static_cast<int>(kept.size())) + dropped +
                      Format("); need at least %d", min_views));
    fit = FitCamera(views_of(kept), model.image_size, options.aspect);
    if (!fit) return CameraResult::Error(fit.error());
    for (size_t k = 0; k < kept.size(); ++k) model.views[kept[k]].error_px = fit->view_errors[k];
  }

  model.K = fit->K;
  model.dist = fit->dist;
  model.rms = fit->rms;
  model.sd = fit->sd;
  model.fixed_aspect = fit->fixed_aspect;
  model.notes.push_back(fit->note);
  if (!dropped.empty()) model.notes.push_back("dropped as outliers and calibrated again: " + dropped);
  return model;
}

}  // namespace

CameraResult CalibrateChessboard(const std::vector<std::string>& files, cv::Size inner_corners, double square_mm,
                      const CalibrationOptions& options) {
  // findChessboardCornersSB needs at least 3 corners each way.
  if (inner_corners.width < 3 || inner_corners.height < 3)
    return CameraResult::Error(
        Format("chessboard %dx%d: expected at least 3x3 inner corners", inner_corners.width, inner_corners.height));
  if (!(square_mm > 0)) return CameraResult::Error("square size: expected a positive number of mm");
  return Calibrate(files, "the chessboard",
                   ChessboardFinder(inner_corners, square_mm, std::max(64, options.detect_max_side)), options);
}

CameraResult CalibrateCharuco(const std::vector<std::string>& files, int squares_x, int squares_y, double square_mm,
                   double marker_mm, const std::string& dictionary, const CalibrationOptions& options) {
  if (squares_x < 2 || squares_y < 2)
    return CameraResult::Error(Format("ChArUco board %dx%d: expected at least 2x2 squares", squares_x, squares_y));
  const int corners = (squares_x - 1) * (squares_y - 1);
  if (corners < options.min_charuco_corners)
    return CameraResult::Error(Format("ChArUco board %dx%d: its %d inner corners are fewer than the %d a view needs", squares_x,
                           squares_y, corners, options.min_charuco_corners));
  if (!(square_mm > 0)) return CameraResult::Error("square size: expected a positive number of mm");
  if (!(marker_mm > 0 && marker_mm < square_mm))
    return CameraResult::Error("marker size: expected a positive number of mm, smaller than the square");
  auto dict = LoadDictionary(dictionary);
  if (!dict) return CameraResult::Error(dict.error());
  const int markers = squares_x * squares_y / 2;  // the white squares hold the markers, ids 0..markers-1
  if ((*dict)->bytesList.rows < markers)
    return CameraResult::Error(Format("dictionary %s has %d markers; a %dx%d ChArUco board needs %d", dictionary.c_str(),
                           (*dict)->bytesList.rows, squares_x, squares_y, markers));
  const auto board = cv::aruco::CharucoBoard::create(squares_x, squares_y, static_cast<float>(square_mm),
                                                     static_cast<float>(marker_mm), *dict);
  return Calibrate(files, "the ChArUco board", CharucoFinder(board, dictionary, square_mm, options.min_charuco_corners),
                   options);
}

TargetCorners FindChessboardCorners(const cv::Mat& gray, cv::Size inner_corners, double square_mm, int detect_max_side) {
  TargetCorners out;
  if (inner_corners.width < 3 || inner_corners.height < 3) return {{}, "expected at least 3x3 inner corners"};
  Corners c;
  out.reason = ChessboardFinder(inner_corners, square_mm, std::max(64, detect_max_side))(gray, &c);
  if (out.found()) out.image = std::move(c.image);
  return out;
}

TargetCorners FindCharucoCorners(const cv::Mat& gray, int squares_x, int squares_y, double square_mm, double marker_mm,
                                 const std::string& dictionary, int min_corners) {
  if (squares_x < 2 || squares_y < 2 || !(marker_mm > 0 && marker_mm < square_mm)) return {{}, "not a usable ChArUco board"};
  auto dict = LoadDictionary(dictionary);
  if (!dict) return {{}, dict.error()};
  if ((*dict)->bytesList.rows < squares_x * squares_y / 2) return {{}, "the dictionary has too few markers for the board"};
  const auto board =
      cv::aruco::CharucoBoard::create(squares_x, squares_y, static_cast<float>(square_mm), static_cast<float>(marker_mm), *dict);
  TargetCorners out;
  Corners c;
  out.reason = CharucoFinder(board, dictionary, square_mm, min_corners)(gray, &c);
  if (out.found()) out.image = std::move(c.image);
  return out;
}

// ---- camera.json ----------------------------------------------------------------------------------------------

nlohmann::ordered_json ToJson(const CameraModel& m) {
  nlohmann::ordered_json j;
  j["format"] = kCameraFormat;
  j["image_size"] = {m.image_size.width, m.image_size.height};
  j["fx"] = m.fx();
  j["fy"] = m.fy();
  j["cx"] = m.cx();
  j["cy"] = m.cy();
  j["dist"] = m.dist;
  j["rms"] = m.rms;
  j["aspect_ratio"] = m.fixed_aspect ? "fixed" : "free";
  j["sd"] = {{"fx", m.sd[0]}, {"fy", m.sd[1]}, {"cx", m.sd[2]}, {"cy", m.sd[3]}};
  j["views"] = nlohmann::ordered_json::array();
  for (const ViewReport& v : m.views) {
    nlohmann::ordered_json view = {{"file", v.file}, {"used", v.used}};
    view["error_px"] = v.error_px ? nlohmann::ordered_json(*v.error_px) : nlohmann::ordered_json(nullptr);
    view["corners"] = v.corners;
    if (!v.reason.empty()) view["reason"] = v.reason;
    j["views"].push_back(view);
  }
  return j;
}

CameraResult ParseCamera(const nlohmann::json& doc, const std::string& where) {
  using nlohmann::json;
  if (!doc.is_object()) return CameraResult::Error(where + ": expected a JSON object");
  if (!doc.contains("format") || !doc["format"].is_string() || doc["format"].get<std::string>() != kCameraFormat)
    return CameraResult::Error(where + ".format: expected \"" + kCameraFormat + "\"");
  CameraModel m;
  const json* size = doc.contains("image_size") ? &doc["image_size"] : nullptr;
  auto side = [](const json& v) { return v.is_number_integer() && v.get<int64_t>() > 0 && v.get<int64_t>() <= kMaxImageSide; };
  if (!size || !size->is_array() || size->size() != 2 || !side((*size)[0]) || !side((*size)[1]))
    return CameraResult::Error(where + ".image_size: expected [width, height] in px, 1.." + std::to_string(kMaxImageSide) + " each");
  m.image_size = {(*size)[0].get<int>(), (*size)[1].get<int>()};
  auto number = [&](const char* key, bool positive, double* out) -> std::string {
    if (!doc.contains(key) || !doc[key].is_number() || !std::isfinite(doc[key].get<double>()) || (positive && doc[key].get<double>() <= 0))
      return where + "." + key + (positive ? ": expected a positive number" : ": expected a number");
    *out = doc[key].get<double>();
    return "";
  };
  const struct {
    const char* key;
    bool positive;
    double* out;
  } fields[] = {{"fx", true, &m.K(0, 0)},
                {"fy", true, &m.K(1, 1)},
                {"cx", false, &m.K(0, 2)},
                {"cy", false, &m.K(1, 2)},
                {"rms", false, &m.rms}};
  for (const auto& f : fields)
    if (auto e = number(f.key, f.positive, f.out); !e.empty()) return CameraResult::Error(e);
  if (m.rms < 0) return CameraResult::Error(where + ".rms: expected a number >= 0");
  if (!doc.contains("dist") || !doc["dist"].is_array() || doc["dist"].size() != 5)
    return CameraResult::Error(where + ".dist: expected [k1, k2, p1, p2, k3]");
  for (size_t k = 0; k < 5; ++k) {
    if (!doc["dist"][k].is_number() || !std::isfinite(doc["dist"][k].get<double>())) return CameraResult::Error(where + ".dist[" + std::to_string(k) + "]: expected a number");
    m.dist.push_back(doc["dist"][k].get<double>());
  }
  if (doc.contains("aspect_ratio")) {
    const std::string aspect = doc["aspect_ratio"].is_string() ? doc["aspect_ratio"].get<std::string>() : "";
    if (aspect != "fixed" && aspect != "free") return CameraResult::Error(where + ".aspect_ratio: expected \"fixed\" or \"free\"");
    m.fixed_aspect = aspect == "fixed";
  }
  if (doc.contains("sd")) {
    const json& sd = doc["sd"];
    if (!sd.is_object()) return CameraResult::Error(where + ".sd: expected {\"fx\", \"fy\", \"cx\", \"cy\"} in px");
    const char* keys[] = {"fx", "fy", "cx", "cy"};
    for (int i = 0; i < 4; ++i) {
      if (!sd.contains(keys[i]) || !sd[keys[i]].is_number() || !(sd[keys[i]].get<double>() >= 0) || !std::isfinite(sd[keys[i]].get<double>()))
        return CameraResult::Error(where + ".sd." + keys[i] + ": expected a number >= 0");
      m.sd[i] = sd[keys[i]].get<double>();
    }
  }
  if (doc.contains("views")) {
    if (!doc["views"].is_array()) return CameraResult::Error(where + ".views: expected an array");
    for (size_t i = 0; i < doc["views"].size(); ++i) {
      const std::string place = where + ".views[" + std::to_string(i) + "]";
      const json& v = doc["views"][i];
      ViewReport view;
      if (!v.is_object() || !v.contains("file") || !v["file"].is_string())
        return CameraResult::Error(place + ".file: expected a file name");
      view.file = v["file"].get<std::string>();
      if (!v.contains("used") || !v["used"].is_boolean()) return CameraResult::Error(place + ".used: expected true or false");
      view.used = v["used"].get<bool>();
      if (v.contains("error_px") && !v["error_px"].is_null()) {
        if (!v["error_px"].is_number() || !(v["error_px"].get<double>() >= 0) || !std::isfinite(v["error_px"].get<double>()))
          return CameraResult::Error(place + ".error_px: expected a number >= 0 or null");
        view.error_px = v["error_px"].get<double>();
      }
      if (v.contains("corners")) {
        if (!v["corners"].is_number_integer() || v["corners"].get<int64_t>() < 0 || v["corners"].get<int64_t>() > INT32_MAX)
          return CameraResult::Error(place + ".corners: expected an integer >= 0");
        view.corners = v["corners"].get<int>();
      }
      if (v.contains("reason")) {
        if (!v["reason"].is_string()) return CameraResult::Error(place + ".reason: expected a string");
        view.reason = v["reason"].get<std::string>();
      }
      m.views.push_back(view);
    }
  }
  return m;
}

CameraResult ReadCameraFile(const std::string& path) {
  auto doc = engine::ReadJsonFile(path, engine::kMaxJsonFileBytes, "camera file");
  if (!doc) return CameraResult::Error(doc.error());
  return ParseCamera(*doc, path);
}

std::string WriteCameraFile(const CameraModel& model, const std::string& path) {
  std::ofstream out(path);
  if (!out) return path + ": cannot write the camera file";
  out << ToJson(model).dump(2) << "\n";
  out.close();
  return out ? "" : path + ": cannot write the camera file";
}

}  // namespace swref::calibration
