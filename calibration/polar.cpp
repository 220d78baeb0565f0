#include "calibration/polar.h"

#include <algorithm>
#include <cmath>

namespace swref::calibration {
namespace {

constexpr int kBins = kAngles / 2 + 1;  // a real row's spectrum is conjugate-symmetric: bins 0..kAngles/2 suffice

// Forward DFT of every row of a kPolarRows x kAngles real array, keeping bins 0..kAngles/2.
std::vector<std::complex<float>> RowSpectra(const float* rows) {
  const cv::Mat in(kPolarRows, kAngles, CV_32F, const_cast<float*>(rows));
  cv::Mat out;
  cv::dft(in, out, cv::DFT_ROWS | cv::DFT_COMPLEX_OUTPUT);
  std::vector<std::complex<float>> s(static_cast<size_t>(kPolarRows) * kBins);
  for (int r = 0; r < kPolarRows; ++r) {
    const cv::Vec2f* row = out.ptr<cv::Vec2f>(r);
    for (int k = 0; k < kBins; ++k) s[static_cast<size_t>(r) * kBins + k] = {row[k][0], row[k][1]};
  }
  return s;
}

}  // namespace

void SamplePolar(const cv::Mat& lab, cv::Point2d centre_px, const PolarSpec& spec, double rotation_rad, PolarSamples* out,
                 const cv::Mat& blocked, std::vector<uint8_t>* mask) {
  CV_Assert(lab.type() == CV_32FC3);
  out->resize(kPolarSize);
  bool any_blocked = false;
  if (mask) mask->assign(static_cast<size_t>(kRings) * kAngles, 1);
  const int w = lab.cols, h = lab.rows;
  const double ring_px = spec.radius_mm * spec.px_per_mm / kRings;
  for (int a = 0; a < kAngles; ++a) {
    const double theta = rotation_rad + 2 * CV_PI * a / kAngles;
    const double ux = std::cos(theta), uy = std::sin(theta);
    for (int r = 0; r < kRings; ++r) {
      const double rad = (r + 0.5) * ring_px;
      const double x = std::clamp(centre_px.x + rad * ux, 0.0, w - 1.001), y = std::clamp(centre_px.y + rad * uy, 0.0, h - 1.001);
      const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
      const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
      const cv::Vec3f* r0 = lab.ptr<cv::Vec3f>(y0);
      const cv::Vec3f* r1 = lab.ptr<cv::Vec3f>(std::min(y0 + 1, h - 1));
      const int x1 = std::min(x0 + 1, w - 1);
      for (int c = 0; c < kChannels; ++c) {
        const float top = r0[x0][c] + fx * (r0[x1][c] - r0[x0][c]);
        const float bottom = r1[x0][c] + fx * (r1[x1][c] - r1[x0][c]);
        (*out)[(static_cast<size_t>(c) * kRings + r) * kAngles + a] = top + fy * (bottom - top);
      }
      if (mask && !blocked.empty() && blocked.at<uchar>(cvRound(y), cvRound(x))) (*mask)[static_cast<size_t>(r) * kAngles + a] = 0, any_blocked = true;
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
  return {RowSpectra(samples.data()), RowSpectra(sq.data())};
}

std::array<float, kAngles> RotationErrors(const SampleSpectra& samples, const TemplateSpectra& tmpl) {
  // S[k] = sum over rows of  W^[k] conj(P2^[k]) - 2 (WM)^[k] conj(P^[k]);  IDFT(S)(s) = corr(P2, W)(s) - 2 corr(P, WM)(s).
  std::complex<float> acc[kBins] = {};
  for (int r = 0; r < kPolarRows; ++r) {
    const size_t o = static_cast<size_t>(r) * kBins;
    for (int k = 0; k < kBins; ++k) acc[k] += tmpl.w[o + k] * std::conj(samples.p2[o + k]) - 2.0f * tmpl.wm[o + k] * std::conj(samples.p[o + k]);
  }
  cv::Mat spectrum(1, kAngles, CV_32FC2);
  cv::Vec2f* s = spectrum.ptr<cv::Vec2f>(0);
  for (int k = 0; k < kBins; ++k) s[k] = {acc[k].real(), acc[k].imag()};
  for (int k = kBins; k < kAngles; ++k) s[k] = {acc[kAngles - k].real(), -acc[kAngles - k].imag()};
  cv::Mat corr;
  cv::dft(spectrum, corr, cv::DFT_INVERSE | cv::DFT_SCALE | cv::DFT_REAL_OUTPUT);
  std::array<float, kAngles> e;
  const float norm = static_cast<float>(1.0 / std::max(tmpl.wsum, 1e-9));
  for (int i = 0; i < kAngles; ++i) e[i] = std::max(0.0f, (corr.at<float>(0, i) + static_cast<float>(tmpl.wmm)) * norm);
  return e;
}

double RobustError(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift,
                   double cap, const std::vector<uint8_t>* mask, double* kept_share, const LabOffset& offset) {
  double sum = 0, wsum = 0, wall = 0;
  shift = ((shift % kAngles) + kAngles) % kAngles;
  for (int c = 0; c < kChannels; ++c) {
    for (int r = 0; r < kRings; ++r) {
      const size_t row = (static_cast<size_t>(c) * kRings + r) * kAngles;
      for (int a = 0; a < kAngles; ++a) {
        const size_t t = row + (a + shift) % kAngles;
        const double w = weight[t];
        wall += w;
        if (mask && !(*mask)[static_cast<size_t>(r) * kAngles + a]) continue;
        const double d = samples[row + a] + offset[c] - mean[t];
        sum += std::min(w * d * d, cap * w);
        wsum += w;
      }
    }
  }
  if (kept_share) *kept_share = wall > 0 ? wsum / wall : 0;
  return wsum > 0 ? sum / wsum : 0;
}

}  // namespace swref::calibration

namespace swref::calibration {

LabOffset FitOffset(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift, double cap,
                    const std::vector<uint8_t>* mask) {
  LabOffset offset = kNoOffset;
  shift = ((shift % kAngles) + kAngles) % kAngles;
  const double reach = std::sqrt(cap);
  // Twice: the second round judges "within reach" from the first round's offset.
  for (int round = 0; round < 2; ++round) {
    for (int c = 0; c < kChannels; ++c) {
      double sum = 0, wsum = 0;
      for (int r = 0; r < kRings; ++r) {
        const size_t row = (static_cast<size_t>(c) * kRings + r) * kAngles;
        for (int a = 0; a < kAngles; ++a) {
          if (mask && !(*mask)[static_cast<size_t>(r) * kAngles + a]) continue;
          const size_t t = row + (a + shift) % kAngles;
          const double d = mean[t] - samples[row + a];
          if (std::abs(d - offset[c]) > reach) continue;
          sum += weight[t] * d;
          wsum += weight[t];
        }
      }
      offset[c] = wsum > 0 ? static_cast<float>(std::clamp(sum / wsum, -double(kMaxOffset[c]), double(kMaxOffset[c]))) : 0.0f;
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
