#include "calibration/polar.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <opencv2/core/hal/hal.hpp>
#include <opencv2/core/hal/interface.h>
#include <opencv2/core/hal/intrin.hpp>

namespace swref::calibration {
namespace {

constexpr int kBins = kAngles / 2 + 1;  // a real row's spectrum is conjugate-symmetric: bins 0..kAngles/2 suffice

// OpenCV's DFT of real float rows (the inverse of RotationErrors; the forward transforms are RowSpectraInto's),
// planned once per thread: cv::dft plans anew at every call, which for these small transforms costs about as much
// as the transform. The plan is the one cv::dft makes for continuous images with these flags (CV_HAL_DFT_*), and
// so gives the same values.
cv::hal::DFT2D& RealRowsDft(int cols, int rows, int flags) {
  thread_local std::map<std::tuple<int, int, int>, cv::Ptr<cv::hal::DFT2D>> plans;
  cv::Ptr<cv::hal::DFT2D>& plan = plans[{cols, rows, flags}];
  if (!plan) plan = cv::hal::DFT2D::create(cols, rows, CV_32F, 1, 1, flags | CV_HAL_DFT_IS_CONTINUOUS, 0);
  return *plan;
}

// The forward DFT (X[k] = sum_n x[n] e^(-2 pi i k n / N), as cv::dft) of `Rows` real rows of kAngles, bins
// 0..kAngles/2 of each. All rows at once, the rows innermost, so that every step of the transform is one loop over
// them that the compiler makes vector code of: the 64 real values of a row as 32 complex ones (even + i odd), a
// radix-2 FFT of those, then the real spectrum from it. On a candidate's samples (72 rows: P and P^2) about 95 k
// instructions where cv::hal's row-by-row transform took about 205 k; the values agree with cv::dft's to float
// rounding (test: Polar.RowSpectraAgreeWithOpenCvsDft).
template <int Rows>
void RowSpectraInto(const float* const* row_ptrs, std::complex<float>* const* outs) {
  constexpr int kHalf = kAngles / 2;  // the complex transform's length
  static_assert((kHalf & (kHalf - 1)) == 0, "a power of two");
  struct Tables {
    int reversed[kHalf];
    float cos_n[kAngles], sin_n[kAngles];  // e^(-2 pi i j / kAngles) = cos_n[j] - i sin_n[j]
  };
  static const Tables kT = [] {
    Tables t;
    int bits = 0;
    while ((1 << bits) < kHalf) ++bits;
    for (int i = 0; i < kHalf; ++i) {
      int r = 0;
      for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
      t.reversed[i] = r;
    }
    // (Exact zeros where the angle is a multiple of a right angle: the DC and Nyquist bins come out real.)
    auto exact = [](double v) { return static_cast<float>(std::abs(v) < 1e-12 ? 0.0 : v); };
    for (int j = 0; j < kAngles; ++j) {
      const double angle = 2 * CV_PI * j / kAngles;
      t.cos_n[j] = exact(std::cos(angle)), t.sin_n[j] = exact(std::sin(angle));
    }
    return t;
  }();
  alignas(16) float zr[kHalf][Rows], zi[kHalf][Rows];
  for (int r = 0; r < Rows; ++r) {
    const float* x = row_ptrs[r];
    for (int n = 0; n < kHalf; ++n) zr[kT.reversed[n]][r] = x[2 * n], zi[kT.reversed[n]][r] = x[2 * n + 1];
  }
  for (int len = 2; len <= kHalf; len *= 2) {
    const int step = kAngles / len;  // twiddle e^(-2 pi i j / len) = table entry j * step
    for (int start = 0; start < kHalf; start += len) {
      for (int j = 0; j < len / 2; ++j) {
        const float wr = kT.cos_n[j * step], wi = -kT.sin_n[j * step];
        float* ar = zr[start + j];
        float* ai = zi[start + j];
        float* br = zr[start + j + len / 2];
        float* bi = zi[start + j + len / 2];
        for (int r = 0; r < Rows; ++r) {
          const float tr = br[r] * wr - bi[r] * wi, ti = br[r] * wi + bi[r] * wr;
          br[r] = ar[r] - tr, bi[r] = ai[r] - ti;
          ar[r] += tr, ai[r] += ti;
        }
      }
    }
  }
  // X[k] = (Z[k] + conj Z[N/2 - k]) / 2 - i e^(-2 pi i k / N) (Z[k] - conj Z[N/2 - k]) / 2, with Z[N/2] = Z[0].
  alignas(16) float xr[Rows], xi[Rows];
  for (int k = 0; k <= kHalf; ++k) {
    const float* ar = zr[k % kHalf];
    const float* ai = zi[k % kHalf];
    const float* br = zr[(kHalf - k) % kHalf];
    const float* bi = zi[(kHalf - k) % kHalf];
    const float c = kT.cos_n[k], sn = kT.sin_n[k];
    for (int r = 0; r < Rows; ++r) {
      const float er = 0.5f * (ar[r] + br[r]), ei = 0.5f * (ai[r] - bi[r]);  // the even samples' spectrum
      const float orr = 0.5f * (ai[r] + bi[r]), oi = -0.5f * (ar[r] - br[r]);  // the odd samples'
      // X = E + e^(-2 pi i k / N) O
      xr[r] = er + c * orr + sn * oi;
      xi[r] = ei + c * oi - sn * orr;
    }
    for (int r = 0; r < Rows; ++r) outs[r][k] = {xr[r], xi[r]};
  }
}

// Forward DFT of every row of a kPolarRows x kAngles real array, bins 0..kAngles/2 of each row.
std::vector<std::complex<float>> RowSpectra(const float* rows) {
  std::vector<std::complex<float>> s(static_cast<size_t>(kPolarRows) * kBins);
  const float* in[kPolarRows];
  std::complex<float>* out[kPolarRows];
  for (int r = 0; r < kPolarRows; ++r) in[r] = rows + r * kAngles, out[r] = s.data() + static_cast<size_t>(r) * kBins;
  RowSpectraInto<kPolarRows>(in, out);
  return s;
}

// The grid's directions at rotation 0.
const std::array<std::pair<double, double>, kAngles>& Units() {
  static const std::array<std::pair<double, double>, kAngles> kUnit = [] {
    std::array<std::pair<double, double>, kAngles> u;
    for (int a = 0; a < kAngles; ++a) u[a] = {std::cos(2 * CV_PI * a / kAngles), std::sin(2 * CV_PI * a / kAngles)};
    return u;
  }();
  return kUnit;
}

}  // namespace

void BlockedSamples(cv::Point2d centre_px, const PolarSpec& spec, const cv::Mat& blocked, std::vector<uint8_t>* mask) {
  mask->clear();
  if (blocked.empty()) return;  // nothing blocked, as SamplePolar has it
  CV_Assert(blocked.type() == CV_8U);
  mask->assign(static_cast<size_t>(kRings) * kAngles, 1);
  bool any_blocked = false;
  const double ring_px = spec.radius_mm * spec.px_per_mm / kRings;
  const auto& unit = Units();
  for (int r = 0; r < kRings; ++r) {
    const double rad = (r + 0.5) * ring_px;
    for (int a = 0; a < kAngles; ++a) {
      // As SamplePolar places its points (clamped to the image, which changes none inside it).
      const double x = std::clamp(centre_px.x + rad * unit[a].first, 0.0, blocked.cols - 1.001);
      const double y = std::clamp(centre_px.y + rad * unit[a].second, 0.0, blocked.rows - 1.001);
      if (blocked.at<uchar>(static_cast<int>(y + 0.5), static_cast<int>(x + 0.5))) {
        (*mask)[static_cast<size_t>(r) * kAngles + a] = 0, any_blocked = true;
      }
    }
  }
  if (!any_blocked) mask->clear();
}

void SamplePolar(const cv::Mat& lab, cv::Point2d centre_px, const PolarSpec& spec, double rotation_rad, PolarSamples* out,
                 const cv::Mat& blocked, std::vector<uint8_t>* mask) {
  CV_Assert(lab.type() == CV_32FC3);
  out->resize(kPolarSize);
  bool any_blocked = false;
  if (mask) mask->assign(static_cast<size_t>(kRings) * kAngles, 1);
  const int w = lab.cols, h = lab.rows;
  const double ring_px = spec.radius_mm * spec.px_per_mm / kRings;
  // The directions (rotation 0) turned by the grid's rotation.
  const auto& kUnit = Units();
  const double cr = std::cos(rotation_rad), sr = std::sin(rotation_rad);
  float* o = out->data();
  const bool check = mask && !blocked.empty();
  const int blocked_step = check ? static_cast<int>(blocked.step1()) : 0;
  const size_t step = lab.step1();
  const float* base = lab.ptr<float>(0);
  double ux[kAngles], uy[kAngles];
  for (int a = 0; a < kAngles; ++a) ux[a] = kUnit[a].first * cr - kUnit[a].second * sr, uy[a] = kUnit[a].first * sr + kUnit[a].second * cr;
  // Ring by ring, bilinear. Points outside the image are clamped to its edge, one by one, which most grids need not
  // check: they lie inside with a pixel to spare.
  auto mark = [&](int r, int a, double x, double y) {
    if (check && blocked.at<uchar>(static_cast<int>(y + 0.5), static_cast<int>(x + 0.5))) {
      (*mask)[static_cast<size_t>(r) * kAngles + a] = 0, any_blocked = true;
    }
  };
  // One ring, point by point, clamped.
  auto ring_clamped = [&](int r, double rad, float* o0, float* o1, float* o2) {
    for (int a = 0; a < kAngles; ++a) {
      const double x = std::clamp(centre_px.x + rad * ux[a], 0.0, w - 1.001), y = std::clamp(centre_px.y + rad * uy[a], 0.0, h - 1.001);
      const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
      const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
      const float* p00 = base + y0 * step + 3 * x0;
      const int right = x0 + 1 < w ? 3 : 0;
      const float* p10 = p00 + (y0 + 1 < h ? step : 0);
      float v[kChannels];
      for (int c = 0; c < kChannels; ++c) {
        const float top = p00[c] + fx * (p00[c + right] - p00[c]);
        const float bottom = p10[c] + fx * (p10[c + right] - p10[c]);
        v[c] = top + fy * (bottom - top);
      }
      o0[a] = v[0], o1[a] = v[1], o2[a] = v[2];
      mark(r, a, x, y);
    }
  };
  // Inside, a ring's points are placed first (each pixel's offset and the fractions, in a loop the compiler makes
  // vector code of), then four points at a time take a pixel's three channels at once (reading a fourth value,
  // ignored: the spare pixel keeps it inside the image) and are turned into the three channels' rows. Lane by lane
  // these are the clamped path's operations, so the same values. The samples on blocked pixels are found after, in a
  // loop of their own. 1.6 us a grid (2.3 with a mask) where one point at a time took 2.6 (3.0).
  auto ring_inside = [&](int r, double rad, float* o0, float* o1, float* o2) {
    alignas(16) int offset[kAngles], nearest[kAngles];
    alignas(16) float fxs[kAngles], fys[kAngles];
    for (int a = 0; a < kAngles; ++a) {
      const double x = centre_px.x + rad * ux[a], y = centre_px.y + rad * uy[a];
      const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
      fxs[a] = static_cast<float>(x - x0), fys[a] = static_cast<float>(y - y0);
      offset[a] = y0 * static_cast<int>(step) + 3 * x0;
    }
    static_assert(kAngles % 4 == 0);
    for (int a = 0; a < kAngles; a += 4) {
      cv::v_float32x4 pixel[4];
      for (int k = 0; k < 4; ++k) {
        const float* p00 = base + offset[a + k];
        const cv::v_float32x4 vx = cv::v_setall_f32(fxs[a + k]), vy = cv::v_setall_f32(fys[a + k]);
        const cv::v_float32x4 a00 = cv::v_load(p00), a01 = cv::v_load(p00 + 3), a10 = cv::v_load(p00 + step), a11 = cv::v_load(p00 + step + 3);
        const cv::v_float32x4 top = a00 + vx * (a01 - a00), bottom = a10 + vx * (a11 - a10);
        pixel[k] = top + vy * (bottom - top);
      }
      cv::v_float32x4 c0, c1, c2, unused;
      cv::v_transpose4x4(pixel[0], pixel[1], pixel[2], pixel[3], c0, c1, c2, unused);
      cv::v_store(o0 + a, c0), cv::v_store(o1 + a, c1), cv::v_store(o2 + a, c2);
    }
    if (check) {
      for (int a = 0; a < kAngles; ++a) {
        const double x = centre_px.x + rad * ux[a], y = centre_px.y + rad * uy[a];
        nearest[a] = static_cast<int>(y + 0.5) * blocked_step + static_cast<int>(x + 0.5);
      }
      for (int a = 0; a < kAngles; ++a) {
        if (blocked.data[nearest[a]]) (*mask)[static_cast<size_t>(r) * kAngles + a] = 0, any_blocked = true;
      }
    }
  };
  const double reach = (kRings - 0.5) * std::abs(ring_px) + 1;
  const bool inside = centre_px.x - reach >= 0 && centre_px.y - reach >= 0 && centre_px.x + reach <= w - 2 && centre_px.y + reach <= h - 1;
  for (int r = 0; r < kRings; ++r) {
    const double rad = (r + 0.5) * ring_px;
    float* o0 = o + r * kAngles;
    float* o1 = o0 + kRings * kAngles;
    float* o2 = o1 + kRings * kAngles;
    if (inside) {
      ring_inside(r, rad, o0, o1, o2);
    } else {
      ring_clamped(r, rad, o0, o1, o2);
    }
  }
  if (mask && !any_blocked) mask->clear();
}

TemplateSpectra MakeSpectra(const std::vector<float>& mean, const std::vector<float>& weight) {
  CV_Assert(mean.size() == static_cast<size_t>(kPolarSize) && weight.size() == mean.size());
  std::vector<float> wm(kPolarSize);
  TemplateSpectra t;
  for (int i = 0; i < kPolarSize; ++i) {
    wm[i] = weight[i] * mean[i];
    t.wmm += static_cast<double>(wm[i]) * mean[i];
    t.wsum += weight[i];
  }
  t.w = RowSpectra(weight.data());
  t.wm = RowSpectra(wm.data());
  return t;
}

SampleSpectra MakeSpectra(const PolarSamples& samples) {
  CV_Assert(samples.size() == static_cast<size_t>(kPolarSize));
  std::vector<float> sq(kPolarSize);
  for (int i = 0; i < kPolarSize; ++i) sq[i] = samples[i] * samples[i];
  const size_t bins = static_cast<size_t>(kPolarRows) * kBins;
  SampleSpectra out{std::vector<std::complex<float>>(bins), std::vector<std::complex<float>>(bins)};
  // P and P^2 in one transform of twice the rows.
  const float* in[2 * kPolarRows];
  std::complex<float>* to[2 * kPolarRows];
  for (int r = 0; r < kPolarRows; ++r) {
    in[r] = samples.data() + r * kAngles, in[kPolarRows + r] = sq.data() + r * kAngles;
    to[r] = out.p.data() + static_cast<size_t>(r) * kBins, to[kPolarRows + r] = out.p2.data() + static_cast<size_t>(r) * kBins;
  }
  RowSpectraInto<2 * kPolarRows>(in, to);
  return out;
}

std::array<float, kAngles> RotationErrors(const SampleSpectra& samples, const TemplateSpectra& tmpl) {
  // S[k] = sum over rows of  W^[k] conj(P2^[k]) - 2 (WM)^[k] conj(P^[k]);  IDFT(S)(s) = corr(P2, W)(s) - 2 corr(P, WM)(s).
  // Summed in real and imaginary parts (a std::complex product checks for infinities at every step).
  float re[kBins] = {}, im[kBins] = {};
  for (int r = 0; r < kPolarRows; ++r) {
    const size_t o = static_cast<size_t>(r) * kBins;
    const float* w = reinterpret_cast<const float*>(tmpl.w.data() + o);
    const float* wm = reinterpret_cast<const float*>(tmpl.wm.data() + o);
    const float* p = reinterpret_cast<const float*>(samples.p.data() + o);
    const float* p2 = reinterpret_cast<const float*>(samples.p2.data() + o);
    for (int k = 0; k < kBins; ++k) {
      const float wr = w[2 * k], wi = w[2 * k + 1], mr = wm[2 * k], mi = wm[2 * k + 1];
      const float qr = p2[2 * k], qi = p2[2 * k + 1], pr = p[2 * k], pi = p[2 * k + 1];
      re[k] += wr * qr + wi * qi - 2.0f * (mr * pr + mi * pi);
      im[k] += wi * qr - wr * qi - 2.0f * (mi * pr - mr * pi);
    }
  }
  // The inverse of a real signal's spectrum, packed as OpenCV's CCS row: Re0, Re1, Im1, ..., Re(N/2-1), Im(N/2-1), Re(N/2).
  float packed[kAngles], corr[kAngles];
  packed[0] = re[0];
  for (int k = 1; k < kAngles / 2; ++k) packed[2 * k - 1] = re[k], packed[2 * k] = im[k];
  packed[kAngles - 1] = re[kAngles / 2];
  constexpr size_t kStep = kAngles * sizeof(float);
  RealRowsDft(kAngles, 1, CV_HAL_DFT_INVERSE | CV_HAL_DFT_SCALE)
      .apply(reinterpret_cast<const uchar*>(packed), kStep, reinterpret_cast<uchar*>(corr), kStep);
  std::array<float, kAngles> e;
  const float norm = static_cast<float>(1.0 / std::max(tmpl.wsum, 1e-9));
  for (int i = 0; i < kAngles; ++i) e[i] = std::max(0.0f, (corr[i] + static_cast<float>(tmpl.wmm)) * norm);
  return e;
}

namespace {

// The mask as 1.0 (kept) or 0.0 per sample, ones without a mask, so that the masked and unmasked sums run the same
// code and the vector loops load it as they load the samples.
using KeptWeights = std::array<float, kRings * kAngles>;
const float* Kept(const std::vector<uint8_t>* mask, KeptWeights* storage) {
  static const KeptWeights kAll = [] {
    KeptWeights a;
    a.fill(1.0f);
    return a;
  }();
  if (!mask) return kAll.data();
  CV_Assert(mask->size() == storage->size());
  for (size_t i = 0; i < storage->size(); ++i) (*storage)[i] = (*mask)[i] ? 1.0f : 0.0f;
  return storage->data();
}

// Calls `vector(a, t)` for runs of four sample angles a = a..a+3 laid on template angles t..t+3 (t = a + shift, mod
// kAngles), and `scalar(a, t)` for the angles left over: two runs without wrapping, so that the loads are plain.
template <typename Vector, typename Scalar>
inline void ForShifted(int s, Vector&& vector, Scalar&& scalar) {
  for (int part = 0; part < 2; ++part) {
    const int a0 = part == 0 ? 0 : kAngles - s, a1 = part == 0 ? kAngles - s : kAngles, t0 = part == 0 ? s : s - kAngles;
    int a = a0;
    for (; a + 4 <= a1; a += 4) vector(a, a + t0);
    for (; a < a1; ++a) scalar(a, a + t0);
  }
}


}  // namespace

double RobustError(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift,
                   double cap, const std::vector<uint8_t>* mask, double* kept_share, const LabOffset& offset) {
  static_assert((kAngles & (kAngles - 1)) == 0, "kAngles is a power of two");
  const int s = shift & (kAngles - 1);
  const float fcap = static_cast<float>(cap);
  const cv::v_float32x4 vcap = cv::v_setall_f32(fcap);
  KeptWeights storage;
  const float* kept = Kept(mask, &storage);
  double sum = 0, wsum = 0, wall = 0;
  for (int c = 0; c < kChannels; ++c) {
    const float o = offset[c];
    const cv::v_float32x4 vo = cv::v_setall_f32(o);
    for (int r = 0; r < kRings; ++r) {
      const int row = (c * kRings + r) * kAngles;
      const float* p = samples.data() + row;
      const float* m = mean.data() + row;
      const float* w = weight.data() + row;
      const float* keep = kept + r * kAngles;
      cv::v_float32x4 vs = cv::v_setzero_f32(), vw = vs, va = vs;
      float rs = 0, rw = 0, ra = 0;
      ForShifted(
          s,
          [&](int a, int t) {
            const cv::v_float32x4 d = cv::v_load(p + a) + vo - cv::v_load(m + t), wt = cv::v_load(w + t), kw = wt * cv::v_load(keep + a);
            va += wt;
            vs += kw * cv::v_min(d * d, vcap);
            vw += kw;
          },
          [&](int a, int t) {
            const float d = p[a] + o - m[t], kw = keep[a] != 0.0f ? w[t] : 0.0f;
            ra += w[t];
            rs += kw * std::min(d * d, fcap);
            rw += kw;
          });
      sum += rs + cv::v_reduce_sum(vs), wsum += rw + cv::v_reduce_sum(vw), wall += ra + cv::v_reduce_sum(va);
    }
  }
  if (kept_share) *kept_share = wall > 0 ? wsum / wall : 0;
  return wsum > 0 ? sum / wsum : 0;
}

}  // namespace swref::calibration

namespace swref::calibration {

LabOffset FitOffset(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift, double cap,
                    const std::vector<uint8_t>* mask) {
  const int s = shift & (kAngles - 1);
  LabOffset offset = kNoOffset;
  const float reach = static_cast<float>(std::sqrt(cap));
  const cv::v_float32x4 vreach = cv::v_setall_f32(reach), zero = cv::v_setzero_f32();
  KeptWeights storage;
  const float* kept = Kept(mask, &storage);
  // Twice: the second round judges "within reach" from the first round's offset.
  for (int round = 0; round < 2; ++round) {
    for (int c = 0; c < kChannels; ++c) {
      const float o = offset[c];
      const cv::v_float32x4 vo = cv::v_setall_f32(o);
      cv::v_float32x4 vs = zero, vw = zero;
      float sum = 0, wsum = 0;
      for (int r = 0; r < kRings; ++r) {
        const int row = (c * kRings + r) * kAngles;
        const float* p = samples.data() + row;
        const float* m = mean.data() + row;
        const float* w = weight.data() + row;
        const float* keep = kept + r * kAngles;
        ForShifted(
            s,
            [&](int a, int t) {
              const cv::v_float32x4 d = cv::v_load(m + t) - cv::v_load(p + a);
              const cv::v_float32x4 kw = cv::v_select(cv::v_abs(d - vo) <= vreach, cv::v_load(w + t) * cv::v_load(keep + a), zero);
              vs += kw * d;
              vw += kw;
            },
            [&](int a, int t) {
              const float d = m[t] - p[a];
              const float kw = keep[a] != 0.0f && std::abs(d - o) <= reach ? w[t] : 0.0f;
              sum += kw * d;
              wsum += kw;
            });
      }
      sum += cv::v_reduce_sum(vs), wsum += cv::v_reduce_sum(vw);
      offset[c] = wsum > 0 ? std::clamp(sum / wsum, -kMaxOffset[c], kMaxOffset[c]) : 0.0f;
    }
  }
  return offset;
}

double PairError(const PolarSamples& samples, const PolarSamples& other, const std::vector<float>& weight, int weight_shift, double cap,
                 const std::vector<uint8_t>* mask) {
  // The other samples as a template whose angle a + shift holds what lies at sample angle a.
  std::vector<float> turned(kPolarSize);
  const int s = ((weight_shift % kAngles) + kAngles) % kAngles;
  for (int row = 0; row < kPolarRows; ++row)
    for (int a = 0; a < kAngles; ++a) turned[row * kAngles + (a + s) % kAngles] = other[row * kAngles + a];
  const LabOffset offset = FitOffset(samples, turned, weight, s, cap, mask);
  return RobustError(samples, turned, weight, s, cap, mask, nullptr, offset);
}

}  // namespace swref::calibration
