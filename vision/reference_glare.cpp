// The glare in the empty-board reference photo itself. On a real table the lamp and the camera stay put, so a
// lamp's reflection lies on the reference photo as on every frame: compared with the reference the board looks
// unchanged there, yet a token lying in it is lit brighter than its enrollment photos. Knowing the reference's
// own glare, the observer takes it off a token before naming it.
//
// A printed board is made of regions, each painted in one terrain's colours: glare shows as a smooth brightening,
// the same in every channel, that comes and goes across regions. Over 4 mm cells,
//     cell colour = the region's own colour + glare x (1, 1, 1) / sqrt(3)
// with glare smooth (a normalized convolution over 10 mm) and the regions' colours robust means; a few rounds of
// each, the cells that the model explains badly (ink lines, symbols, texture of another colour) given little say.
// Glare that fills a whole region evenly is indistinguishable from the region's colour and is left out; so is
// anything below a few units (a painted board's own slow variations).
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/observer.h"

namespace swref::vision {

cv::Mat ReferenceGlare(const cv::Mat& reference_board, const cv::Mat& region_labels) {
  constexpr int kCellPx = 8;  // 4 mm at 2 px/mm
  constexpr double kSmoothCells = 2.5;
  constexpr float kFloor = 6;  // 8-bit units along the glare colour: below it, no glare
  const cv::Size cells(std::max(4, reference_board.cols / kCellPx), std::max(4, reference_board.rows / kCellPx));
  cv::Mat colour;
  reference_board.convertTo(colour, CV_32FC3);
  cv::resize(colour, colour, cells, 0, 0, cv::INTER_AREA);
  cv::Mat labels;
  cv::resize(region_labels, labels, cells, 0, 0, cv::INTER_NEAREST);
  int regions = 0;
  for (int y = 0; y < labels.rows; ++y)
    for (int x = 0; x < labels.cols; ++x) regions = std::max(regions, labels.at<int>(y, x) + 1);
  if (regions == 0) return cv::Mat::zeros(cells, CV_32F);
  const cv::Vec3f k(0.57735f, 0.57735f, 0.57735f);

  cv::Mat glare = cv::Mat::zeros(cells, CV_32F), weight(cells, CV_32F, cv::Scalar(1));
  std::vector<cv::Vec3f> base(regions);
  for (int round = 0; round < 5; ++round) {
    // The regions' colours, the glare taken off.
    std::vector<cv::Vec3d> sum(regions, cv::Vec3d(0, 0, 0));
    std::vector<double> wsum(regions, 0);
    for (int y = 0; y < cells.height; ++y)
      for (int x = 0; x < cells.width; ++x) {
        const int r = labels.at<int>(y, x);
        if (r < 0) continue;
        const float w = weight.at<float>(y, x);
        const cv::Vec3f c = colour.at<cv::Vec3f>(y, x) - glare.at<float>(y, x) * k;
        sum[r] += cv::Vec3d(c[0], c[1], c[2]) * w;
        wsum[r] += w;
      }
    for (int r = 0; r < regions; ++r)
      if (wsum[r] > 0)
        base[r] = cv::Vec3f(static_cast<float>(sum[r][0] / wsum[r]), static_cast<float>(sum[r][1] / wsum[r]),
                            static_cast<float>(sum[r][2] / wsum[r]));
    // What is left along the glare's colour, smoothed over the cells that fit; and the new weights.
    cv::Mat along(cells, CV_32F, cv::Scalar(0)), smooth_weight(cells, CV_32F, cv::Scalar(0));
    for (int y = 0; y < cells.height; ++y)
      for (int x = 0; x < cells.width; ++x) {
        const int r = labels.at<int>(y, x);
        if (r < 0) {
          weight.at<float>(y, x) = 0;
          continue;
        }
        const cv::Vec3f d = colour.at<cv::Vec3f>(y, x) - base[r];
        const float a = d.dot(k);
        const float across = static_cast<float>(cv::norm(d - a * k));
        // For the glare: cells whose change is of the glare's colour (10 units across it: half a say). For the
        // region's colour: cells the model explains (10 units off: half a say).
        const float off = across + std::abs(a - glare.at<float>(y, x));
        smooth_weight.at<float>(y, x) = 1.0f / (1.0f + across * across / 100.0f);
        weight.at<float>(y, x) = 1.0f / (1.0f + off * off / 100.0f);
        along.at<float>(y, x) = a;
      }
    cv::Mat num, den;
    cv::GaussianBlur(along.mul(smooth_weight), num, cv::Size(), kSmoothCells);
    cv::GaussianBlur(smooth_weight, den, cv::Size(), kSmoothCells);
    cv::divide(num, den + 1e-4, glare);
    glare = cv::max(glare, 0.0);
  }
  glare.setTo(0, glare < kFloor);
  return glare;
}

float FieldValueAt(const cv::Mat& field, cv::Size board_px, cv::Point2d at_px) {
  if (field.empty()) return 0;
  const double x = std::clamp(at_px.x / board_px.width * field.cols - 0.5, 0.0, field.cols - 1.0);
  const double y = std::clamp(at_px.y / board_px.height * field.rows - 0.5, 0.0, field.rows - 1.0);
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y), x1 = std::min(x0 + 1, field.cols - 1),
            y1 = std::min(y0 + 1, field.rows - 1);
  const float fx = static_cast<float>(x - x0), fy = static_cast<float>(y - y0);
  const float top = field.at<float>(y0, x0) * (1 - fx) + field.at<float>(y0, x1) * fx;
  const float bottom = field.at<float>(y1, x0) * (1 - fx) + field.at<float>(y1, x1) * fx;
  return top * (1 - fy) + bottom * fy;
}

}  // namespace swref::vision
