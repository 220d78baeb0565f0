// The table camera simulator (datasets/camera.h).
//
// Conventions. The world frame is the table: x and y are board millimetres (x right, y down, origin at the board's
// top-left corner before any bump) and z points INTO the table, so (x, y, z) is right-handed and the camera, above
// the table, sits at z < 0. The camera frame is OpenCV's (x right and y down in the image, z along the viewing
// direction); with tilt 0 and roll 0 it is the world frame moved to the camera centre, which is what makes the
// overhead image upright (board +x = image right, board +y = image down). A positive roll turns the camera from
// board +x towards +y (clockwise as seen from above), so the board appears turned the other way in the image. A
// bump's rotation also turns from +x towards +y. Pixel coordinates are OpenCV's: the centre of pixel (i, j) is at
// (i, j), and the principal point is the centre of the pixel grid, ((w - 1) / 2, (h - 1) / 2).
//
// Rendering is inverse: every frame pixel is traced back through the lens (distortion undone) and the homography to
// a point of the world image, then sampled with cv::remap. The trace is computed on a coarse grid and interpolated,
// converted to OpenCV's fixed-point maps and cached, because a demo renders many frames from one pose.
#include "datasets/camera.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <list>
#include <mutex>

#include <opencv2/imgproc.hpp>

#include "calibration/image_io.h"
#include "datasets/camera_internal.h"

namespace swref::datasets {
using namespace camera_internal;
namespace {

// FNV-1a over the bytes of the values fed to it: the seeds of everything a shot leaves implicit (its noise, the
// details of an arm) come from the shot itself, so that one shot always gives one frame.
class Hasher {
 public:
  Hasher& Add(double v) { return Bytes(&v, sizeof v); }
  Hasher& Add(int64_t v) { return Bytes(&v, sizeof v); }
  Hasher& Add(cv::Point2d p) { return Add(p.x).Add(p.y); }
  Hasher& Add(const cv::Scalar& s) { return Add(s[0]).Add(s[1]).Add(s[2]).Add(s[3]); }
  uint64_t value() const { return h_; }

 private:
  Hasher& Bytes(const void* data, size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 1099511628211ull;
    return *this;
  }
  uint64_t h_ = 14695981039346656037ull;
};

}  // namespace

// cv::RNG is a multiply-with-carry generator whose first outputs are nearly linear in a small seed (seeds 1, 2, 3
// would give tilts in arithmetic progression), so user seeds are scrambled first (splitmix64's finaliser).
uint64_t camera_internal::Scramble(uint64_t seed) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t camera_internal::HashArm(const Arm& arm) {
  return Hasher()
      .Add(arm.shoulder)
      .Add(arm.hand)
      .Add(arm.width_px)
      .Add(arm.skin_bgr)
      .Add(arm.sleeve_bgr)
      .Add(arm.motion_blur_px)
      .value();
}

namespace {

uint64_t HashShot(const CameraShot& s) {
  Hasher h;
  h.Add(int64_t{s.frame.width}).Add(int64_t{s.frame.height});
  const CameraPose& p = s.pose;
  h.Add(p.look_at_mm)
      .Add(p.distance_mm)
      .Add(p.tilt_deg)
      .Add(p.tilt_azimuth_deg)
      .Add(p.roll_deg)
      .Add(p.focal_px)
      .Add(p.k1)
      .Add(p.k2);
  h.Add(s.bump.shift_mm).Add(s.bump.rotation_deg);
  const Lighting& l = s.light;
  h.Add(l.kelvin).Add(l.ev).Add(l.gradient).Add(l.gradient_deg).Add(l.vignetting).Add(l.shadow_deg).Add(l.shadow_mm);
  for (const Glare& g : l.glare) h.Add(g.centre).Add(g.axes.width).Add(g.axes.height).Add(g.angle_deg).Add(g.strength);
  h.Add(s.sensor.noise_sigma).Add(s.sensor.blur_sigma).Add(int64_t{s.sensor.jpeg_quality});
  for (const Arm& a : s.arms) h.Add(int64_t(HashArm(a)));
  return h.value();
}

// ---------------------------------------------------------------------------------------------------------------
// Geometry

// Rotation camera_from_world. The tilt is a rotation about the horizontal axis u = (sin az, -cos az, 0), which
// takes the straight-down axis (0, 0, 1) to (-sin t cos az, -sin t sin az, cos t): the viewing direction of a
// camera displaced towards the azimuth. The roll then turns the camera about its own axis.
cv::Matx33d CameraFromWorld(const CameraPose& pose) {
  const double t = Rad(pose.tilt_deg), az = Rad(pose.tilt_azimuth_deg), r = Rad(pose.roll_deg);
  const cv::Matx33d ux(0, 0, -std::cos(az), 0, 0, -std::sin(az), std::cos(az), std::sin(az), 0);  // [u]x
  const cv::Matx33d tilt = cv::Matx33d::eye() + std::sin(t) * ux + (1 - std::cos(t)) * (ux * ux);
  const cv::Matx33d roll(std::cos(r), -std::sin(r), 0, std::sin(r), std::cos(r), 0, 0, 0, 1);
  return (tilt * roll).t();
}

// Table point (homogeneous, z = 0) -> normalised ideal camera coordinates, i.e. [r1 r2 t] of the pinhole model.
cv::Matx33d NormFromTable(const CameraPose& pose) {
  const double t = Rad(pose.tilt_deg), az = Rad(pose.tilt_azimuth_deg);
  const cv::Vec3d towards_camera(std::sin(t) * std::cos(az), std::sin(t) * std::sin(az), -std::cos(t));
  const cv::Vec3d centre = cv::Vec3d(pose.look_at_mm.x, pose.look_at_mm.y, 0) + pose.distance_mm * towards_camera;
  const cv::Matx33d r = CameraFromWorld(pose);
  const cv::Vec3d tr = -(r * centre);
  return {r(0, 0), r(0, 1), tr[0], r(1, 0), r(1, 1), tr[1], r(2, 0), r(2, 1), tr[2]};
}

// Board mm -> table mm: the bump's rotation about the board's centre, then its shift.
cv::Matx33d TableFromBoard(const Bump& bump, cv::Size2d board_mm) {
  const double a = Rad(bump.rotation_deg), c = std::cos(a), s = std::sin(a);
  const double cx = board_mm.width / 2, cy = board_mm.height / 2;
  return {c, -s, cx - (c * cx - s * cy) + bump.shift_mm.x, s, c, cy - (s * cx + c * cy) + bump.shift_mm.y, 0, 0, 1};
}

}  // namespace

cv::Point3d CameraOverBoard(const CameraShot& shot, cv::Size2d board_mm) {
  const CameraPose& pose = shot.pose;
  const double t = Rad(pose.tilt_deg), az = Rad(pose.tilt_azimuth_deg);
  const cv::Point2d on_table = pose.look_at_mm + pose.distance_mm * std::sin(t) * cv::Point2d(std::cos(az), std::sin(az));
  const cv::Matx33d board_from_table = TableFromBoard(shot.bump, board_mm).inv();
  const cv::Vec3d b = board_from_table * cv::Vec3d(on_table.x, on_table.y, 1);
  return {b[0] / b[2], b[1] / b[2], pose.distance_mm * std::cos(t)};
}

namespace {

cv::Matx33d Intrinsics(const CameraShot& shot) {
  const cv::Point2d pp = PrincipalPoint(shot.frame);
  const double f = shot.pose.focal_px;
  return {f, 0, pp.x, 0, f, pp.y, 0, 0, 1};
}

cv::Matx33d NormFromBoard(const CameraShot& shot, cv::Size2d board_mm) {
  return NormFromTable(shot.pose) * TableFromBoard(shot.bump, board_mm);
}

// OpenCV's radial model: the distorted radius is r (1 + k1 r^2 + k2 r^4).
double RadialFactor(double r2, double k1, double k2) { return 1 + r2 * (k1 + r2 * k2); }

// The ideal radius whose distorted radius is rd, by Newton's method on r + k1 r^3 + k2 r^5 - rd (monotonic over the
// image for the distortions a webcam has, so it converges from r = rd in a few steps).
double UndistortRadius(double rd, double k1, double k2) {
  double r = rd;
  for (int i = 0; i < 6; ++i) {
    const double r2 = r * r, g = r * RadialFactor(r2, k1, k2) - rd, dg = 1 + r2 * (3 * k1 + 5 * k2 * r2);
    if (dg <= 0.05) break;  // past the fold of an absurd distortion: keep the last estimate
    r -= g / dg;
  }
  return r;
}

}  // namespace

cv::Mat camera_internal::UpsampleNodes(const cv::Mat& nodes, cv::Size frame, cv::Mat big) {
  cv::resize(nodes, big, nodes.size() * kGridStep, 0, 0, cv::INTER_LINEAR);
  return big(cv::Rect(kGridStep, kGridStep, frame.width, frame.height));
}

cv::Mat camera_internal::Scratch(ScratchSlot slot, cv::Size size, int type) {
  thread_local std::array<std::vector<uint8_t>, kSlotCount> buffers;
  std::vector<uint8_t>& b = buffers[slot];
  const size_t bytes = size_t(size.area()) * CV_ELEM_SIZE(type);
  if (b.size() < bytes) b.resize(bytes);
  return cv::Mat(size, type, b.data());
}

namespace {

// The remap tables of a shot: OpenCV's fixed-point form (integer source pixel + 1/32-pixel interpolation index),
// which cv::remap reads fastest.
struct RemapTables {
  cv::Mat xy, frac;  // CV_16SC2, CV_16UC1
};

constexpr int kKeySize = 21;
using MapKey = std::array<double, kKeySize>;

MapKey KeyOf(const World& world, const CameraShot& shot) {
  const CameraPose& p = shot.pose;
  return {double(shot.frame.width),
          double(shot.frame.height),
          p.look_at_mm.x,
          p.look_at_mm.y,
          p.distance_mm,
          p.tilt_deg,
          p.tilt_azimuth_deg,
          p.roll_deg,
          p.focal_px,
          p.k1,
          p.k2,
          shot.bump.shift_mm.x,
          shot.bump.shift_mm.y,
          shot.bump.rotation_deg,
          double(world.image.cols),
          double(world.image.rows),
          world.px_per_mm,
          world.origin_mm.x,
          world.origin_mm.y,
          world.board_mm.width,
          world.board_mm.height};
}

RemapTables BuildTables(const World& world, const CameraShot& shot) {
  const CameraPose& pose = shot.pose;
  const double s = world.px_per_mm;
  const cv::Matx33d world_px_from_board(s, 0, -world.origin_mm.x * s, 0, s, -world.origin_mm.y * s, 0, 0, 1);
  const cv::Matx33d world_px_from_norm = world_px_from_board * NormFromBoard(shot, world.board_mm).inv();
  const cv::Point2d pp = PrincipalPoint(shot.frame);
  const cv::Size n = NodeCount(shot.frame);
  cv::Mat nodes(n, CV_32FC2);
  const bool distorted = pose.k1 != 0 || pose.k2 != 0;
  for (int j = 0; j < n.height; ++j) {
    auto* out = nodes.ptr<cv::Vec2f>(j);
    const double yd = (NodeCoord(j) - pp.y) / pose.focal_px;
    for (int i = 0; i < n.width; ++i) {
      double x = (NodeCoord(i) - pp.x) / pose.focal_px, y = yd;
      if (distorted) {
        const double rd = std::hypot(x, y);
        if (rd > 1e-12) {
          const double k = UndistortRadius(rd, pose.k1, pose.k2) / rd;
          x *= k;
          y *= k;
        }
      }
      const cv::Vec3d w = world_px_from_norm * cv::Vec3d(x, y, 1);
      // A ray that misses the table (never for a webcam's angles) samples the replicated border.
      out[i] = w[2] > 1e-12 ? cv::Vec2f(float(w[0] / w[2]), float(w[1] / w[2])) : cv::Vec2f(-1e5f, -1e5f);
    }
  }
  RemapTables t;
  const cv::Mat dense = UpsampleNodes(nodes, shot.frame, Scratch(kMapSlot, n * kGridStep, CV_32FC2));
  cv::convertMaps(dense, cv::noArray(), t.xy, t.frac, CV_16SC2);
  return t;
}

// The last few tables, most recent first. Tables are never written after they are built, so handing out shared
// cv::Mat headers is safe; the lock only guards the list. Building happens outside the lock.
RemapTables TablesFor(const World& world, const CameraShot& shot) {
  static std::mutex mutex;
  static std::list<std::pair<MapKey, RemapTables>> cache;
  constexpr size_t kCapacity = 4;
  const MapKey key = KeyOf(world, shot);
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (it->first == key) {
        cache.splice(cache.begin(), cache, it);
        return cache.front().second;
      }
  }
  RemapTables tables = BuildTables(world, shot);
  std::lock_guard<std::mutex> lock(mutex);
  cache.emplace_front(key, tables);
  if (cache.size() > kCapacity) cache.pop_back();
  return tables;
}

// ---------------------------------------------------------------------------------------------------------------
// Shot drawing

// Samples of the board's outline: corners and points along each edge (distortion bends edges outwards).
std::vector<cv::Point2d> BoardOutline(cv::Size2d b) {
  std::vector<cv::Point2d> pts;
  constexpr int kPerEdge = 8;
  for (int i = 0; i < kPerEdge; ++i) {
    const double t = double(i) / kPerEdge;
    pts.insert(pts.end(),
               {{t * b.width, 0}, {b.width, t * b.height}, {(1 - t) * b.width, b.height}, {0, (1 - t) * b.height}});
  }
  return pts;
}

// The board's projected bounding box relative to the frame: max(width / frame width, height / frame height).
double FillOf(const CameraShot& shot, cv::Size2d board_mm) {
  const std::vector<cv::Point2d> pts = ProjectBoardPoints(shot, board_mm, BoardOutline(board_mm));
  double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
  for (const cv::Point2d& p : pts) {
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  return std::max((x1 - x0) / shot.frame.width, (y1 - y0) / shot.frame.height);
}

bool BoardInside(const CameraShot& shot, cv::Size2d board_mm, double margin) {
  const double mx = margin * shot.frame.width, my = margin * shot.frame.height;
  for (const cv::Point2d& p : ProjectBoardPoints(shot, board_mm, BoardOutline(board_mm)))
    if (!(p.x >= mx && p.y >= my && p.x <= shot.frame.width - 1 - mx && p.y <= shot.frame.height - 1 - my))
      return false;
  return true;
}

// Sets the distance so that the board fills `fill` of the frame (the fill is close to inversely proportional to the
// distance, so a few fixed-point steps converge).
void FitDistance(CameraShot& shot, cv::Size2d board_mm, double fill) {
  CameraPose& p = shot.pose;
  p.distance_mm = p.focal_px * std::max(board_mm.width / shot.frame.width, board_mm.height / shot.frame.height) / fill;
  for (int i = 0; i < 8; ++i) p.distance_mm *= FillOf(shot, board_mm) / fill;
}

}  // namespace

Lens RandomLens(cv::Size frame, double max_k1, uint64_t seed) {
  cv::RNG rng(Scramble(seed));
  Lens lens;
  lens.focal_px = rng.uniform(0.8, 1.6) * frame.width;
  lens.k1 = rng.uniform(-1.0, 1.0) * max_k1;
  lens.k2 = -lens.k1 / 4;
  return lens;
}

ShotRanges ShotRanges::Clean() {
  ShotRanges r;
  r.max_tilt_deg = 0;
  r.max_roll_deg = 0;
  r.max_k1 = 0;
  r.lighting = r.glare = r.noise = r.blur = r.jpeg = false;
  r.max_arms = 0;
  return r;
}

cv::Matx33d ImageFromBoard(const CameraShot& shot, cv::Size2d board_mm) {
  const cv::Matx33d h = Intrinsics(shot) * NormFromBoard(shot, board_mm);
  return h * (1 / h(2, 2));
}

std::vector<cv::Point2d> ProjectBoardPoints(const CameraShot& shot, cv::Size2d board_mm,
                                            const std::vector<cv::Point2d>& board_pts) {
  const cv::Matx33d m = NormFromBoard(shot, board_mm);
  const cv::Point2d pp = PrincipalPoint(shot.frame);
  const CameraPose& pose = shot.pose;
  std::vector<cv::Point2d> out;
  out.reserve(board_pts.size());
  for (const cv::Point2d& p : board_pts) {
    const cv::Vec3d v = m * cv::Vec3d(p.x, p.y, 1);
    const double x = v[0] / v[2], y = v[1] / v[2];
    const double k = RadialFactor(x * x + y * y, pose.k1, pose.k2);
    out.emplace_back(pose.focal_px * x * k + pp.x, pose.focal_px * y * k + pp.y);
  }
  return out;
}

CameraShot OverheadShot(cv::Size frame, cv::Size2d board_mm, double fill) {
  CameraShot shot;
  shot.frame = frame;
  shot.pose.look_at_mm = {board_mm.width / 2, board_mm.height / 2};
  shot.pose.focal_px = 1.2 * frame.width;
  shot.pose.distance_mm =
      shot.pose.focal_px * std::max(board_mm.width / frame.width, board_mm.height / frame.height) / fill;
  return shot;
}

CameraShot RandomShot(cv::Size frame, cv::Size2d board_mm, const ShotRanges& r, uint64_t seed) {
  // Every draw happens whatever the ranges enable, so that turning a nuisance off leaves the others as they were.
  cv::RNG rng(Scramble(seed));
  CameraShot shot;
  shot.frame = frame;
  CameraPose& p = shot.pose;
  p.tilt_deg = rng.uniform(0.0, 1.0) * r.max_tilt_deg;
  p.tilt_azimuth_deg = rng.uniform(0.0, 360.0);
  p.roll_deg = rng.uniform(-1.0, 1.0) * r.max_roll_deg;
  const double look_angle = rng.uniform(0.0, 2 * kPi), look_r = r.max_look_offset_mm * std::sqrt(rng.uniform(0.0, 1.0));
  p.look_at_mm = {board_mm.width / 2 + look_r * std::cos(look_angle),
                  board_mm.height / 2 + look_r * std::sin(look_angle)};
  p.focal_px = rng.uniform(0.8, 1.6) * frame.width;
  p.k1 = rng.uniform(-1.0, 1.0) * r.max_k1;
  p.k2 = -p.k1 / 4;
  if (r.lens) p.focal_px = r.lens->focal_px, p.k1 = r.lens->k1, p.k2 = r.lens->k2;
  const double fill = r.min_board_fill + rng.uniform(0.0, 1.0) * (r.max_board_fill - r.min_board_fill);

  Lighting light;
  light.kelvin = rng.uniform(2700.0, 6500.0);
  light.ev = rng.uniform(-1.0, 1.0);
  light.gradient = rng.uniform(0.0, 0.35);
  light.gradient_deg = rng.uniform(0.0, 360.0);
  light.vignetting = rng.uniform(0.0, 0.4);
  light.shadow_deg = rng.uniform(0.0, 360.0);
  light.shadow_mm = rng.uniform(1.0, 2.5);
  const int glare_count = rng.uniform(0, 3);
  std::vector<Glare> glare(2);
  for (Glare& g : glare) {
    g.centre = {rng.uniform(0.15, 0.85) * frame.width, rng.uniform(0.15, 0.85) * frame.height};
    const double major = rng.uniform(0.05, 0.16) * frame.width;
    g.axes = {major, major * rng.uniform(0.35, 0.9)};
    g.angle_deg = rng.uniform(0.0, 180.0);
    g.strength = rng.uniform(0.15, 0.5);
  }
  glare.resize(glare_count);
  Sensor sensor;
  sensor.noise_sigma = rng.uniform(1.0, 5.0);
  sensor.blur_sigma = rng.uniform(0.0, 1.2);
  sensor.jpeg_quality = rng.uniform(70, 96);
  const int arms = rng.uniform(0, r.max_arms + 1);
  const uint64_t arm_high = unsigned(rng);  // in this order: see DrawOrder in dataset.h
  const uint64_t arm_seed = (arm_high << 32) | unsigned(rng);

  if (r.lighting) shot.light = light;
  if (r.glare) shot.light.glare = glare;
  if (r.noise) shot.sensor.noise_sigma = sensor.noise_sigma;
  if (r.blur) shot.sensor.blur_sigma = sensor.blur_sigma;
  if (r.jpeg) shot.sensor.jpeg_quality = sensor.jpeg_quality;

  // Distance for the fill, then move back until the whole board is inside the frame with a margin (a look-at
  // offset, the tilt's perspective and pincushion distortion can each push a side out).
  FitDistance(shot, board_mm, fill);
  for (int i = 0; i < 200 && !BoardInside(shot, board_mm, 0.02); ++i) p.distance_mm *= 1.01;
  if (arms > 0) AddRandomArms(shot, arms, arm_seed);
  return shot;
}

void AddRandomArms(CameraShot& shot, int count, uint64_t seed) {
  // Skin tones from very light to very dark, and everyday sleeve colours (BGR).
  static const cv::Vec3d kSkin[] = {{168, 194, 228}, {145, 178, 220}, {118, 155, 205},
                                    {85, 120, 170},  {58, 84, 125},   {44, 60, 88}};
  static const cv::Vec3d kSleeve[] = {{70, 40, 30},    {35, 32, 30},  {72, 70, 68},  {170, 170, 165},
                                      {222, 224, 225}, {60, 90, 85},  {52, 40, 112}, {140, 100, 62},
                                      {150, 180, 196}, {42, 45, 165}, {50, 90, 42},  {40, 150, 196}};
  cv::RNG rng(Scramble(seed ^ 0x41524d53ull));
  const double fw = shot.frame.width, fh = shot.frame.height;
  // Pixels per millimetre at the arm's height (some 100 mm above the table, so a little nearer the camera).
  const double px_per_mm = shot.pose.focal_px / std::max(shot.pose.distance_mm - 100, 0.3 * shot.pose.distance_mm);
  for (int k = 0; k < count; ++k) {
    Arm arm;
    arm.width_px = rng.uniform(58.0, 78.0) * px_per_mm;
    // Players sit along the long sides more often. The hand lands over the board, which fills the frame's middle,
    // reaching at least a third of the way in.
    const double e = rng.uniform(0.0, 1.0);
    const int edge = e < 0.35 ? 0 : e < 0.7 ? 1 : e < 0.85 ? 2 : 3;  // bottom, top, left, right
    const double along = rng.uniform(0.18, 0.82), depth = rng.uniform(0.3, 0.78), slant = rng.uniform(-0.25, 0.25);
    const double beyond = rng.uniform(0.2, 0.6) * arm.width_px;
    switch (edge) {
      case 0:
        arm.hand = {along * fw, (1 - depth) * fh};
        arm.shoulder = {(along + slant) * fw, fh + beyond};
        break;
      case 1:
        arm.hand = {along * fw, depth * fh};
        arm.shoulder = {(along + slant) * fw, -beyond};
        break;
      case 2:
        arm.hand = {depth * fw, along * fh};
        arm.shoulder = {-beyond, (along + slant) * fh};
        break;
      default:
        arm.hand = {(1 - depth) * fw, along * fh};
        arm.shoulder = {fw + beyond, (along + slant) * fh};
        break;
    }
    const double t = rng.uniform(0.0, 5.0);
    const int i = std::min(int(t), 4);
    const cv::Vec3d skin = kSkin[i] + (t - i) * (kSkin[i + 1] - kSkin[i]);
    const double tint = rng.uniform(-6.0, 6.0);
    const double green = rng.uniform(-5.0, 5.0);  // the draws last to first: see DrawOrder in dataset.h
    arm.skin_bgr = cv::Scalar(skin[0] - tint + rng.uniform(-5.0, 5.0), skin[1] + green, skin[2] + tint);
    const cv::Vec3d sl = kSleeve[rng.uniform(0, int(std::size(kSleeve)))];
    const double lum = rng.uniform(-15.0, 15.0);
    for (int c = 2; c >= 0; --c)  // the draws last to first: see DrawOrder in dataset.h
      arm.sleeve_bgr[c] = std::clamp(sl[c] + lum + rng.uniform(-8.0, 8.0), 0.0, 255.0);
    arm.motion_blur_px = rng.uniform(0.0, 1.0) < 0.5 ? 0.0 : rng.uniform(0.004, 0.02) * fw;
    shot.arms.push_back(arm);
  }
}

cv::Mat RenderFrame(const World& world, const CameraShot& shot) {
  CV_Assert(world.image.type() == CV_8UC3 && !world.image.empty() && world.px_per_mm > 0);
  CV_Assert(shot.frame.width > 0 && shot.frame.height > 0 && shot.pose.focal_px > 0);
  const RemapTables tables = TablesFor(world, shot);
  cv::Mat frame;
  cv::remap(world.image, frame, tables.xy, tables.frac, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::Mat arms;  // the arms' coverage
  cv::Rect arms_box;
  if (!shot.arms.empty()) {
    arms = Scratch(kCoverageSlot, frame.size(), CV_8U);
    arms.setTo(0);
    const cv::Point2d light_dir = LightDirection(shot, world.board_mm);
    for (const Arm& arm : shot.arms) arms_box |= DrawArm(frame, arm, light_dir, arms);
  }
  // The lens blurs before the sensor applies its gain; the light fields are smooth, so the order is immaterial for
  // them, and blurring first keeps the noise sharp as a sensor's is.
  if (shot.sensor.blur_sigma > 0.05) cv::GaussianBlur(frame, frame, cv::Size(0, 0), shot.sensor.blur_sigma);
  ApplyLight(frame, shot.light, arms, arms_box);
  AddNoise(frame, shot.sensor.noise_sigma, HashShot(shot));
  if (shot.sensor.jpeg_quality > 0) {
    auto bytes = calibration::EncodeImage(".jpg", frame, std::clamp(shot.sensor.jpeg_quality, 1, 100));
    auto decoded = bytes ? calibration::DecodeImage(*bytes, calibration::ImageRead::kColor, "the camera's JPEG") : engine::Result<cv::Mat>::Error(bytes.error());
    // An 8-bit BGR frame always encodes and decodes; if it did not (out of memory), the photo would lack the
    // sensor's JPEG while its truth says it has one: an error, as the checks above are, never a quiet other photo.
    if (!decoded) CV_Error(cv::Error::StsError, "RenderFrame: the sensor's JPEG round trip failed: " + decoded.error());
    frame = *decoded;
  }
  return frame;
}

}  // namespace swref::datasets
