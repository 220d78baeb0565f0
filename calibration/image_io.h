// Reading images that come from outside (camera frames, the reference photo, enrollment crops) with bounded cost:
// the file's size is checked before it is read, and the picture's size is read from the file's header before
// anything is decoded, so that a small file that declares a huge picture (a "decompression bomb") is refused
// without allocating it. Formats: PNG and JPEG, what cameras and phones write; others are refused. They are
// decoded and encoded with libpng and libjpeg-turbo directly (image_codec.h), not OpenCV's imgcodecs: that module
// pulls about 120 shared libraries into every process (GDAL, GDCM, OpenEXR, ...: 0.21 s and 42 MB at each start,
// docs/architecture.md), and it hands an input its own check refused to the next decoder (found by fuzzing: an
// input that looked like WebP went on to GDCM, which aborts the process on a 134-byte file, docs/fuzzing.md). The
// limits are in docs/architecture.md, "Limits".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <opencv2/core.hpp>

#include "engine/result.h"

namespace swref::calibration {

inline constexpr int kMaxImageSide = 8192;                          // px, either side
inline constexpr std::uintmax_t kMaxImageFileBytes = 128u << 20;    // 128 MiB

// What a decode gives: 8-bit BGR; 8-bit grey; or the file's own channels (grey 1, colour 3 BGR, with alpha 4 BGRA),
// still 8-bit (16-bit PNGs keep their high byte in every mode, as OpenCV's reader does).
enum class ImageRead { kColor, kGray, kUnchanged };

struct ImageHeader {
  std::string format;                // "png", "jpeg"
  cv::Size size;                     // as the header declares it
};

// The format and picture size the bytes' header declares, without decoding. `where` names the image in errors.
engine::Result<ImageHeader> PeekImageHeader(std::string_view bytes, const std::string& where);

// Decodes after checking the header: at most `max_side` pixels a side. A JPEG's EXIF orientation is applied (a
// phone's photo comes out upright); a truncated file is an error, never a picture half grey.
engine::Result<cv::Mat> DecodeImage(std::string_view bytes, ImageRead mode, const std::string& where, int max_side = kMaxImageSide);

// Reads and decodes a file of at most kMaxImageFileBytes; errors name the file.
engine::Result<cv::Mat> ReadImageFile(const std::string& path, ImageRead mode = ImageRead::kColor, int max_side = kMaxImageSide);

// Whether the file's first bytes are a PNG or JPEG header (a cheap check before a long job).
bool LooksLikeImage(const std::string& path);

// Writes an 8-bit picture (1, 3 or 4 channels) as PNG or JPEG, chosen by the name's extension (.png, .jpg, .jpeg;
// any case), the way cv::imwrite would. Replaced durably (engine/durable_write.h: a temporary file beside it,
// flushed and renamed over it), so a failed write or a crash leaves the old file whole. Errors name the file and
// the system's reason; one error comes after the new file is in place: its folder could not be flushed.
engine::Result<bool> WriteImageFile(const std::string& path, const cv::Mat& image, int jpeg_quality = 95);
// The same in memory: ".png", ".jpg" or ".jpeg".
engine::Result<std::string> EncodeImage(const std::string& extension, const cv::Mat& image, int jpeg_quality = 95);

}  // namespace swref::calibration
