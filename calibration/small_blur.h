// OpenCV's Gaussian blur of an 8-bit image, the same values, made faster for the small patches the token matcher
// converts by the thousand (a 69 x 69 patch: about 16 us where cv::GaussianBlur takes about 33, most of it its
// set-up). OpenCV's 8-bit path is exact integer arithmetic: the kernel in 256ths, a row pass in 16 bits, a column
// pass in 32, rounded once at the end; here the same sums in float, which holds every one of them exactly (none
// reaches 2^24). Larger images go to OpenCV, whose row and column passes run in wider vector code than this one.
#pragma once

#include <opencv2/core.hpp>

namespace swref::calibration {

// cv::GaussianBlur(src, dst, cv::Size(), sigma) with its default border (reflect 101), for CV_8UC3. Checked against
// OpenCV 4.6 for the matcher's two blurs (kMatchBlurPx and half of it) on images of every shape from 1 x 1 up
// (test: SmallBlur.*). Other types, kernels and large images: cv::GaussianBlur itself.
void SmallGaussianBlur(const cv::Mat& src, cv::Mat& dst, double sigma);

}  // namespace swref::calibration
