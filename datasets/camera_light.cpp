// The table camera's light and sensor (datasets/camera.h, Lighting and Sensor): the gain field of exposure,
// colour temperature, gradient and vignetting, the glare, and the sensor's noise. Split from camera.cpp, which
// renders the frame and calls these two after its remap and blur.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/camera.h"
#include "datasets/camera_internal.h"

namespace swref::datasets {
using namespace camera_internal;
namespace {

constexpr double kNeutralKelvin = 5000;  // the white balance the simulated camera is set to

// ---------------------------------------------------------------------------------------------------------------
// Light

// Planck's law at a wavelength (nm), up to a constant.
double Planck(double nm, double kelvin) {
  const double l = nm * 1e-9;
  return 1 / (std::pow(l, 5) * (std::exp(1.4388e-2 / (l * kelvin)) - 1));
}

// Per-channel (BGR) gains for light of a colour temperature, seen by a camera white-balanced for kNeutralKelvin.
// The black body is sampled at the peaks of typical sensor filters. A camera's auto white balance removes much of
// a cast, so only part of it (the exponent, in log terms) is kept: a 2700 K lamp looks warm, not orange. The
// gains are normalised to unit luminance, so the colour temperature does not change the exposure.
cv::Vec3d LightColour(double kelvin) {
  constexpr double kNm[3] = {460, 540, 600};  // B, G, R
  constexpr double kKept = 0.45;
  cv::Vec3d g;
  for (int c = 0; c < 3; ++c) g[c] = std::pow(Planck(kNm[c], kelvin) / Planck(kNm[c], kNeutralKelvin), kKept);
  return g / (0.114 * g[0] + 0.587 * g[1] + 0.299 * g[2]);
}

bool NeutralGain(const Lighting& l) {
  return l.ev == 0 && l.gradient == 0 && l.vignetting == 0 && l.kelvin == kNeutralKelvin;
}

}  // namespace

// Multiplies the frame by the light's gain field and adds the glare. Both fields are smooth, so they are evaluated
// on the coarse grid and interpolated, and applied as 8-bit images (the gain in units of 1/128, up to 1.99).
// Glare is a reflection off the board, so arms above it hide it: `arms` is their coverage (CV_8U, or empty), and
// `arms_box` bounds it.
void camera_internal::ApplyLight(cv::Mat& frame, const Lighting& light, const cv::Mat& arms, cv::Rect arms_box) {
  const bool gain = !NeutralGain(light);
  const bool glare = std::any_of(light.glare.begin(), light.glare.end(), [](const Glare& g) { return g.strength > 0; });
  if (!gain && !glare) return;
  const cv::Size n = NodeCount(frame.size());
  const cv::Point2d pp = PrincipalPoint(frame.size());
  const cv::Vec3d colour = LightColour(light.kelvin);
  // Exposure in stops; the pixel values are gamma-encoded (about 2.2), so one stop multiplies them by 2^(1/2.2).
  const double exposure = std::pow(2.0, light.ev / 2.2);
  // Gradient: brightness falls linearly from 1 to (1 - gradient) across the frame along gradient_deg.
  const cv::Point2d gd(std::cos(Rad(light.gradient_deg)), std::sin(Rad(light.gradient_deg)));
  const double extent = std::abs(gd.x) * frame.cols + std::abs(gd.y) * frame.rows;
  // Vignetting follows the cos^4 law, 1 / (1 + (r / F)^2)^2, with F chosen so that the corners get (1 - vignetting).
  const double v = std::clamp(light.vignetting, 0.0, 0.95);
  const double inv_f2 = (1 / std::sqrt(1 - v) - 1) / (pp.x * pp.x + pp.y * pp.y);
  // Glare is the lamp's specular reflection: its colour, washed out towards white by its brightness.
  const cv::Vec3d glare_colour = 0.35 * colour + 0.65 * cv::Vec3d(1, 1, 1);
  struct Patch {
    cv::Point2d c;
    double ca, sa, ia2, ib2, amp;
  };
  std::vector<Patch> patches;
  for (const Glare& g : light.glare)
    if (g.strength > 0 && g.axes.width > 0 && g.axes.height > 0)
      patches.push_back({g.centre, std::cos(Rad(g.angle_deg)), std::sin(Rad(g.angle_deg)),
                         1 / (g.axes.width * g.axes.width), 1 / (g.axes.height * g.axes.height), 255 * g.strength});
  cv::Mat gain_nodes(n, CV_8UC3), glare_nodes(n, CV_8UC3);
  for (int j = 0; j < n.height; ++j) {
    auto* gp = gain_nodes.ptr<cv::Vec3b>(j);
    auto* lp = glare_nodes.ptr<cv::Vec3b>(j);
    const double y = NodeCoord(j);
    for (int i = 0; i < n.width; ++i) {
      const double x = NodeCoord(i);
      const double t = std::clamp(((x - pp.x) * gd.x + (y - pp.y) * gd.y) / extent + 0.5, 0.0, 1.0);
      const double rho2 = ((x - pp.x) * (x - pp.x) + (y - pp.y) * (y - pp.y)) * inv_f2;
      const double g = 128 * exposure * (1 - light.gradient * t) / ((1 + rho2) * (1 + rho2));
      double add = 0;
      for (const Patch& p : patches) {
        const double dx = x - p.c.x, dy = y - p.c.y;
        const double u = dx * p.ca + dy * p.sa, w = -dx * p.sa + dy * p.ca;
        add += p.amp * std::exp(-2 * (u * u * p.ia2 + w * w * p.ib2));  // e^-2 (13%) at the ellipse's edge
      }
      for (int c = 0; c < 3; ++c) {
        gp[i][c] = cv::saturate_cast<uchar>(g * colour[c]);
        lp[i][c] = cv::saturate_cast<uchar>(add * glare_colour[c]);
      }
    }
  }
  const cv::Size big = n * kGridStep;
  if (gain)
    cv::multiply(frame, UpsampleNodes(gain_nodes, frame.size(), Scratch(kGainSlot, big, CV_8UC3)), frame, 1.0 / 128);
  if (!glare) return;
  cv::Mat added = UpsampleNodes(glare_nodes, frame.size(), Scratch(kGlareSlot, big, CV_8UC3));
  if (!arms.empty())
    for (int y = arms_box.y; y < arms_box.br().y; ++y) {
      uchar* g = added.ptr<uchar>(y);
      const uchar* a = arms.ptr<uchar>(y);
      for (int x = arms_box.x; x < arms_box.br().x; ++x)
        for (int c = 0; c < 3; ++c) g[3 * x + c] = uchar((g[3 * x + c] * (255 - a[x]) + 127) / 255);
    }
  cv::add(frame, added, frame);
}

// ---------------------------------------------------------------------------------------------------------------
// Sensor noise

namespace {

// Drawing 6 million Gaussian numbers per frame costs more than the rest of the sensor together, so the frame's
// noise is read from a pool drawn once (fixed seed), each row starting at a random place chosen by the shot's
// seed. Each pool entry is a BGR triple: a shared luminance part plus a per-channel part, as a demosaicked sensor
// gives. Values are N(0, 1) scaled by kPoolSigma.
constexpr int kPoolSize = 3 << 19;
constexpr float kPoolSigma = 32;

const std::vector<int8_t>& NoisePool() {
  static const std::vector<int8_t> pool = [] {
    std::vector<int8_t> p(kPoolSize);
    cv::RNG rng(0x5eed5eedull);
    for (int i = 0; i < kPoolSize; i += 3) {
      const double luma = rng.gaussian(1);
      for (int c = 0; c < 3; ++c)
        p[i + c] = cv::saturate_cast<int8_t>(kPoolSigma * (0.75 * luma + 0.66 * rng.gaussian(1)));
    }
    return p;
  }();
  return pool;
}

}  // namespace

// Gaussian noise whose sigma grows with brightness (read noise plus shot noise): sensor.noise_sigma at mid-grey,
// 0.6 of it in black, 1.4 of it in white (sigma is capped at 10 levels). The loop is integer arithmetic whose values
// fit 16 bits (the local sigma in 1/16 level, times a pool value), which the compiler vectorises with plain SSE2.
void camera_internal::AddNoise(cv::Mat& frame, double sigma, uint64_t seed) {
  if (sigma <= 0) return;
  const std::vector<int8_t>& pool = NoisePool();
  const int n = frame.cols * 3;
  CV_Assert(n < kPoolSize);
  cv::RNG rng(Scramble(seed));
  const double s = 16 * std::min(sigma, 10.0);  // |pool| <= 127: |pool * f| <= 127 * 1.4 * 160 < 2^15
  const int a = int(std::lround(0.6 * s)), b = int(std::lround(0.8 * s));
  static_assert(kPoolSigma == 32, "the shift below divides by 16 * kPoolSigma");
  for (int y = 0; y < frame.rows; ++y) {
    uint8_t* row = frame.ptr<uint8_t>(y);
    const int8_t* z = pool.data() + 3 * rng.uniform(0, (kPoolSize - n) / 3);
    for (int j = 0; j < n; ++j) {
      const int v = row[j];
      const int f = a + ((b * v + 128) >> 8);     // sigma at this brightness, 1/16 level
      const int x = v + ((z[j] * f + 256) >> 9);  // z / 32 * f / 16, rounded
      row[j] = uint8_t(std::clamp(x, 0, 255));
    }
  }
}

}  // namespace swref::datasets
