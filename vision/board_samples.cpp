// The empty board at a candidate (instances.cpp's test that a token explains what is seen better than the board):
// its samples as the camera would have recorded them there, and under more glare.
#include <algorithm>
#include <limits>

#include <opencv2/core.hpp>

#include "vision/naming.h"

namespace swref::vision {
namespace {

// The board pixels a candidate's samples can depend on: the outermost ring, a pixel for the bilinear sample (and half
// of one for the centre's rounding), and the matcher's blur (3 sigma) beyond it.
cv::Rect SampledBox(const Candidate& c, cv::Size board) {
  const int half = cvCeil(calibration::PolarSpec().radius_mm * kBoardPxPerMm) + 2 + cvCeil(3 * calibration::kMatchBlurPx);
  return cv::Rect(cvRound(c.centre_px.x) - half, cvRound(c.centre_px.y) - half, 2 * half + 1, 2 * half + 1) & cv::Rect(cv::Point(), board);
}

}  // namespace

void BoardSamples(const cv::Mat& reference_bgr, const cv::Mat& reference_lab, const Candidate& c, calibration::PolarSamples* out) {
  const calibration::PolarSpec spec;
  const cv::Scalar top(cv::saturate_cast<uchar>(c.clip[0]), cv::saturate_cast<uchar>(c.clip[1]), cv::saturate_cast<uchar>(c.clip[2]));
  if (std::min({top[0], top[1], top[2]}) < 255) {
    // Only the pixels the samples depend on: the samples are those of the whole board's Lab image clipped so, and
    // fewer candidates find something clipped there than in the local view's patch.
    const cv::Rect box = SampledBox(c, reference_bgr.size());
    cv::Mat patch;
    cv::min(reference_bgr(box), top, patch);
    if (cv::norm(patch, reference_bgr(box), cv::NORM_INF) > 0)  // something was clipped
      return calibration::SamplePolar(calibration::MatchLab(patch), c.centre_px - cv::Point2d(box.tl()), spec, 0, out);
  }
  calibration::SamplePolar(reference_lab, c.centre_px, spec, 0, out);
}

double WashedBoardError(const cv::Mat& reference_bgr, const Candidate& c, cv::Vec3f glare_colour, const std::vector<float>& weight) {
  const calibration::PolarSpec spec;
  const cv::Rect box = SampledBox(c, reference_bgr.size());
  double best = std::numeric_limits<double>::infinity();
  if (box.empty()) return best;
  cv::Mat ref, washed;
  reference_bgr(box).convertTo(ref, CV_32FC3);
  const cv::Vec3f per_unit(glare_colour[0] / c.gain[0], glare_colour[1] / c.gain[1], glare_colour[2] / c.gain[2]);
  const std::vector<uint8_t>* mask = c.mask.empty() ? nullptr : &c.mask;
  calibration::PolarSamples board;
  for (const float extra : {10.0f, 20.0f, 35.0f, 50.0f, 70.0f, 100.0f, 140.0f}) {  // frame units (8-bit)
    cv::add(ref, cv::Scalar(per_unit * extra), washed);
    cv::min(washed, cv::Scalar(c.clip), washed);
    washed.convertTo(washed, CV_8UC3);
    calibration::SamplePolar(calibration::MatchLab(washed), c.centre_px - cv::Point2d(box.tl()), spec, 0, &board);
    best = std::min(best, calibration::PairError(c.samples, board, weight, c.match.shift, calibration::TokenModel::kCap, mask));
  }
  return best;
}

}  // namespace swref::vision
