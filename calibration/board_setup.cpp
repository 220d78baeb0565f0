#include "calibration/board_setup.h"

#include "calibration/intrinsics.h"

#include "calibration/image_io.h"
#include "engine/json_input.h"
#include "engine/map.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/video/tracking.hpp>
#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace fs = std::filesystem;
namespace {

template <typename T>
using R = engine::Result<T>;

std::vector<cv::Point2d> Apply(const cv::Matx33d& h, const std::vector<cv::Point2d>& pts) {
  std::vector<cv::Point2d> out;
  cv::perspectiveTransform(pts, out, cv::Mat(h));
  return out;
}

// Intersection of two lines given as (point, direction).
cv::Point2d Intersect(const cv::Vec4f& a, const cv::Vec4f& b) {
  const cv::Point2d p(a[2], a[3]), r(a[0], a[1]), q(b[2], b[3]), s(b[0], b[1]);
  const double den = r.x * s.y - r.y * s.x;
  if (std::abs(den) < 1e-9) return p;
  const double t = ((q.x - p.x) * s.y - (q.y - p.y) * s.x) / den;
  return p + r * t;
}

}  // namespace

const char* ToString(Registration r) {
  switch (r) {
    case Registration::kMarkers: return "markers";
    case Registration::kOutline: return "outline";
    case Registration::kFeatures: return "features";
  }
  return "?";
}

R<BoardPose> RegisterByMarkers(const cv::Mat& image, const LayoutMarkers& markers, const std::string& where) {
  if (markers.dictionary != "DICT_4X4_50") {
    return R<BoardPose>::Error(where + ": marker dictionary " + markers.dictionary + " is not supported (DICT_4X4_50)");
  }
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
  params->cornerRefinementMinAccuracy = 0.01;
  params->cornerRefinementMaxIterations = 100;
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(image, dict, corners, ids, params);
  std::vector<cv::Point2d> board_pts, image_pts;
  BoardPose pose;
  pose.mode = Registration::kMarkers;
  std::vector<int> missing;
  for (const auto& [id, at] : markers.corners) {
    const auto it = std::find(ids.begin(), ids.end(), id);
    if (it == ids.end()) {
      missing.push_back(id);
      continue;
    }
    const auto& c = corners[it - ids.begin()];
    const double s = markers.size_mm;
    const cv::Point2d bc[4] = {at, {at.x + s, at.y}, {at.x + s, at.y + s}, {at.x, at.y + s}};
    for (int k = 0; k < 4; ++k) board_pts.push_back(bc[k]), image_pts.push_back(c[k]);
    pose.markers_found.push_back(id);
  }
  if (pose.markers_found.size() < 3) {
    return R<BoardPose>::Error(where + ": found " + std::to_string(pose.markers_found.size()) + " of the 4 corner markers (missing " +
                               engine::IdList(missing) + "); at least 3 must be visible, or set up without markers");
  }
  const cv::Mat h = cv::findHomography(board_pts, image_pts, 0);
  if (h.empty()) return R<BoardPose>::Error(where + ": the markers do not give a usable board position");
  pose.image_from_board = cv::Matx33d(h);
  const auto back = Apply(pose.image_from_board, board_pts);
  double sq = 0;
  for (size_t i = 0; i < back.size(); ++i) sq += std::pow(cv::norm(back[i] - image_pts[i]), 2);
  pose.residual_px = std::sqrt(sq / back.size());
  return pose;
}

R<BoardPose> RegisterByOutline(const cv::Mat& image, cv::Size2d board_mm, const std::string& where) {
  cv::Mat grey;
  cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
  cv::GaussianBlur(grey, grey, cv::Size(5, 5), 0);
  // Board against table: a colour segmentation (GrabCut) on a small copy, seeded with the middle of the frame as
  // probably board and a thin frame along the image's edges as surely table (the board is photographed whole).
  const double scale = std::min(1.0, 480.0 / image.cols);
  cv::Mat small;
  cv::resize(image, small, cv::Size(), scale, scale, cv::INTER_AREA);
  cv::Mat mask(small.size(), CV_8U, cv::Scalar(cv::GC_PR_BGD));
  const int mx = small.cols / 4, my = small.rows / 4;
  mask(cv::Rect(mx, my, small.cols - 2 * mx, small.rows - 2 * my)).setTo(cv::GC_PR_FGD);
  const int edge = std::max(2, small.cols / 60);
  mask.rowRange(0, edge).setTo(cv::GC_BGD);
  mask.rowRange(small.rows - edge, small.rows).setTo(cv::GC_BGD);
  mask.colRange(0, edge).setTo(cv::GC_BGD);
  mask.colRange(small.cols - edge, small.cols).setTo(cv::GC_BGD);
  cv::Mat bgd, fgd;
  cv::grabCut(small, mask, cv::Rect(), bgd, fgd, 4, cv::GC_INIT_WITH_MASK);
  cv::Mat fg = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD);
  cv::morphologyEx(fg, fg, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(fg, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  std::vector<cv::Point> best;
  double best_area = 0.15 * small.total();
  for (const auto& c : contours) {
    std::vector<cv::Point> hull, quad;
    cv::convexHull(c, hull);
    cv::approxPolyDP(hull, quad, 0.03 * cv::arcLength(hull, true), true);
    const double area = cv::contourArea(quad);
    if (quad.size() == 4 && cv::isContourConvex(quad) && area > best_area) best = quad, best_area = area;
  }
  if (best.empty()) {
    return R<BoardPose>::Error(where + ": no board outline found (a large four-sided shape against the table); "
                               "use the corner markers, or photograph the whole board against a contrasting table");
  }
  for (auto& p : best) p = cv::Point(cvRound(p.x / scale), cvRound(p.y / scale));
  // Order: the corner nearest the image's top-left first, then clockwise (in image coordinates, y down).
  cv::Point2d centre(0, 0);
  for (const auto& p : best) centre += cv::Point2d(p);
  centre *= 0.25;
  std::sort(best.begin(), best.end(), [&](const cv::Point& a, const cv::Point& b) {
    return std::atan2(a.y - centre.y, a.x - centre.x) < std::atan2(b.y - centre.y, b.x - centre.x);
  });
  int first = 0;
  for (int i = 1; i < 4; ++i) {
    if (best[i].x + best[i].y < best[first].x + best[first].y) first = i;
  }
  std::rotate(best.begin(), best.begin() + first, best.end());
  // Refine each side: fit a line to the strong-gradient pixels near the rough side (the dilated contour is ~2 px
  // outside the true edge), then intersect neighbouring sides.
  cv::Mat gx, gy, mag;
  cv::Sobel(grey, gx, CV_32F, 1, 0);
  cv::Sobel(grey, gy, CV_32F, 0, 1);
  cv::magnitude(gx, gy, mag);
  std::vector<cv::Vec4f> lines(4);
  for (int s = 0; s < 4; ++s) {
    const cv::Point2d a = best[s], b = best[(s + 1) % 4];
    const cv::Point2d d = (b - a) / std::max(1.0, cv::norm(b - a)), n(-d.y, d.x);
    std::vector<cv::Point2f> pts;
    const double len = cv::norm(b - a);
    for (double t = 0.08 * len; t < 0.92 * len; t += 2) {
      // Along the normal (n points into the board for this clockwise order), the step where the mean colour of
      // the 6 px outside differs most from the 6 px inside: the board's edge. Box means ignore the table's thin
      // grain lines and the board's own inked lines, which a plain gradient would pick.
      const double reach = 3 / scale + 8;
      std::vector<cv::Vec3f> samples;
      std::vector<cv::Point2d> where_on;
      for (double o = -reach; o <= reach; o += 1) {
        const cv::Point2d p = a + d * t + n * o;
        const int x = cvRound(p.x), y = cvRound(p.y);
        if (x < 0 || y < 0 || x >= image.cols || y >= image.rows) continue;
        samples.push_back(cv::Vec3f(image.at<cv::Vec3b>(y, x)));
        where_on.push_back(p);
      }
      constexpr int kBox = 6;
      double best_m = 0;
      cv::Point2d best_p;
      for (int i = kBox; i + kBox <= static_cast<int>(samples.size()); ++i) {
        cv::Vec3f out(0, 0, 0), in(0, 0, 0);
        for (int k = 1; k <= kBox; ++k) out += samples[i - k], in += samples[i + k - 1];
        const double m = cv::norm(in - out) / kBox;
        // The edge lies between sample i-1 and i.
        if (m > best_m) best_m = m, best_p = (where_on[i - 1] + where_on[i]) * 0.5;
      }
      if (best_m > 0) pts.emplace_back(best_p);
    }
    if (pts.size() < 10) return R<BoardPose>::Error(where + ": the board's outline is too faint to measure");
    (void)mag;
    cv::fitLine(pts, lines[s], cv::DIST_HUBER, 0, 0.01, 0.01);
  }
  std::vector<cv::Point2d> image_pts;
  for (int s = 0; s < 4; ++s) image_pts.push_back(Intersect(lines[(s + 3) % 4], lines[s]));
  const std::vector<cv::Point2d> board_pts = {{0, 0}, {board_mm.width, 0}, {board_mm.width, board_mm.height}, {0, board_mm.height}};
  BoardPose pose;
  pose.mode = Registration::kOutline;
  pose.image_from_board = cv::Matx33d(cv::getPerspectiveTransform(std::vector<cv::Point2f>(board_pts.begin(), board_pts.end()),
                                                                  std::vector<cv::Point2f>(image_pts.begin(), image_pts.end())));
  return pose;
}

namespace {

constexpr int kFeatures = 4000;
constexpr double kFeatureScale = 0.5;  // features are found on a half-size copy of 1080p frames

cv::Mat Grey(const cv::Mat& image) {
  cv::Mat g;
  if (image.channels() == 3) cv::cvtColor(image, g, cv::COLOR_BGR2GRAY);
  else g = image.clone();
  return g;
}

void Detect(const cv::Mat& grey, std::vector<cv::KeyPoint>* kp, cv::Mat* desc) {
  cv::Mat small;
  cv::resize(grey, small, cv::Size(), kFeatureScale, kFeatureScale, cv::INTER_AREA);
  auto orb = cv::ORB::create(kFeatures);
  orb->detectAndCompute(small, cv::noArray(), *kp, *desc);
  for (auto& k : *kp) k.pt = cv::Point2f(static_cast<float>((k.pt.x + 0.5) / kFeatureScale - 0.5), static_cast<float>((k.pt.y + 0.5) / kFeatureScale - 0.5));
}

}  // namespace

FeatureRegistration::FeatureRegistration(const cv::Mat& reference, const cv::Matx33d& reference_from_board)
    : reference_grey_(Grey(reference)), reference_from_board_(reference_from_board) {
  Detect(reference_grey_, &keypoints_, &descriptors_);
}

R<BoardPose> FeatureRegistration::Register(const cv::Mat& frame, const std::string& where) const {
  const cv::Mat grey = Grey(frame);
  std::vector<cv::KeyPoint> kp;
  cv::Mat desc;
  Detect(grey, &kp, &desc);
  if (desc.empty() || descriptors_.empty()) return R<BoardPose>::Error(where + ": no features to match against the reference");
  cv::BFMatcher matcher(cv::NORM_HAMMING);
  std::vector<std::vector<cv::DMatch>> knn;
  matcher.knnMatch(desc, descriptors_, knn, 2);
  std::vector<cv::Point2f> from, to;  // reference -> frame
  for (const auto& m : knn) {
    if (m.size() == 2 && m[0].distance < 0.8f * m[1].distance) {
      from.push_back(keypoints_[m[0].trainIdx].pt);
      to.push_back(kp[m[0].queryIdx].pt);
    }
  }
  if (from.size() < 12) {
    return R<BoardPose>::Error(where + ": only " + std::to_string(from.size()) + " features match the reference; the board is out of view or covered");
  }
  std::vector<uchar> inliers;
  cv::Mat h = cv::findHomography(from, to, cv::RANSAC, 2.0, inliers, 4000, 0.999);
  if (h.empty() || cv::countNonZero(inliers) < 12) return R<BoardPose>::Error(where + ": the features do not agree on where the board is");
  // Refinement: least squares on the inliers, then enhanced correlation (ECC) between the frame and the
  // reference warped by the estimate, which reaches a small fraction of a pixel.
  std::vector<cv::Point2f> fi, ti;
  for (size_t i = 0; i < inliers.size(); ++i) {
    if (inliers[i]) fi.push_back(from[i]), ti.push_back(to[i]);
  }
  h = cv::findHomography(fi, ti, 0);
  cv::Mat warp;
  h.convertTo(warp, CV_32F);
  try {
    // ECC estimates the map from template (frame) coordinates to input (reference) coordinates: invert.
    cv::Mat inv = warp.inv();
    inv /= inv.at<float>(2, 2);
    cv::Mat small_ref, small_frame;
    const double s = 0.5;
    cv::resize(reference_grey_, small_ref, cv::Size(), s, s, cv::INTER_AREA);
    cv::resize(grey, small_frame, cv::Size(), s, s, cv::INTER_AREA);
    const cv::Matx33f down(static_cast<float>(s), 0, 0, 0, static_cast<float>(s), 0, 0, 0, 1);
    cv::Mat inv_small = cv::Mat(down) * inv * cv::Mat(down.inv());
    cv::findTransformECC(small_frame, small_ref, inv_small, cv::MOTION_HOMOGRAPHY,
                         cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 60, 1e-6), cv::noArray(), 5);
    inv = cv::Mat(down.inv()) * inv_small * cv::Mat(down);
    // A last few steps on the full frames: the half-size copies leave up to a quarter pixel at the corners.
    cv::findTransformECC(grey, reference_grey_, inv, cv::MOTION_HOMOGRAPHY,
                         cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 3, 1e-6), cv::noArray(), 3);
    warp = inv.inv();
    warp /= warp.at<float>(2, 2);
  } catch (const cv::Exception&) {
    // ECC did not converge (big change of light, many tokens): keep the feature estimate.
  }
  cv::Mat hd;
  warp.convertTo(hd, CV_64F);
  BoardPose pose;
  pose.mode = Registration::kFeatures;
  pose.image_from_board = cv::Matx33d(hd) * reference_from_board_;
  pose.residual_px = 0;
  return pose;
}

double PxPerMmAt(const cv::Matx33d& image_from_board, cv::Point2d board_mm) {
  const cv::Matx33d& H = image_from_board;
  const cv::Vec3d p = H * cv::Vec3d(board_mm.x, board_mm.y, 1);
  // The Jacobian of (x, y) = (p0 / p2, p1 / p2) with respect to the board point.
  const double w = p[2];
  const double j00 = (H(0, 0) * w - p[0] * H(2, 0)) / (w * w), j01 = (H(0, 1) * w - p[0] * H(2, 1)) / (w * w);
  const double j10 = (H(1, 0) * w - p[1] * H(2, 0)) / (w * w), j11 = (H(1, 1) * w - p[1] * H(2, 1)) / (w * w);
  return std::sqrt(std::abs(j00 * j11 - j01 * j10));
}

cv::Mat RectifyBoard(const cv::Mat& image, const cv::Matx33d& image_from_board, cv::Size2d board_mm, double px_per_mm) {
  const cv::Matx33d scale(px_per_mm, 0, 0, 0, px_per_mm, 0, 0, 0, 1);
  // Rectified pixel centres sit at (x + 0.5) / px_per_mm mm.
  const cv::Matx33d shift(1, 0, -0.5, 0, 1, -0.5, 0, 0, 1);
  const cv::Matx33d rect_from_image = shift * scale * image_from_board.inv();
  cv::Mat out;
  cv::warpPerspective(image, out, cv::Mat(rect_from_image),
                      cv::Size(cvRound(board_mm.width * px_per_mm), cvRound(board_mm.height * px_per_mm)), cv::INTER_AREA,
                      cv::BORDER_REPLICATE);
  return out;
}

std::vector<std::string> FindOverlaps(const Layout& layout, double tolerance_mm2) {
  constexpr double kPpm = 2.0;
  constexpr int kShrink = 2;  // pixels: touching borders are not overlaps
  const cv::Rect board(0, 0, cvRound(layout.board_mm.width * kPpm), cvRound(layout.board_mm.height * kPpm));
  // Each pixel remembers the first region that covers it; a later region covering it adds to that pair's area.
  cv::Mat first(board.size(), CV_16S, cv::Scalar(-1));
  std::map<std::pair<int, int>, int> shared_px;
  for (size_t r = 0; r < layout.regions.size(); ++r) {
    std::vector<cv::Point> q;
    for (const auto& p : layout.regions[r]) q.emplace_back(cvRound(p.x * kPpm), cvRound(p.y * kPpm));
    // Only the region's bounding box, with room for the shrinking: the same pixels as a board-sized mask, since the
    // box's margin is empty and the board's edge is the mask's edge either way.
    const cv::Rect box = (cv::boundingRect(q) + cv::Size(2 * kShrink, 2 * kShrink) - cv::Point(kShrink, kShrink)) & board;
    if (box.empty()) continue;
    cv::Mat m(box.size(), CV_8U, cv::Scalar(0));
    cv::fillPoly(m, std::vector<std::vector<cv::Point>>{q}, cv::Scalar(1), cv::LINE_8, 0, -box.tl());
    cv::erode(m, m, cv::Mat(), cv::Point(-1, -1), kShrink);
    for (int y = 0; y < box.height; ++y) {
      const uchar* in = m.ptr<uchar>(y);
      int16_t* owner = first.ptr<int16_t>(box.y + y) + box.x;
      for (int x = 0; x < box.width; ++x) {
        if (!in[x]) continue;
        if (owner[x] < 0) owner[x] = static_cast<int16_t>(r);
        else ++shared_px[{owner[x], static_cast<int>(r)}];
      }
    }
  }
  std::vector<std::string> out;
  for (const auto& [pair, px] : shared_px) {
    const double mm2 = px / (kPpm * kPpm);
    if (mm2 > tolerance_mm2) {
      out.push_back("regions " + std::to_string(pair.first) + " and " + std::to_string(pair.second) + " overlap by " + std::to_string(cvRound(mm2)) + " mm2");
    }
  }
  return out;
}

namespace {

std::string Problems(const std::vector<std::string>& problems) {
  std::string s;
  for (const auto& p : problems) s += "\n  " + p;
  return s;
}

nlohmann::ordered_json SetupJson(const BoardSetup& s) {
  nlohmann::ordered_json j;
  j["format"] = kSetupFormat;
  j["map"] = s.map;
  j["layout"] = "layout.json";
  j["reference"] = "reference.png";
  j["registration"] = ToString(s.pose.mode);
  j["reference_size"] = {s.reference_size.width, s.reference_size.height};
  j["image_from_board"] = nlohmann::ordered_json::array();
  for (int r = 0; r < 3; ++r) j["image_from_board"].push_back({s.pose.image_from_board(r, 0), s.pose.image_from_board(r, 1), s.pose.image_from_board(r, 2)});
  j["residual_px"] = s.pose.residual_px;
  j["markers_found"] = s.pose.markers_found;
  j["camera"] = s.has_camera ? nlohmann::ordered_json("camera.json") : nlohmann::ordered_json(nullptr);
  return j;
}

}  // namespace

R<BoardSetup> SetupBoard(const SetupRequest& q) {
  if (q.out.empty()) return R<BoardSetup>::Error("--out: give the setup folder to write");
  std::error_code ec;
  if (fs::exists(q.out, ec) && !fs::is_empty(q.out, ec)) {
    return R<BoardSetup>::Error(q.out + ": the folder is not empty; give a new folder (nothing was written)");
  }
  auto map = engine::LoadMap(q.map, fs::current_path());
  if (!map) return R<BoardSetup>::Error(map.error());
  auto read = ReadImageFile(q.reference, ImageRead::kColor);
  if (!read) return R<BoardSetup>::Error(read.error());
  cv::Mat reference = std::move(*read);
  if (!q.camera.empty()) {
    // With a calibrated camera everything downstream works on undistorted images: the reference is stored so.
    auto camera = ReadCameraFile(q.camera);
    if (!camera) return R<BoardSetup>::Error(camera.error());
    if (camera->image_size != reference.size()) {
      return R<BoardSetup>::Error(q.reference + ": " + std::to_string(reference.cols) + "x" + std::to_string(reference.rows) +
                                  ", but the camera was calibrated at " + std::to_string(camera->image_size.width) + "x" +
                                  std::to_string(camera->image_size.height));
    }
    cv::Mat undistorted;
    cv::undistort(reference, undistorted, camera->K, camera->dist, camera->K);
    reference = undistorted;
  }

  BoardSetup setup;
  setup.map = q.map;
  setup.reference_size = reference.size();
  setup.has_camera = !q.camera.empty();
  if (!q.layout.empty()) {
    auto layout = ReadLayoutFile(q.layout);
    if (!layout) return R<BoardSetup>::Error(layout.error());
    setup.layout = std::move(*layout);
    if (auto overlaps = FindOverlaps(setup.layout); !overlaps.empty()) {
      return R<BoardSetup>::Error(q.layout + ": regions overlap:" + Problems(overlaps));
    }
    if (static_cast<int>(setup.layout.regions.size()) != (*map)->size()) {
      return R<BoardSetup>::Error(q.layout + ": " + std::to_string(setup.layout.regions.size()) + " regions, but map " + q.map + " has " +
                                  std::to_string((*map)->size()));
    }
  } else {
    if (q.points.empty()) return R<BoardSetup>::Error("give --layout FILE, or --points FILE for the region assist");
    if (q.board_mm.width <= 0 || q.board_mm.height <= 0) return R<BoardSetup>::Error("--board-mm: the printed board's size, e.g. 600x400");
    setup.layout.map = q.map;
    setup.layout.board_mm = q.board_mm;
    if (q.markers) {
      LayoutMarkers m;
      const double s = 40, inset = 8, w = q.board_mm.width, h = q.board_mm.height;
      m.size_mm = s;
      m.corners = {{0, {inset, inset}}, {1, {w - inset - s, inset}}, {2, {w - inset - s, h - inset - s}}, {3, {inset, h - inset - s}}};
      setup.layout.markers = m;
    }
  }

  // Registration.
  if (setup.layout.markers) {
    auto pose = RegisterByMarkers(reference, *setup.layout.markers, q.reference);
    if (!pose) return R<BoardSetup>::Error(pose.error());
    setup.pose = *pose;
  } else {
    auto pose = RegisterByOutline(reference, setup.layout.board_mm, q.reference);
    if (!pose) return R<BoardSetup>::Error(pose.error());
    setup.pose = *pose;
  }

  // The assist, from points clicked on the reference photo.
  if (q.layout.empty()) {
    std::ifstream in(q.points);
    if (std::string why = engine::OpenProblem(in, q.points, "points file"); !why.empty()) return R<BoardSetup>::Error(why);
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("points_px") || !doc["points_px"].is_object()) {
      return R<BoardSetup>::Error(q.points + ".points_px: expected {\"<region id>\": [x, y], ...} in reference pixels");
    }
    std::map<int, cv::Point2d> seeds;
    const cv::Matx33d board_from_image = setup.pose.image_from_board.inv();
    for (const auto& [key, v] : doc["points_px"].items()) {
      int id = -1;
      try {
        id = std::stoi(key);
      } catch (...) {
        return R<BoardSetup>::Error(q.points + ".points_px." + key + ": not a region id");
      }
      if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
        return R<BoardSetup>::Error(q.points + ".points_px." + key + ": expected [x, y]");
      seeds[id] = Apply(board_from_image, {{v[0].get<double>(), v[1].get<double>()}})[0];
    }
    constexpr double kAssistPpm = 2.0;
    const cv::Mat rectified = RectifyBoard(reference, setup.pose.image_from_board, setup.layout.board_mm, kAssistPpm);
    auto layout = AssistLayout(rectified, kAssistPpm, setup.layout.board_mm, seeds, **map, setup.layout.markers);
    if (!layout) return R<BoardSetup>::Error(q.points + ": " + layout.error());
    layout->markers = setup.layout.markers;
    setup.layout = std::move(*layout);
  }

  // The layout's adjacency must be the map's.
  const auto problems = CompareWithMap(MeasureTopology(setup.layout), **map);
  if (!problems.empty()) {
    return R<BoardSetup>::Error("the layout does not match map " + q.map + " (" + std::to_string(problems.size()) + " problems):" + Problems(problems));
  }

  fs::create_directories(q.out, ec);
  if (ec) return R<BoardSetup>::Error(q.out + ": cannot create the folder: " + ec.message());
  const fs::path out(q.out);
  // The reference as used (undistorted when a camera is given).
  if (auto w = WriteImageFile((out / "reference.png").string(), reference); !w) return R<BoardSetup>::Error(w.error());
  std::ofstream(out / "layout.json") << ToJson(setup.layout).dump(1) << "\n";
  if (setup.has_camera) fs::copy_file(q.camera, out / "camera.json", ec);
  std::ofstream sj(out / "setup.json");
  sj << SetupJson(setup).dump(1) << "\n";
  if (!sj || ec) return R<BoardSetup>::Error((out / "setup.json").string() + ": cannot write");
  return setup;
}

R<BoardSetup> ReadSetup(const std::string& dir) {
  const fs::path d(dir);
  if (!std::ifstream(d / "setup.json")) {
    return R<BoardSetup>::Error((d / "setup.json").string() + ": cannot open (is " + dir + " a setup folder? make one with `swref setup board`)");
  }
  const std::string where = (d / "setup.json").string();
  auto read = engine::ReadJsonFile(d / "setup.json", engine::kMaxJsonFileBytes, "setup file");
  if (!read) return R<BoardSetup>::Error(read.error());
  return ParseSetup(*read, dir, where);
}

R<BoardSetup> ParseSetup(const nlohmann::json& doc, const std::string& dir, const std::string& where) {
  using nlohmann::json;
  if (!doc.is_object()) return R<BoardSetup>::Error(where + ": expected a JSON object");
  if (!doc.contains("format") || doc["format"] != kSetupFormat) return R<BoardSetup>::Error(where + ".format: expected \"" + std::string(kSetupFormat) + "\"");
  BoardSetup s;
  if (!doc.contains("map") || !doc["map"].is_string() || doc["map"].get<std::string>().empty())
    return R<BoardSetup>::Error(where + ".map: expected a map name or path");
  s.map = doc["map"].get<std::string>();
  const json* h = doc.contains("image_from_board") ? &doc["image_from_board"] : nullptr;
  if (!h || !h->is_array() || h->size() != 3) return R<BoardSetup>::Error(where + ".image_from_board: expected a 3x3 matrix");
  for (int r = 0; r < 3; ++r) {
    const json& row = (*h)[r];
    if (!row.is_array() || row.size() != 3) return R<BoardSetup>::Error(where + ".image_from_board: expected a 3x3 matrix");
    for (int c = 0; c < 3; ++c) {
      if (!row[c].is_number() || !std::isfinite(row[c].get<double>()))
        return R<BoardSetup>::Error(where + ".image_from_board[" + std::to_string(r) + "][" + std::to_string(c) + "]: expected a number");
      s.pose.image_from_board(r, c) = row[c].get<double>();
    }
  }
  if (!(std::abs(cv::determinant(s.pose.image_from_board)) > 1e-12)) return R<BoardSetup>::Error(where + ".image_from_board: the matrix is singular");
  const std::string mode = doc.contains("registration") && doc["registration"].is_string() ? doc["registration"].get<std::string>() : "";
  bool known = false;
  for (Registration r : {Registration::kMarkers, Registration::kOutline, Registration::kFeatures})
    if (mode == ToString(r)) s.pose.mode = r, known = true;
  if (!known) return R<BoardSetup>::Error(where + ".registration: expected \"markers\", \"outline\" or \"features\"");
  if (doc.contains("residual_px")) {
    if (!doc["residual_px"].is_number() || !(doc["residual_px"].get<double>() >= 0)) return R<BoardSetup>::Error(where + ".residual_px: expected a number >= 0");
    s.pose.residual_px = doc["residual_px"].get<double>();
  }
  const json* size = doc.contains("reference_size") ? &doc["reference_size"] : nullptr;
  auto side = [](const json& v) { return v.is_number_integer() && v.get<int64_t>() > 0 && v.get<int64_t>() <= kMaxImageSide; };
  if (!size || !size->is_array() || size->size() != 2 || !side((*size)[0]) || !side((*size)[1]))
    return R<BoardSetup>::Error(where + ".reference_size: expected [width, height] in px, 1.." + std::to_string(kMaxImageSide) + " each");
  s.reference_size = {(*size)[0].get<int>(), (*size)[1].get<int>()};
  s.has_camera = doc.contains("camera") && !doc["camera"].is_null();
  std::string layout_file = "layout.json";
  if (doc.contains("layout")) {
    // A file of the setup folder: a setup that names another path could make every later command read any file.
    const std::string name = doc["layout"].is_string() ? doc["layout"].get<std::string>() : "";
    if (name.empty() || name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
      return R<BoardSetup>::Error(where + ".layout: expected the name of a file in the setup folder");
    layout_file = name;
  }
  auto layout = ReadLayoutFile((fs::path(dir) / layout_file).string());
  if (!layout) return R<BoardSetup>::Error(layout.error());
  s.layout = std::move(*layout);
  return s;
}

}  // namespace swref::calibration
