// Reading images that come from outside (camera frames, the reference photo, enrollment crops) with bounded cost:
// the file's size is checked before it is read, and the picture's size is read from the file's header before
// anything is decoded, so that a small file that declares a huge picture (a "decompression bomb") is refused
// without allocating it. Formats: PNG, JPEG, BMP and PNM (P1-P6); others are refused. These four are the ones
// whose OpenCV decoder is chosen by the same fixed signature we check, ahead of any other decoder: an input that
// looked like WebP but that libwebp refused went on to OpenCV's DICOM and GDAL readers (found by fuzzing: GDCM
// aborts the process on a 134-byte file, docs/fuzzing.md). The limits are in docs/architecture.md, "Limits".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

inline constexpr int kMaxImageSide = 8192;                          // px, either side
inline constexpr std::uintmax_t kMaxImageFileBytes = 128u << 20;    // 128 MiB

struct ImageHeader {
  std::string format;                // "png", "jpeg", "bmp", "pnm"
  cv::Size size;                     // as the header declares it
};

// The format and picture size the bytes' header declares, without decoding. `where` names the image in errors.
engine::Result<ImageHeader> PeekImageHeader(std::string_view bytes, const std::string& where);

// Decodes (cv::imdecode with `flags`) after checking the header: at most `max_side` pixels a side.
engine::Result<cv::Mat> DecodeImage(std::string_view bytes, int flags, const std::string& where, int max_side = kMaxImageSide);

// Reads and decodes a file of at most kMaxImageFileBytes; errors name the file.
engine::Result<cv::Mat> ReadImageFile(const std::string& path, int flags, int max_side = kMaxImageSide);

}  // namespace swref::calibration
