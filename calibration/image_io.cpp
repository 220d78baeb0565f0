#include "calibration/image_io.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>


#include "calibration/image_codec.h"
#include "engine/durable_write.h"
#include "engine/json_input.h"

namespace swref::calibration {
namespace {

using HeaderResult = engine::Result<ImageHeader>;

uint32_t Be16(std::string_view b, size_t at) { return static_cast<uint8_t>(b[at]) << 8 | static_cast<uint8_t>(b[at + 1]); }
uint32_t Be32(std::string_view b, size_t at) { return Be16(b, at) << 16 | Be16(b, at + 2); }

// The signatures of the two formats read: PNG's 8 bytes, JPEG's start marker and the next marker's first byte.
bool IsPng(std::string_view b) { return b.substr(0, 8) == "\x89PNG\r\n\x1a\n"; }
bool IsJpeg(std::string_view b) { return b.substr(0, 3) == "\xFF\xD8\xFF"; }

HeaderResult Truncated(const std::string& where, const char* format) { return HeaderResult::Error(where + ": a truncated " + std::string(format) + " header"); }

HeaderResult Png(std::string_view b, const std::string& where) {
  if (b.size() < 24 || b.substr(12, 4) != "IHDR") return Truncated(where, "PNG");
  return ImageHeader{"png", {static_cast<int>(std::min<uint32_t>(Be32(b, 16), INT32_MAX)), static_cast<int>(std::min<uint32_t>(Be32(b, 20), INT32_MAX))}};
}

// JPEG: the markers up to the first start-of-frame, which holds the picture's size.
HeaderResult Jpeg(std::string_view b, const std::string& where) {
  size_t at = 2;
  while (at + 4 <= b.size()) {
    if (static_cast<uint8_t>(b[at]) != 0xFF) return HeaderResult::Error(where + ": a broken JPEG header (no marker where one should be)");
    const uint8_t marker = static_cast<uint8_t>(b[at + 1]);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0x00) {  // a stuffed zero: libjpeg skips it as stray data, and so does this
      at += 2;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {  // no length
      at += 2;
      continue;
    }
    if (marker == 0xD9 || marker == 0xDA) return HeaderResult::Error(where + ": a JPEG without a frame header");
    const uint32_t length = Be16(b, at + 2);
    if (length < 2) return HeaderResult::Error(where + ": a broken JPEG header (a segment of length " + std::to_string(length) + ")");
    const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      if (at + 9 > b.size()) break;
      const int height = static_cast<int>(Be16(b, at + 5)), width = static_cast<int>(Be16(b, at + 7));
      if (height == 0) return HeaderResult::Error(where + ": a JPEG whose height is not in its frame header");
      return ImageHeader{"jpeg", {width, height}};
    }
    at += 2 + length;
  }
  return Truncated(where, "JPEG");
}

}  // namespace

engine::Result<ImageHeader> PeekImageHeader(std::string_view b, const std::string& where) {
  if (b.empty()) return HeaderResult::Error(where + ": the file is empty");
  if (IsPng(b)) return Png(b, where);
  if (IsJpeg(b)) return Jpeg(b, where);
  return HeaderResult::Error(where + ": not a PNG or JPEG image");
}

engine::Result<cv::Mat> DecodeImage(std::string_view bytes, ImageRead mode, const std::string& where, int max_side) {
  using M = engine::Result<cv::Mat>;
  auto header = PeekImageHeader(bytes, where);
  if (!header) return M::Error(header.error());
  const cv::Size s = header->size;
  if (s.width <= 0 || s.height <= 0) return M::Error(where + ": the " + header->format + " header declares an empty picture");
  if (s.width > max_side || s.height > max_side) {
    return M::Error(where + ": the picture is " + std::to_string(s.width) + "x" + std::to_string(s.height) + ", larger than the limit of " +
                    std::to_string(max_side) + " pixels a side");
  }
  auto image = header->format == "png" ? DecodePng(bytes, mode, where, max_side) : DecodeJpeg(bytes, mode, where, max_side);
  if (!image) return image;
  if (image->cols > max_side || image->rows > max_side) return M::Error(where + ": the picture is larger than its header says");
  return image;
}

engine::Result<cv::Mat> ReadImageFile(const std::string& path, ImageRead mode, int max_side) {
  auto bytes = engine::ReadFileBytes(path, kMaxImageFileBytes, "image");
  if (!bytes) return engine::Result<cv::Mat>::Error(bytes.error());
  return DecodeImage(*bytes, mode, path, max_side);
}

bool LooksLikeImage(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  const std::string_view b(head, static_cast<size_t>(in.gcount()));
  return IsPng(b) || IsJpeg(b);
}

engine::Result<std::string> EncodeImage(const std::string& extension, const cv::Mat& image, int jpeg_quality) {
  std::string ext = extension;
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".png") return EncodePng(image);
  if (ext == ".jpg" || ext == ".jpeg") return EncodeJpeg(image, jpeg_quality);
  return engine::Result<std::string>::Error("\"" + extension + "\": not an image extension swref writes (.png, .jpg, .jpeg)");
}

engine::Result<bool> WriteImageFile(const std::string& path, const cv::Mat& image, int jpeg_quality) {
  using B = engine::Result<bool>;
  auto bytes = EncodeImage(std::filesystem::path(path).extension().string(), image, jpeg_quality);
  if (!bytes) return B::Error(path + ": " + bytes.error());
  // engine::ReplaceFileDurably: the program crashing, the disk filling up or a power cut leaves the old file or
  // the new one, never a picture cut short that a later read would refuse (a setup's reference photo, a dataset's
  // frames). Its error names the file and the system's reason.
  const engine::WriteOutcome written = engine::ReplaceFileDurably(path, *bytes);
  if (!written.ok()) return B::Error(written.error);
  return true;
}

}  // namespace swref::calibration
