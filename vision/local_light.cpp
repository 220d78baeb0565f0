// The light on one token, from the board right around it. A lamp's gradient, vignetting and a patch of glare are
// smooth, but not so smooth that one gain field for the whole board gets every token right: a cream token under
// glare and a grey one without it differ by little more than the light. The ring of board around a token (16-21
// mm from its centre) is seen in the frame and in the empty-board reference, so the light there can be measured:
//     frame = gain (per channel) x reference + glare x glare colour,
// fitted by weighted least squares over the ring's pixels (pixels under other tokens, saturated ones and those
// the fit explains badly get little or no say), held near the whole board's light when the ring shows only one
// colour and cannot tell gain from glare. The patch around the token is then brought into the reference's light
// and converted as the matcher wants it (calibration::MatchLab).
#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "calibration/token_model.h"
#include "vision/observer.h"

namespace swref::vision {
namespace {

constexpr double kRingInnerMm = 16, kRingOuterMm = 21;  // outside a token (12.5 mm) and its shadow, inside its neighbours' reach
constexpr int kRingAngles = 48, kRingRadii = 3;
constexpr double kPatchHalfMm = 17;  // the polar samples (10.5 mm), the centre's refinement, the blur
constexpr int kMinRingSamples = 40;  // fewer usable ring pixels: the whole board's light is used

}  // namespace

LocalView MakeLocalView(const Rectified& frame, const cv::Mat& reference_bgr, const cv::Mat& reference_glare, const cv::Mat& occupied,
                        cv::Point2d centre_px) {
  LocalView view;
  const int half = cvCeil(kPatchHalfMm * kBoardPxPerMm);
  const cv::Rect want(cvRound(centre_px.x) - half, cvRound(centre_px.y) - half, 2 * half + 1, 2 * half + 1);
  const cv::Rect box = want & cv::Rect(0, 0, frame.bgr.cols, frame.bgr.rows);
  view.origin = box.tl();
  view.box = box;
  if (box.empty()) return view;

  // The ring's pixels: reference and frame colours, where the board is in view and unsaturated.
  struct Sample {
    cv::Vec3f ref, seen;
  };
  std::vector<Sample> ring;
  ring.reserve(kRingAngles * kRingRadii);
  for (int r = 0; r < kRingRadii; ++r) {
    const double rad = (kRingInnerMm + (kRingOuterMm - kRingInnerMm) * (r + 0.5) / kRingRadii) * kBoardPxPerMm;
    for (int a = 0; a < kRingAngles; ++a) {
      const double t = 2 * CV_PI * (a + 0.5 * r) / kRingAngles;
      const int x = cvRound(centre_px.x + rad * std::cos(t)), y = cvRound(centre_px.y + rad * std::sin(t));
      if (x < 0 || y < 0 || x >= frame.bgr.cols || y >= frame.bgr.rows) continue;
      if (!occupied.empty() && occupied.at<uchar>(y, x)) continue;
      const cv::Vec3b f = frame.bgr.at<cv::Vec3b>(y, x), g = reference_bgr.at<cv::Vec3b>(y, x);
      if (std::max({f[0], f[1], f[2]}) >= kClippedAt) continue;  // a saturated channel: its colour is not known
      ring.push_back({cv::Vec3f(g[0], g[1], g[2]), cv::Vec3f(f[0], f[1], f[2])});
    }
  }

  // The whole board's light at the token: the prior, and the answer when the ring cannot be used.
  const cv::Vec3f g0 = GainAt(frame, centre_px);
  const cv::Vec3f k = frame.glare_colour;
  cv::Vec3f gain = g0;
  float glare = GlareAt(frame, centre_px);
  // The reference's own glare: what the ring fits is the frame's glare beyond it, which may be less than none
  // (the lamp moved), never less than taking the reference's away.
  const float reference_glare_here = FieldValueAt(reference_glare, frame.bgr.size(), centre_px);
  const double min_glare = -reference_glare_here * std::max({g0[0], g0[1], g0[2]});
  if (static_cast<int>(ring.size()) >= kMinRingSamples) {
    // Unknowns (g_b, g_g, g_r, a): frame_c = g_c ref_c + a k_c. Normal equations with priors g = g0 and a = a0,
    // each as strong as a few ring pixels; three rounds of Cauchy reweighting on the residuals.
    std::vector<float> w(ring.size(), 1.0f);
    constexpr double kPriorWeight = 6;     // ring pixels' worth
    constexpr double kResidualScale = 10;  // 8-bit units
    const float a0 = glare;
    double ref_mean = 0;
    for (const Sample& s : ring) ref_mean += (s.ref[0] + s.ref[1] + s.ref[2]) / 3;
    ref_mean /= ring.size();
    for (int round = 0; round < 3; ++round) {
      double A[4][4] = {}, b[4] = {};
      for (size_t i = 0; i < ring.size(); ++i) {
        for (int c = 0; c < 3; ++c) {
          // Row: [.. ref_c at c .., k_c] . x = seen_c; only its two non-zero entries add anything.
          const double ref = ring[i].ref[c], kc = k[c], seen = ring[i].seen[c];
          A[c][c] += w[i] * ref * ref, A[c][3] += w[i] * ref * kc;
          A[3][c] += w[i] * kc * ref, A[3][3] += w[i] * kc * kc;
          b[c] += w[i] * ref * seen, b[3] += w[i] * kc * seen;
        }
      }
      for (int c = 0; c < 3; ++c) {
        const double pw = kPriorWeight * ref_mean * ref_mean;
        A[c][c] += pw;
        b[c] += pw * g0[c];
      }
      A[3][3] += kPriorWeight;
      b[3] += kPriorWeight * a0;
      cv::Matx44d M;
      cv::Vec4d rhs;
      for (int p = 0; p < 4; ++p) {
        rhs[p] = b[p];
        for (int q = 0; q < 4; ++q) M(p, q) = A[p][q];
      }
      cv::Vec4d x;
      if (!cv::solve(M, rhs, x, cv::DECOMP_CHOLESKY)) break;
      gain = cv::Vec3f(static_cast<float>(std::max(x[0], 0.05)), static_cast<float>(std::max(x[1], 0.05)),
                       static_cast<float>(std::max(x[2], 0.05)));
      glare = static_cast<float>(std::max(x[3], min_glare));
      for (size_t i = 0; i < ring.size(); ++i) {
        double r2 = 0;
        for (int c = 0; c < 3; ++c) {
          const double e = ring[i].seen[c] - gain[c] * ring[i].ref[c] - glare * k[c];
          r2 += e * e;
        }
        w[i] = static_cast<float>(1.0 / (1.0 + r2 / (3 * kResidualScale * kResidualScale)));
      }
    }
    view.fitted = true;
  }
  view.gain = gain;
  view.glare = glare;
  // Into the reference's light, then the reference's own glare off (it lies along white: ReferenceGlare).
  const float white = reference_glare_here * 0.57735f;
  for (int c = 0; c < 3; ++c) {
    view.clip[c] = std::max(1.0f, (255 - glare * k[c]) / gain[c]);
    view.ceiling[c] = std::max(1.0f, view.clip[c] - white);
  }
  // Per channel ((seen - glare) / gain - white), in float, rounded to 8 bits: in one pass the operations (and so
  // the values) cv::subtract, cv::multiply and convertTo gave in five.
  float offset[3], scale[3];
  for (int c = 0; c < 3; ++c) offset[c] = static_cast<float>(glare * k[c]), scale[c] = static_cast<float>(1.0 / gain[c]);
  cv::Mat patch8(box.size(), CV_8UC3);
  for (int y = 0; y < box.height; ++y) {
    const uchar* in = frame.bgr.ptr<uchar>(box.y + y) + 3 * box.x;
    uchar* out = patch8.ptr<uchar>(y);
    for (int i = 0; i < 3 * box.width; i += 3) {
      for (int c = 0; c < 3; ++c) out[i + c] = cv::saturate_cast<uchar>((static_cast<float>(in[i + c]) - offset[c]) * scale[c] - white);
    }
  }
  view.lab = calibration::MatchLab(patch8);
  return view;
}

}  // namespace swref::vision
