// Polar samples of a token and their rotation search: the core of naming a token seen from above.
//
// A token lies on the board at any rotation. Sampled on rings around its centre, a rotation becomes a circular
// shift along the angle, so one comparison against a template covers every rotation at once: the weighted sum of
// squared differences for every shift s,
//     E(s) = sum_{c,r,a} W[c,r,a+s] (P[c,r,a] - M[c,r,a+s])^2
//          = corr(P^2, W)(s) - 2 corr(P, W*M)(s) + sum W*M^2,
// is two circular cross-correlations per ring, summed over the rings in the frequency domain and brought back
// with one inverse DFT of length kAngles (the correlation theorem). The template's spectra are made once.
//
// Units: images are CIELab, CV_32FC3 (L 0..100, a and b about -100..100), as cv::cvtColor gives for float BGR in
// 0..1. Centres are in pixels of that image (OpenCV's convention: pixel centres at integers).
#pragma once

#include <array>
#include <complex>
#include <vector>

#include <opencv2/core.hpp>

namespace swref::calibration {

inline constexpr int kRings = 12;          // rings from the centre out to PolarSpec::radius_mm
inline constexpr int kAngles = 64;         // samples around each ring (5.625 degrees apart)
inline constexpr int kChannels = 3;        // L, a, b
inline constexpr int kPolarRows = kRings * kChannels;
inline constexpr int kPolarSize = kPolarRows * kAngles;
inline constexpr double kMatchPxPerMm = 2.0;  // resolution of the images polar samples are taken from
inline constexpr double kMatchBlurPx = 1.2;   // both frames and enrollment photos are smoothed by this (Gaussian sigma)
                                              // before sampling, so that a camera's focus matters little

// Polar samples: kPolarSize floats, row (channel * kRings + ring), column angle. Angle 0 points along +x, angles
// grow towards +y (clockwise on screen, y down).
using PolarSamples = std::vector<float>;

// Rings at radii (ring + 0.5) / kRings * radius_mm.
struct PolarSpec {
  double radius_mm = 10.5;                 // the outermost ring's outer edge: inside a 25 mm race token
  double px_per_mm = kMatchPxPerMm;
};

// Samples `lab` (CV_32FC3) on the polar grid around `centre_px`, the grid turned by `rotation_rad` (sample angle
// a lies at direction rotation_rad + 2*pi*a/kAngles). Points outside the image take the nearest edge pixel.
// `blocked` (optional, CV_8U, same size): samples on a non-zero pixel are marked 0 in `mask` (kRings * kAngles,
// 1 = use the sample, 0 = ignore it); `mask` comes back empty when nothing was blocked.
void SamplePolar(const cv::Mat& lab, cv::Point2d centre_px, const PolarSpec& spec, double rotation_rad, PolarSamples* out,
                 const cv::Mat& blocked = cv::Mat(), std::vector<uint8_t>* mask = nullptr);
// Only the `mask` SamplePolar would give at rotation 0 (an image of `blocked`'s size).
void BlockedSamples(cv::Point2d centre_px, const PolarSpec& spec, const cv::Mat& blocked, std::vector<uint8_t>* mask);

// The spectra of a template (mean M and weight W over kPolarSize samples) for the rotation search.
struct TemplateSpectra {
  std::vector<std::complex<float>> w;       // DFT of W, per row
  std::vector<std::complex<float>> wm;      // DFT of W*M, per row
  double wmm = 0;                           // sum of W*M^2
  double wsum = 0;                          // sum of W
};
TemplateSpectra MakeSpectra(const std::vector<float>& mean, const std::vector<float>& weight);

// The spectra of the samples of one candidate (P and P^2), made once and compared with every template.
struct SampleSpectra {
  std::vector<std::complex<float>> p, p2;
};
SampleSpectra MakeSpectra(const PolarSamples& samples);

// E(s) / sum(W) for every shift s = 0..kAngles-1: the weighted mean squared difference when template angle
// a + s is laid on sample angle a. The best rotation of the template onto the samples is the argmin s: the token
// seen is the template turned by -s * 2*pi/kAngles (plus the sampling grid's own rotation).
std::array<float, kAngles> RotationErrors(const SampleSpectra& samples, const TemplateSpectra& tmpl);

// A light offset per channel (L, a, b) added to every sample.
using LabOffset = std::array<float, kChannels>;
inline constexpr LabOffset kNoOffset = {0, 0, 0};
inline constexpr LabOffset kMaxOffset = {12, 8, 8};  // what is left of a light change once the frame is matched

// The same error at one shift, computed directly, with the samples shifted by `offset`, a per-sample cap on the
// squared difference (an occluded or glared sample costs at most `cap`, Lab^2) and an optional mask (kRings *
// kAngles, 0 = ignore the sample in every channel). Returns the capped weighted mean over the samples kept, and
// their share of the weight in `kept_share` when given.
double RobustError(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift,
                   double cap, const std::vector<uint8_t>* mask = nullptr, double* kept_share = nullptr, const LabOffset& offset = kNoOffset);

// The error of explaining `samples` by `other` samples taken at the same places (the empty board at the same spot:
// "nothing lies here"), with a template's weights turned by `weight_shift` (weight[(a + shift)] goes with sample
// a), its own best offset, capped and masked as RobustError.
double PairError(const PolarSamples& samples, const PolarSamples& other, const std::vector<float>& weight, int weight_shift, double cap,
                 const std::vector<uint8_t>* mask = nullptr);

// The offset that brings the samples closest to the template at `shift` (the weighted mean difference per channel
// over the samples kept and within sqrt(cap) of it), each channel within +-kMaxOffset: a token lit a little
// differently from its enrollment photos.
LabOffset FitOffset(const PolarSamples& samples, const std::vector<float>& mean, const std::vector<float>& weight, int shift, double cap,
                    const std::vector<uint8_t>* mask = nullptr);

}  // namespace swref::calibration
