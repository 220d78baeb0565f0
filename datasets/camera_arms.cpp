// The table camera's arms (datasets/camera.h, Arm): hands and forearms over the board, shaded as rounded solids,
// with their sleeves, motion blur and their shadow on the table. camera.cpp draws them into a shot's frame.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "datasets/camera_internal.h"

namespace swref::datasets {
using namespace camera_internal;
namespace {

cv::Point2d Unit(cv::Point2d v) { return v / std::max(cv::norm(v), 1e-12); }
cv::Point2d Turn(cv::Point2d a, cv::Point2d n, double deg) { return a * std::cos(Rad(deg)) + n * std::sin(Rad(deg)); }

// A rounded body part, for shading: the arm is a union of such solids, and its surface height at a pixel is a
// smooth maximum of theirs (soft creases where parts meet, as between fingers). Each is a tube along a -> b whose
// radius goes from ra to rb, with a cross-section flattened by `flat` (a forearm is wider than it is thick, the
// back of a hand flatter still) and rounded ends that reach `end` times the radius beyond a and b.
struct Solid {
  cv::Point2d a, b;
  double ra = 0, rb = 0;
  double flat = 1;
  double end_a = 1, end_b = 1;
  double z = 0;  // height of the axis above the arm's lowest part
  bool sleeve = false;
};

struct ArmShape {
  std::vector<std::vector<cv::Point2d>> skin, sleeve;  // outlines to fill
  std::vector<Solid> solids;
  cv::Point2d axis;  // shoulder -> hand, unit
};

// Where the segment shoulder -> hand enters the frame, as a fraction of its length (0 when the shoulder is inside).
double EntryFraction(cv::Point2d from, cv::Point2d to, cv::Size frame) {
  auto inside = [&](double t) {
    const cv::Point2d p = from + t * (to - from);
    return p.x >= 0 && p.y >= 0 && p.x <= frame.width - 1 && p.y <= frame.height - 1;
  };
  if (inside(0) || !inside(1)) return 0;
  double lo = 0, hi = 1;
  for (int i = 0; i < 30; ++i) (inside((lo + hi) / 2) ? hi : lo) = (lo + hi) / 2;
  return hi;
}

// The outline of a solid seen from above: its tube and its two elliptic ends.
std::vector<cv::Point2d> SolidOutline(const Solid& so) {
  const cv::Point2d u = Unit(so.b - so.a), v(-u.y, u.x);
  std::vector<cv::Point2d> pts;
  constexpr int kArc = 16;
  for (int i = 0; i <= kArc; ++i) {  // the end at b, from +v round to -v
    const double phi = kPi / 2 - kPi * i / kArc;
    pts.push_back(so.b + so.rb * (so.end_b * std::cos(phi) * u + std::sin(phi) * v));
  }
  for (int i = 0; i <= kArc; ++i) {  // the end at a, from -v round to +v
    const double phi = -kPi / 2 - kPi * i / kArc;
    pts.push_back(so.a + so.ra * (so.end_a * std::cos(phi) * u + std::sin(phi) * v));
  }
  return pts;
}

// The arm's geometry in frame pixels. What the Arm leaves open (left or right hand, how far the sleeve reaches, how
// curled the fingers are) is drawn from the arm's own hash, so an arm always looks the same.
ArmShape ShapeArm(const Arm& arm, cv::Size frame) {
  cv::RNG rng(HashArm(arm));
  ArmShape s;
  const double w = arm.width_px, len = cv::norm(arm.hand - arm.shoulder);
  const cv::Point2d a = Unit(arm.hand - arm.shoulder), n(-a.y, a.x);
  s.axis = a;
  const double side = rng.uniform(0, 2) ? 1 : -1;  // the thumb's side of the axis: a left or a right hand
  // Proportions from a real arm, in forearm widths: wrist 0.7, hand 1.1 wide and 1.2 long to the knuckles, fingers
  // up to 1.0 long and a quarter wide.
  const cv::Point2d wrist = arm.hand - 0.65 * w * a;
  const double reach = std::max(cv::norm(wrist - arm.shoulder), 1.0);
  // The arm tapers from the upper arm (wider, and nearer the camera) to the wrist.
  auto half_width = [&](double t) { return 0.5 * w * (1.18 - 0.5 * std::pow(t, 1.4)); };
  // The forearm is a chain of short tubes so that the taper is a curve.
  constexpr int kSegments = 4;
  for (int i = 0; i < kSegments; ++i) {
    const double t0 = double(i) / kSegments, t1 = double(i + 1) / kSegments;
    const Solid so{.a = arm.shoulder + t0 * reach * a,
                   .b = arm.shoulder + t1 * reach * a,
                   .ra = half_width(t0),
                   .rb = half_width(t1),
                   .flat = 0.75};
    s.skin.push_back(SolidOutline(so));
    s.solids.push_back(so);
  }

  // The sleeve always covers the arm where it enters the frame and ends somewhere along the visible forearm.
  const double entry = EntryFraction(arm.shoulder, arm.hand, frame) * len;
  const double visible = std::max(reach - entry, 0.0);
  const double cuff = std::min(entry + rng.uniform(0.12, 0.6) * visible, reach - 0.35 * w);
  if (cuff > 0) {
    const double loose = rng.uniform(1.08, 1.22);
    constexpr int kSleeveSegments = 3;
    for (int i = 0; i < kSleeveSegments; ++i) {
      const double t0 = cuff / reach * i / kSleeveSegments, t1 = cuff / reach * (i + 1) / kSleeveSegments;
      const Solid so{.a = arm.shoulder + t0 * reach * a,
                     .b = arm.shoulder + t1 * reach * a,
                     .ra = loose * half_width(t0) + 0.03 * w,
                     .rb = loose * half_width(t1) + 0.03 * w,
                     .flat = 0.7,
                     .end_b = i + 1 == kSleeveSegments ? 0.3 : 1,  // a flat cuff
                     .z = 0.03 * w,
                     .sleeve = true};
      s.sleeve.push_back(SolidOutline(so));
      s.solids.push_back(so);
    }
  }

  // The back of the hand: from inside the wrist to the knuckles, widening, with a flat round end.
  const cv::Point2d knuckles = arm.hand + 0.5 * w * a;
  const Solid palm{.a = wrist - 0.1 * w * a,
                   .b = knuckles,
                   .ra = half_width(1) * 0.95,
                   .rb = 0.55 * w,
                   .flat = 0.45,
                   .end_b = 0.3,
                   .z = 0.04 * w};
  s.skin.push_back(SolidOutline(palm));
  s.solids.push_back(palm);

  // Fingers, index first (on the thumb's side); curled fingers look shorter from above.
  constexpr double kAcross[4] = {0.39, 0.13, -0.13, -0.37}, kAlong[4] = {0.5, 0.58, 0.55, 0.44};
  constexpr double kLength[4] = {0.85, 0.95, 0.88, 0.68}, kWidth[4] = {0.25, 0.26, 0.24, 0.21};
  constexpr double kSpread[4] = {7, 1, -5, -12};
  const double curl = rng.uniform(0.5, 1.0), splay = rng.uniform(0.4, 1.6), bend = rng.uniform(-10.0, 10.0);
  auto digit = [&](cv::Point2d base, cv::Point2d tip, double width) {  // tapering towards the tip
    const Solid so{.a = base, .b = tip, .ra = width / 2, .rb = 0.4 * width, .flat = 0.85, .z = 0.05 * w};
    s.skin.push_back(SolidOutline(so));
    s.solids.push_back(so);
  };
  for (int f = 0; f < 4; ++f) {
    const cv::Point2d base = arm.hand + kAlong[f] * w * a + side * kAcross[f] * w * n;
    const cv::Point2d dir = Turn(a, n, side * kSpread[f] * splay + bend);
    const double l = kLength[f] * w * std::clamp(curl + rng.uniform(-0.12, 0.12), 0.35, 1.0);
    digit(base, base + l * dir, kWidth[f] * w);
  }
  const cv::Point2d thumb = arm.hand + side * 0.34 * w * n - 0.32 * w * a;
  const cv::Point2d thumb_dir = Turn(a, n, side * rng.uniform(30.0, 65.0));
  digit(thumb, thumb + 0.75 * w * rng.uniform(0.6, 1.0) * thumb_dir, 0.3 * w);
  return s;
}

// Polynomial smooth maximum: max(a, b) rounded over a width k, so that parts blend with a soft crease.
float SmoothMax(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::max(a, b) + h * h * k * 0.25f;
}

// Splats one solid's height into `height` (canvas pixels; the canvas is the frame scaled by q about `origin`),
// where `near` is set, remembering where the sleeve is on top. Outside its outline a solid's height falls steeply,
// so that anti-aliased rim pixels still get a (dark, steep) surface.
void SplatSolid(const Solid& so, double q, cv::Point2d origin, float blend, const cv::Mat& near, cv::Mat& height,
                cv::Mat& sleeve) {
  auto to_canvas = [&](cv::Point2d p) { return (p - origin + cv::Point2d(0.5, 0.5)) * q - cv::Point2d(0.5, 0.5); };
  const cv::Point2d a = to_canvas(so.a), b = to_canvas(so.b);
  const double ra = so.ra * q, rb = so.rb * q, z = so.z * q;
  const double reach = std::max(ra * std::max(so.end_a, 1.0), rb * std::max(so.end_b, 1.0)) * 1.3 + 2;
  const cv::Rect box =
      cv::Rect(cv::Point(int(std::floor(std::min(a.x, b.x) - reach)), int(std::floor(std::min(a.y, b.y) - reach))),
               cv::Point(int(std::ceil(std::max(a.x, b.x) + reach)), int(std::ceil(std::max(a.y, b.y) + reach)))) &
      cv::Rect(0, 0, height.cols, height.rows);
  const double length = std::max(cv::norm(b - a), 1e-9);
  const cv::Point2d u = (b - a) / length, v(-u.y, u.x);
  for (int y = box.y; y < box.y + box.height; ++y) {
    float* h = height.ptr<float>(y);
    uchar* sl = sleeve.ptr<uchar>(y);
    const uchar* wanted = near.ptr<uchar>(y);
    for (int x = box.x; x < box.x + box.width; ++x) {
      if (!wanted[x]) continue;
      const cv::Point2d d = cv::Point2d(x, y) - a;
      const double along = d.dot(u), across = d.dot(v);
      const double t = std::clamp(along / length, 0.0, 1.0), r = std::max(ra + t * (rb - ra), 1e-6);
      const double beyond = along < 0 ? -along / so.end_a : along > length ? (along - length) / so.end_b : 0;
      const double rho = std::sqrt(across * across + beyond * beyond) / r;
      const float hz = float(rho < 1 ? z + so.flat * r * std::sqrt(1 - rho * rho) : z - 4 * r * (rho - 1));
      if (hz > h[x]) sl[x] = so.sleeve ? 255 : 0;
      h[x] = SmoothMax(h[x], hz, blend);
    }
  }
}

// Adds `src` moved by whole pixels to `sum` (what moves out is lost, nothing moves in).
void AddShifted(const cv::Mat& src, cv::Point shift, cv::Mat& sum) {
  const cv::Rect from = cv::Rect(-shift.x, -shift.y, src.cols, src.rows) & cv::Rect(0, 0, src.cols, src.rows);
  if (from.area() <= 0) return;
  cv::Mat to = sum(from + shift);
  cv::add(to, src(from), to, cv::noArray(), sum.type());
}

}  // namespace

// Draws one arm over the frame with its shadow on the table. The arm is built at half resolution (a forearm is a
// hundred pixels wide; its edges end up soft from motion and defocus anyway), the shadow at an eighth.
// Returns the part of the frame it drew on, and keeps the arm's coverage in `coverage` (CV_8U, frame-sized).
cv::Rect camera_internal::DrawArm(cv::Mat& frame, const Arm& arm, cv::Point2d light_dir, cv::Mat& coverage) {
  if (arm.width_px < 4) return {};
  constexpr double q = 0.5;
  const ArmShape shape = ShapeArm(arm, frame.size());
  const double w = arm.width_px;
  cv::RNG rng(HashArm(arm) ^ 0xa5a5a5a5ull);
  // The arm hovers 10-20 cm above the table: its shadow falls well away from it, away from the light, very soft.
  const cv::Point2d shadow_offset = -rng.uniform(0.6, 1.2) * w * light_dir;
  const double darkness = rng.uniform(0.35, 0.55);
  const double shadow_sigma = 0.22 * w;

  std::vector<cv::Point2d> all;
  for (const auto* parts : {&shape.skin, &shape.sleeve})
    for (const std::vector<cv::Point2d>& part : *parts) all.insert(all.end(), part.begin(), part.end());
  double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
  for (const cv::Point2d& p : all) {
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  const double pad = arm.motion_blur_px / 2 + 4;
  const double spad = 3 * shadow_sigma;
  const double rx0 = std::min(x0 - pad, x0 + shadow_offset.x - spad),
               ry0 = std::min(y0 - pad, y0 + shadow_offset.y - spad);
  const double rx1 = std::max(x1 + pad, x1 + shadow_offset.x + spad),
               ry1 = std::max(y1 + pad, y1 + shadow_offset.y + spad);
  // The canvas is a whole number of shadow cells (8 frame pixels), so the three resolutions line up exactly.
  cv::Rect roi(cv::Point(int(std::floor(rx0 / 8)) * 8, int(std::floor(ry0 / 8)) * 8),
               cv::Point(int(std::ceil(rx1 / 8)) * 8, int(std::ceil(ry1 / 8)) * 8));
  const cv::Rect clipped = roi & cv::Rect(cv::Point(0, 0), frame.size());
  if (clipped.area() <= 0) return {};
  const cv::Point2d origin = roi.tl();
  const cv::Size canvas(int(roi.width * q), int(roi.height * q));

  // Coverage (anti-aliased) of skin and sleeve, at canvas resolution, with 3 bits of sub-pixel precision.
  constexpr int kShift = 3;
  auto fixed = [&](const std::vector<cv::Point2d>& pts) {
    std::vector<cv::Point> out;
    for (const cv::Point2d& p : pts) {
      const cv::Point2d c = ((p - origin + cv::Point2d(0.5, 0.5)) * q - cv::Point2d(0.5, 0.5)) * (1 << kShift);
      out.emplace_back(cvRound(c.x), cvRound(c.y));
    }
    return out;
  };
  cv::Mat skin = cv::Mat::zeros(canvas, CV_8U), sleeve = cv::Mat::zeros(canvas, CV_8U);
  // One polygon per call: fillPoly would treat overlapping contours of one call as holes.
  for (const std::vector<cv::Point2d>& part : shape.skin)
    cv::fillPoly(skin, std::vector<std::vector<cv::Point>>{fixed(part)}, 255, cv::LINE_AA, kShift);
  for (const std::vector<cv::Point2d>& part : shape.sleeve)
    cv::fillPoly(sleeve, std::vector<std::vector<cv::Point>>{fixed(part)}, 255, cv::LINE_AA, kShift);
  cv::Mat alpha;
  cv::max(skin, sleeve, alpha);

  // Surface heights and normals, for Lambert shading from the light's side plus a faint sheen on skin.
  cv::Mat height = Scratch(kHeightSlot, canvas, CV_32F), is_sleeve = cv::Mat::zeros(canvas, CV_8U);
  height.setTo(-1e9);
  cv::Mat near;  // the pixels whose height matters: covered ones and their neighbours (for the slopes)
  cv::dilate(alpha, near, cv::Mat());
  for (const Solid& so : shape.solids) SplatSolid(so, q, origin, float(0.06 * w * q), near, height, is_sleeve);
  cv::max(height, -1e4, height);
  cv::Mat gx = Scratch(kSlopeXSlot, canvas, CV_32F), gy = Scratch(kSlopeYSlot, canvas, CV_32F);
  cv::Sobel(height, gx, CV_32F, 1, 0, 3, 1.0 / 8);
  cv::Sobel(height, gy, CV_32F, 0, 1, 3, 1.0 / 8);
  const float elevation = float(Rad(50));
  const cv::Vec3f l(float(light_dir.x) * std::cos(elevation), float(light_dir.y) * std::cos(elevation),
                    std::sin(elevation));
  const cv::Vec3f half_vec = cv::normalize(l + cv::Vec3f(0, 0, 1));

  // Low-frequency mottling (skin tone, fabric) and fabric folds across the sleeve.
  cv::Mat coarse(std::max(2, canvas.height / 10), std::max(2, canvas.width / 10), CV_32F);
  rng.fill(coarse, cv::RNG::UNIFORM, -1.0, 1.0);
  cv::Mat mottle = Scratch(kMottleSlot, canvas, CV_32F);
  cv::resize(coarse, mottle, canvas, 0, 0, cv::INTER_CUBIC);
  const float fold_freq = float(2 * kPi / (rng.uniform(0.5, 1.1) * w * q)),
              fold_phase = float(rng.uniform(0.0, 2 * kPi));
  const cv::Point2f sh0 = (arm.shoulder - origin) * q, axis = shape.axis;

  cv::Mat layer = Scratch(kLayerSlot, canvas, CV_8UC4);  // premultiplied B, G, R and alpha
  const cv::Scalar skin_col = arm.skin_bgr * (1.0 / 255), sleeve_col = arm.sleeve_bgr * (1.0 / 255);
  for (int y = 0; y < canvas.height; ++y) {
    const uchar* al = alpha.ptr<uchar>(y);
    const uchar* sl = is_sleeve.ptr<uchar>(y);
    const float *px = gx.ptr<float>(y), *py = gy.ptr<float>(y), *mo = mottle.ptr<float>(y);
    auto* out = layer.ptr<cv::Vec4b>(y);
    for (int x = 0; x < canvas.width; ++x) {
      if (al[x] == 0) {
        out[x] = cv::Vec4b(0, 0, 0, 0);
        continue;
      }
      const float nx = -std::clamp(px[x], -20.0f, 20.0f), ny = -std::clamp(py[x], -20.0f, 20.0f);
      const float inv = 1 / std::sqrt(nx * nx + ny * ny + 1);
      const float lambert = std::max(0.0f, (nx * l[0] + ny * l[1] + l[2]) * inv);
      const bool cloth = sl[x] != 0;
      float tone = 1 + (cloth ? 0.045f : 0.035f) * mo[x];
      float sheen = 0;
      if (cloth) {
        const float along = (x - sh0.x) * axis.x + (y - sh0.y) * axis.y;
        tone *= 1 + 0.06f * std::sin(along * fold_freq + fold_phase + 0.8f * mo[x]);
      } else {
        const float c = std::max(0.0f, (nx * half_vec[0] + ny * half_vec[1] + half_vec[2]) * inv);
        const float c2 = c * c, c4 = c2 * c2, c8 = c4 * c4, c16 = c8 * c8;
        sheen = 0.07f * c16 * c8;
      }
      const float shade = (0.3f + 0.78f * lambert) * tone;
      const cv::Scalar& base = cloth ? sleeve_col : skin_col;
      const float a = al[x];
      for (int c = 0; c < 3; ++c) out[x][c] = uchar(a * std::min(1.0f, float(base[c]) * shade + sheen) + 0.5f);
      out[x][3] = al[x];
    }
  }

  // Motion blur: the mean of copies spread along the arm's direction.
  if (arm.motion_blur_px * q >= 1) {
    const double len = arm.motion_blur_px * q;
    const int copies = std::clamp(int(std::ceil(len)), 2, 24);  // 24 * 255 fits 16 bits
    // Same-type additions take OpenCV's vectorised path; mixed 8/16-bit ones do not.
    cv::Mat wide = Scratch(kWideSlot, canvas, CV_16UC4), sum = Scratch(kSumSlot, canvas, CV_16UC4);
    layer.convertTo(wide, CV_16UC4);
    sum.setTo(0);
    for (int k = 0; k < copies; ++k) {
      const cv::Point2d d = (double(k) / (copies - 1) - 0.5) * len * shape.axis;
      AddShifted(wide, cv::Point(cvRound(d.x), cvRound(d.y)), sum);
    }
    sum.convertTo(layer, CV_8UC4, 1.0 / copies);
  }

  // The shadow: the silhouette at an eighth of the frame's resolution, moved, blurred and darkened.
  cv::Mat silhouette, small;
  cv::extractChannel(layer, silhouette, 3);
  cv::resize(silhouette, small, cv::Size(roi.width / 8, roi.height / 8), 0, 0, cv::INTER_AREA);
  cv::Mat moved = cv::Mat::zeros(small.size(), CV_16U);
  AddShifted(small, cv::Point(cvRound(shadow_offset.x / 8), cvRound(shadow_offset.y / 8)), moved);
  moved.convertTo(small, CV_8U, darkness);
  cv::GaussianBlur(small, small, cv::Size(0, 0), shadow_sigma / 8);
  cv::Mat shadow = Scratch(kShadowSlot, roi.size(), CV_8U), big = Scratch(kArmSlot, roi.size(), CV_8UC4);
  cv::resize(small, shadow, roi.size(), 0, 0, cv::INTER_LINEAR);
  cv::resize(layer, big, roi.size(), 0, 0, cv::INTER_LINEAR);

  const cv::Point off = clipped.tl() - roi.tl();
  for (int y = 0; y < clipped.height; ++y) {
    uchar* f = frame.ptr<uchar>(clipped.y + y) + 3 * clipped.x;
    const uchar* s = shadow.ptr<uchar>(off.y + y) + off.x;
    const uchar* lp = big.ptr<uchar>(off.y + y) + 4 * off.x;
    uchar* cov = coverage.ptr<uchar>(clipped.y + y) + clipped.x;
    for (int x = 0; x < clipped.width; ++x) {
      const int keep = (255 - s[x]) * (255 - lp[4 * x + 3]);  // shadow, then the arm's coverage, in 255^2 units
      if (keep == 65025) continue;
      cov[x] = std::max(cov[x], lp[4 * x + 3]);
      for (int c = 0; c < 3; ++c)
        f[3 * x + c] = uchar(std::min(255, (f[3 * x + c] * keep + 32512) / 65025 + lp[4 * x + c]));
    }
  }
  return clipped;
}

// The direction (unit, frame pixels) towards the light in the image: opposite to where shadows fall on the board.
cv::Point2d camera_internal::LightDirection(const CameraShot& shot, cv::Size2d board_mm) {
  const cv::Matx33d h = ImageFromBoard(shot, board_mm);
  const cv::Point2d c(board_mm.width / 2, board_mm.height / 2);
  const cv::Point2d d(std::cos(Rad(shot.light.shadow_deg)), std::sin(Rad(shot.light.shadow_deg)));
  auto project = [&](cv::Point2d p) {
    const cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1);
    return cv::Point2d(v[0] / v[2], v[1] / v[2]);
  };
  return Unit(project(c) - project(c + 50 * d));
}

}  // namespace swref::datasets
