// The two picture formats swref reads and writes, JPEG (libjpeg-turbo) and PNG (libpng), without OpenCV's
// imgcodecs: see image_io.h for why. Callers use image_io.h, which checks the header and the limits first.
#pragma once

#include <string>
#include <string_view>

#include <opencv2/core.hpp>

#include "calibration/image_io.h"
#include "engine/result.h"

namespace swref::calibration {

// Decoded as `mode` asks (image_io.h). A JPEG's EXIF orientation is applied; a truncated file is an error.
engine::Result<cv::Mat> DecodeJpeg(std::string_view bytes, ImageRead mode, const std::string& where, int max_side);
engine::Result<cv::Mat> DecodePng(std::string_view bytes, ImageRead mode, const std::string& where, int max_side);

// 8-bit pictures of 1, 3 (BGR) or 4 (BGRA; JPEG drops the alpha) channels, with OpenCV's default settings.
engine::Result<std::string> EncodeJpeg(const cv::Mat& image, int quality);
engine::Result<std::string> EncodePng(const cv::Mat& image);

}  // namespace swref::calibration
