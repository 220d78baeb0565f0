#include "calibration/image_io.h"

#include <cctype>
#include <cstdlib>

#include <opencv2/imgcodecs.hpp>

#include "engine/json_input.h"

namespace swref::calibration {
namespace {

using R = engine::Result<ImageHeader>;

uint32_t Be16(std::string_view b, size_t at) { return static_cast<uint8_t>(b[at]) << 8 | static_cast<uint8_t>(b[at + 1]); }
uint32_t Be32(std::string_view b, size_t at) { return Be16(b, at) << 16 | Be16(b, at + 2); }
uint32_t Le16(std::string_view b, size_t at) { return static_cast<uint8_t>(b[at + 1]) << 8 | static_cast<uint8_t>(b[at]); }
uint32_t Le32(std::string_view b, size_t at) { return Le16(b, at + 2) << 16 | Le16(b, at); }

R Truncated(const std::string& where, const char* format) { return R::Error(where + ": a truncated " + std::string(format) + " header"); }

R Png(std::string_view b, const std::string& where) {
  if (b.size() < 24 || b.substr(12, 4) != "IHDR") return Truncated(where, "PNG");
  return ImageHeader{"png", {static_cast<int>(std::min<uint32_t>(Be32(b, 16), INT32_MAX)), static_cast<int>(std::min<uint32_t>(Be32(b, 20), INT32_MAX))}};
}

// JPEG: the markers up to the first start-of-frame, which holds the picture's size.
R Jpeg(std::string_view b, const std::string& where) {
  size_t at = 2;
  while (at + 4 <= b.size()) {
    if (static_cast<uint8_t>(b[at]) != 0xFF) return R::Error(where + ": a broken JPEG header (no marker where one should be)");
    const uint8_t marker = static_cast<uint8_t>(b[at + 1]);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {  // no length
      at += 2;
      continue;
    }
    if (marker == 0xD9 || marker == 0xDA) return R::Error(where + ": a JPEG without a frame header");
    const uint32_t length = Be16(b, at + 2);
    if (length < 2) return R::Error(where + ": a broken JPEG header (a segment of length " + std::to_string(length) + ")");
    const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      if (at + 9 > b.size()) break;
      const int height = static_cast<int>(Be16(b, at + 5)), width = static_cast<int>(Be16(b, at + 7));
      if (height == 0) return R::Error(where + ": a JPEG whose height is not in its frame header");
      return ImageHeader{"jpeg", {width, height}};
    }
    at += 2 + length;
  }
  return Truncated(where, "JPEG");
}

R Bmp(std::string_view b, const std::string& where) {
  if (b.size() < 26) return Truncated(where, "BMP");
  const uint32_t dib = Le32(b, 14);
  if (dib == 12) return ImageHeader{"bmp", {static_cast<int>(Le16(b, 18)), static_cast<int>(Le16(b, 20))}};
  const int64_t width = static_cast<int32_t>(Le32(b, 18)), height = static_cast<int32_t>(Le32(b, 22));
  auto clamp = [](int64_t v) { return static_cast<int>(std::min<int64_t>(std::abs(v), INT32_MAX)); };
  return ImageHeader{"bmp", {clamp(width), clamp(height)}};
}

// PNM: "P<n>", then width and height as decimal numbers between whitespace and #-comments, read exactly as
// OpenCV's reader reads them (grfmt_pxm.cpp, ReadNumber): a number ends at its first non-digit, and that byte is
// taken with it, so "2876#333270" is 2876 then 333270, not 2876 then a comment. (Reading it as a comment, this check
// once passed a 17-byte file that OpenCV then decoded as 2876x333270: 2.9 GB; found by the `image` fuzz target.)
R Pnm(std::string_view b, const std::string& where) {
  size_t at = 2;
  int64_t values[2] = {0, 0};
  for (int64_t& v : values) {
    while (at < b.size()) {
      if (std::isspace(static_cast<unsigned char>(b[at]))) ++at;
      else if (b[at] == '#') while (at < b.size() && b[at] != '\n' && b[at] != '\r') ++at;
      else break;
    }
    if (at >= b.size() || !std::isdigit(static_cast<unsigned char>(b[at]))) return Truncated(where, "PNM");
    while (at < b.size() && std::isdigit(static_cast<unsigned char>(b[at]))) v = std::min<int64_t>(v * 10 + (b[at++] - '0'), INT32_MAX);
    ++at;  // the byte that ended the number
  }
  return ImageHeader{"pnm", {static_cast<int>(values[0]), static_cast<int>(values[1])}};
}

}  // namespace

engine::Result<ImageHeader> PeekImageHeader(std::string_view b, const std::string& where) {
  if (b.empty()) return R::Error(where + ": the file is empty");
  if (b.size() >= 8 && b.substr(0, 8) == "\x89PNG\r\n\x1a\n") return Png(b, where);
  if (b.size() >= 3 && b.substr(0, 3) == "\xFF\xD8\xFF") return Jpeg(b, where);
  if (b.size() >= 2 && b.substr(0, 2) == "BM") return Bmp(b, where);
  if (b.size() >= 3 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6' && std::isspace(static_cast<unsigned char>(b[2]))) return Pnm(b, where);
  return R::Error(where + ": not a PNG, JPEG, BMP or PNM image");
}

engine::Result<cv::Mat> DecodeImage(std::string_view bytes, int flags, const std::string& where, int max_side) {
  using M = engine::Result<cv::Mat>;
  auto header = PeekImageHeader(bytes, where);
  if (!header) return M::Error(header.error());
  const cv::Size s = header->size;
  if (s.width <= 0 || s.height <= 0) return M::Error(where + ": the " + header->format + " header declares an empty picture");
  if (s.width > max_side || s.height > max_side) {
    return M::Error(where + ": the picture is " + std::to_string(s.width) + "x" + std::to_string(s.height) + ", larger than the limit of " +
                    std::to_string(max_side) + " pixels a side");
  }
  const cv::Mat buffer(1, static_cast<int>(bytes.size()), CV_8U, const_cast<char*>(bytes.data()));
  cv::Mat image;
  try {
    image = cv::imdecode(buffer, flags);
  } catch (const cv::Exception&) {
    image.release();
  }
  if (image.empty()) return M::Error(where + ": not a readable image (a broken or truncated " + header->format + ")");
  if (image.cols > max_side || image.rows > max_side) return M::Error(where + ": the picture is larger than its header says");
  return image;
}

engine::Result<cv::Mat> ReadImageFile(const std::string& path, int flags, int max_side) {
  auto bytes = engine::ReadFileBytes(path, kMaxImageFileBytes, "image");
  if (!bytes) return engine::Result<cv::Mat>::Error(bytes.error());
  return DecodeImage(*bytes, flags, path, max_side);
}

}  // namespace swref::calibration
