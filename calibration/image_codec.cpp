// JPEG and PNG, read and written with libjpeg-turbo and libpng directly (image_io.h says why not OpenCV's
// imgcodecs). Both libraries report errors by longjmp: every function that calls into them with a setjmp point holds
// only plain data, so that a jump skips no destructor; what needs freeing lives in a holder one frame up.
#include "calibration/image_codec.h"

#include <csetjmp>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <vector>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace {

using M = engine::Result<cv::Mat>;
using S = engine::Result<std::string>;

constexpr int kMaxJpegScans = 500;                  // a progressive JPEG's scans; more is an attack, not a photo
constexpr long kMaxJpegWorkBytes = 768L << 20;      // libjpeg's own buffers (a progressive CMYK 8192² needs 512 MB)
constexpr png_alloc_size_t kMaxPngChunkBytes = 8u << 20;  // one ancillary chunk (text, ICC profile, ...)

// ---- JPEG ------------------------------------------------------------------------------------------------------

struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char text[JMSG_LENGTH_MAX];
  int ran_out_at = -1;  // the row of blocks being read when the file ended before its end marker (JWRN_JPEG_EOF)
};

[[noreturn]] void JpegFail(j_common_ptr c) {
  auto* e = reinterpret_cast<JpegError*>(c->err);
  c->err->format_message(c, e->text);
  std::longjmp(e->jump, 1);
}

// Warnings: picture data missing (a file cut inside a scan) fails the decode, where libjpeg would fill the rest
// with grey and the referee would see a board half covered. Other warnings are harmless: extra bytes before a
// marker (common in webcam MJPEG), a file that ends without its end marker once the picture is complete (libjpeg
// then warns of the early end, but needs no bit that is missing).
void JpegNote(j_common_ptr c, int level) {
  if (level < 0 && c->err->msg_code == JWRN_HIT_MARKER) JpegFail(c);
  auto* e = reinterpret_cast<JpegError*>(c->err);
  if (level < 0 && c->err->msg_code == JWRN_JPEG_EOF && c->is_decompressor && e->ran_out_at < 0) {
    e->ran_out_at = static_cast<int>(reinterpret_cast<j_decompress_ptr>(c)->input_iMCU_row);
  }
}

// Called before each step of the decode. Two checks: the number of scans, and picture data missing. The second
// covers what JpegNote cannot see: the arithmetic decoder meets the end of the data without a warning and feeds
// zeros to the last row, so a file cut short decoded as a picture with a blank lower part, and a 179-byte one
// declaring 2112x7425 pixels cost most of a second (found by fuzzing, docs/fuzzing.md). When the file ran out
// before its end marker while a scan still had more than its last row of blocks to read, the picture is cut short.
// Only a file that ran out: a whole arithmetic-coded file may end its data early with its own end marker (the coder
// drops its final zero bytes, and a flat band costs it almost nothing). A whole file without its end marker runs
// out in its last row, or after its last scan.
void JpegProgress(j_common_ptr c) {
  auto* d = reinterpret_cast<j_decompress_ptr>(c);
  auto* e = reinterpret_cast<JpegError*>(c->err);
  if (d->input_scan_number > kMaxJpegScans) {
    std::snprintf(e->text, sizeof e->text, "more than %d progressive scans", kMaxJpegScans);
    std::longjmp(e->jump, 1);
  }
  if (e->ran_out_at >= 0 && static_cast<JDIMENSION>(e->ran_out_at) + 1 < d->total_iMCU_rows) {
    std::snprintf(e->text, sizeof e->text, "the file ends in the picture data, at row %u of %u", e->ran_out_at * d->max_v_samp_factor * DCTSIZE, d->image_height);
    std::longjmp(e->jump, 1);
  }
}

struct JpegReader {
  jpeg_decompress_struct info{};
  JpegError err{};
  jpeg_progress_mgr progress{};
  int orientation = 1;  // read with the header: jpeg_finish_decompress frees the saved markers
  ~JpegReader() { jpeg_destroy_decompress(&info); }
};

// EXIF orientation (tag 0x0112 of IFD0 in an APP1 "Exif" marker): 1 upright, 2-8 the seven flips and turns.
int ExifOrientation(const jpeg_decompress_struct& info) {
  for (jpeg_saved_marker_ptr m = info.marker_list; m; m = m->next) {
    const unsigned char* p = m->data;
    const size_t n = m->data_length;
    if (m->marker != JPEG_APP0 + 1 || n < 14 || std::memcmp(p, "Exif\0\0", 6) != 0) continue;
    const unsigned char* t = p + 6;
    const size_t tn = n - 6;
    const bool little = t[0] == 'I' && t[1] == 'I';
    if (!little && !(t[0] == 'M' && t[1] == 'M')) return 1;
    auto u16 = [&](size_t at) -> unsigned { return little ? t[at] | t[at + 1] << 8 : t[at] << 8 | t[at + 1]; };
    auto u32 = [&](size_t at) -> size_t { return little ? u16(at) | static_cast<size_t>(u16(at + 2)) << 16 : static_cast<size_t>(u16(at)) << 16 | u16(at + 2); };
    const size_t ifd = u32(4);
    if (ifd + 2 > tn) return 1;
    const unsigned entries = u16(ifd);
    for (unsigned i = 0; i < entries; ++i) {
      const size_t e = ifd + 2 + 12 * static_cast<size_t>(i);
      if (e + 12 > tn) return 1;
      if (u16(e) == 0x0112) {
        const unsigned v = u16(e + 8);
        return v >= 1 && v <= 8 ? static_cast<int>(v) : 1;
      }
    }
    return 1;
  }
  return 1;
}

cv::Mat Upright(cv::Mat image, int orientation) {
  cv::Mat out;
  switch (orientation) {
    case 2: cv::flip(image, out, 1); return out;
    case 3: cv::rotate(image, out, cv::ROTATE_180); return out;
    case 4: cv::flip(image, out, 0); return out;
    case 5: cv::transpose(image, out); return out;
    case 6: cv::rotate(image, out, cv::ROTATE_90_CLOCKWISE); return out;
    case 7: cv::transpose(image, out), cv::flip(out, out, -1); return out;
    case 8: cv::rotate(image, out, cv::ROTATE_90_COUNTERCLOCKWISE); return out;
    default: return image;
  }
}

// Header and output set-up. Plain data only (see the top of the file).
bool JpegStart(JpegReader* r, const unsigned char* data, size_t size, ImageRead mode, int max_side) {
  jpeg_decompress_struct& info = r->info;
  info.err = jpeg_std_error(&r->err.mgr);
  r->err.mgr.error_exit = JpegFail;
  r->err.mgr.emit_message = JpegNote;
  if (setjmp(r->err.jump)) return false;
  jpeg_create_decompress(&info);
  info.mem->max_memory_to_use = kMaxJpegWorkBytes;
  r->progress.progress_monitor = JpegProgress;
  info.progress = &r->progress;
  jpeg_mem_src(&info, data, static_cast<unsigned long>(size));
  jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header(&info, TRUE);
  // The size libjpeg will decode, checked again here: the header check (image_io.cpp) reads markers its own way,
  // and a file can show it a small frame header while libjpeg reads a huge one.
  if (info.image_width > static_cast<JDIMENSION>(max_side) || info.image_height > static_cast<JDIMENSION>(max_side)) {
    std::snprintf(r->err.text, sizeof r->err.text, "a frame of %ux%u, larger than the limit of %d pixels a side", info.image_width,
                  info.image_height, max_side);
    return false;
  }
  r->orientation = ExifOrientation(info);
  const bool cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  const bool gray_file = info.jpeg_color_space == JCS_GRAYSCALE;
  if (cmyk) info.out_color_space = JCS_CMYK;  // converted below: libjpeg has no CMYK -> BGR
  else if (mode == ImageRead::kGray || (mode == ImageRead::kUnchanged && gray_file)) info.out_color_space = JCS_GRAYSCALE;
  else info.out_color_space = JCS_EXT_BGR;
  jpeg_start_decompress(&info);
  return true;
}

bool JpegRows(JpegReader* r, unsigned char* out, size_t step) {
  jpeg_decompress_struct& info = r->info;
  if (setjmp(r->err.jump)) return false;
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = out + step * info.output_scanline;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  return true;
}

// Adobe's CMYK JPEGs store the inks inverted: each colour is its ink times the black, over 255.
cv::Mat CmykToBgr(const cv::Mat& cmyk) {
  cv::Mat bgr(cmyk.size(), CV_8UC3);
  for (int y = 0; y < cmyk.rows; ++y) {
    const auto* in = cmyk.ptr<cv::Vec4b>(y);
    auto* out = bgr.ptr<cv::Vec3b>(y);
    for (int x = 0; x < cmyk.cols; ++x) {
      const int k = in[x][3];
      out[x] = cv::Vec3b(static_cast<uchar>(in[x][2] * k / 255), static_cast<uchar>(in[x][1] * k / 255), static_cast<uchar>(in[x][0] * k / 255));
    }
  }
  return bgr;
}

// The output buffer is the writer's own (not jpeg_mem_dest's, which frees and replaces its buffer as it grows and
// tells the new one only at the end: after an error in between, the caller would free a stale pointer).
struct JpegWriter {
  jpeg_compress_struct info{};
  JpegError err{};
  jpeg_destination_mgr dest{};
  unsigned char* buffer = nullptr;
  size_t capacity = 0, size = 0;
  ~JpegWriter() {
    jpeg_destroy_compress(&info);
    std::free(buffer);
  }
};

JpegWriter* WriterOf(j_compress_ptr c) { return static_cast<JpegWriter*>(c->client_data); }

void DestStart(j_compress_ptr c) {
  JpegWriter* w = WriterOf(c);
  c->dest->next_output_byte = w->buffer;
  c->dest->free_in_buffer = w->capacity;
}

// Called when the buffer is full (all of it, whatever free_in_buffer says): twice the room.
boolean DestGrow(j_compress_ptr c) {
  JpegWriter* w = WriterOf(c);
  auto* bigger = static_cast<unsigned char*>(std::realloc(w->buffer, 2 * w->capacity));
  if (!bigger) ERREXIT1(c, JERR_OUT_OF_MEMORY, 0);
  w->buffer = bigger;
  c->dest->next_output_byte = w->buffer + w->capacity;
  c->dest->free_in_buffer = w->capacity;
  w->capacity *= 2;
  return TRUE;
}

void DestEnd(j_compress_ptr c) {
  JpegWriter* w = WriterOf(c);
  w->size = w->capacity - c->dest->free_in_buffer;
}

// The settings OpenCV's writer uses (libjpeg's defaults, the quality limited to baseline tables), so that the
// bytes are the same as cv::imwrite's.
bool JpegWrite(JpegWriter* w, const cv::Mat& image, int quality) {
  jpeg_compress_struct& info = w->info;
  info.err = jpeg_std_error(&w->err.mgr);
  w->err.mgr.error_exit = JpegFail;
  if (setjmp(w->err.jump)) return false;
  jpeg_create_compress(&info);
  info.client_data = w;
  w->dest.init_destination = DestStart;
  w->dest.empty_output_buffer = DestGrow;
  w->dest.term_destination = DestEnd;
  info.dest = &w->dest;
  info.image_width = static_cast<JDIMENSION>(image.cols);
  info.image_height = static_cast<JDIMENSION>(image.rows);
  info.input_components = image.channels();
  info.in_color_space = image.channels() == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = const_cast<unsigned char*>(image.ptr<unsigned char>(static_cast<int>(info.next_scanline)));
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  return true;
}

// ---- PNG -------------------------------------------------------------------------------------------------------

struct PngIo {
  const unsigned char* data = nullptr;
  size_t size = 0, at = 0;
  std::vector<unsigned char>* out = nullptr;
  char text[256] = "";
};

[[noreturn]] void PngFail(png_structp png, png_const_charp message) {
  auto* io = static_cast<PngIo*>(png_get_error_ptr(png));
  std::snprintf(io->text, sizeof io->text, "%s", message);
  png_longjmp(png, 1);
}
void PngWarn(png_structp, png_const_charp) {}

void PngRead(png_structp png, png_bytep out, size_t n) {
  auto* io = static_cast<PngIo*>(png_get_io_ptr(png));
  if (n > io->size - io->at) png_error(png, "the file ends inside the picture (truncated)");
  std::memcpy(out, io->data + io->at, n);
  io->at += n;
}

void PngWriteBytes(png_structp png, png_bytep bytes, size_t n) {
  auto* io = static_cast<PngIo*>(png_get_io_ptr(png));
  bool out_of_memory = false;
  try {
    io->out->insert(io->out->end(), bytes, bytes + n);
  } catch (const std::bad_alloc&) {
    out_of_memory = true;  // the jump is made outside the handler: a longjmp out of one would leave it open
  }
  if (out_of_memory) png_error(png, "out of memory");
}
void PngFlush(png_structp) {}

struct PngReader {
  PngIo io;
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngReader() { png_destroy_read_struct(&png, &info, nullptr); }
};

// The header, and the transforms that give 8-bit BGR(A) or grey the way OpenCV's reader gives them: 16 bits
// stripped to their high byte, palettes and small greys expanded, alpha kept only for kUnchanged.
bool PngStart(PngReader* r, ImageRead mode, int max_side) {
  png_structp png = r->png;
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_read_fn(png, &r->io, PngRead);
  png_set_user_limits(png, static_cast<png_uint_32>(max_side), static_cast<png_uint_32>(max_side));
  png_set_chunk_malloc_max(png, kMaxPngChunkBytes);
  png_read_info(png, r->info);
  const int depth = png_get_bit_depth(png, r->info), type = png_get_color_type(png, r->info);
  const bool keep_alpha = mode == ImageRead::kUnchanged;
  if (depth == 16) png_set_strip_16(png);
  if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, r->info, PNG_INFO_tRNS)) {
    if (keep_alpha) png_set_tRNS_to_alpha(png);
  }
  if (!keep_alpha) png_set_strip_alpha(png);
  const bool colour_file = (type & PNG_COLOR_MASK_COLOR) != 0;
  if (mode == ImageRead::kGray && colour_file) png_set_rgb_to_gray_fixed(png, 1, 29900, 58700);  // OpenCV's weights, 0.299 and 0.587
  if (mode == ImageRead::kColor && !colour_file) png_set_gray_to_rgb(png);
  if (mode == ImageRead::kUnchanged && !colour_file && (type & PNG_COLOR_MASK_ALPHA || png_get_valid(png, r->info, PNG_INFO_tRNS))) {
    png_set_gray_to_rgb(png);  // grey with alpha: BGRA, as OpenCV gives it
  }
  png_set_bgr(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, r->info);
  return true;
}

bool PngRows(PngReader* r, png_bytep* rows) {
  if (setjmp(png_jmpbuf(r->png))) return false;
  png_read_image(r->png, rows);
  png_read_end(r->png, nullptr);
  return true;
}

struct PngWriter {
  PngIo io;
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngWriter() { png_destroy_write_struct(&png, &info); }
};

// OpenCV's default settings: the "sub" filter, zlib's fastest level, run-length matching.
bool PngWrite(PngWriter* w, const cv::Mat& image, png_bytep* rows) {
  png_structp png = w->png;
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_write_fn(png, &w->io, PngWriteBytes, PngFlush);
  const int type = image.channels() == 1 ? PNG_COLOR_TYPE_GRAY : image.channels() == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
  png_set_IHDR(png, w->info, static_cast<png_uint_32>(image.cols), static_cast<png_uint_32>(image.rows), 8, type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_compression_level(png, 1);
  png_set_compression_strategy(png, 3);  // Z_RLE
  png_write_info(png, w->info);
  if (image.channels() > 1) png_set_bgr(png);
  png_write_image(png, rows);
  png_write_end(png, w->info);
  return true;
}

std::string Broken(const std::string& where, const char* format, const char* detail) {
  return where + ": not a readable image (a broken or truncated " + format + (detail && *detail ? std::string(": ") + detail : std::string()) + ")";
}

}  // namespace

M DecodeJpeg(std::string_view bytes, ImageRead mode, const std::string& where, int max_side) {
  JpegReader r;
  if (!JpegStart(&r, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), mode, max_side)) return M::Error(Broken(where, "jpeg", r.err.text));
  const int channels = r.info.output_components;
  cv::Mat image(static_cast<int>(r.info.output_height), static_cast<int>(r.info.output_width), CV_8UC(channels));
  if (!JpegRows(&r, image.data, image.step)) return M::Error(Broken(where, "jpeg", r.err.text));
  if (channels == 4) {
    image = CmykToBgr(image);
    if (mode == ImageRead::kGray) cv::cvtColor(image, image, cv::COLOR_BGR2GRAY);
  }
  return Upright(image, r.orientation);
}

M DecodePng(std::string_view bytes, ImageRead mode, const std::string& where, int max_side) {
  PngReader r;
  r.io.data = reinterpret_cast<const unsigned char*>(bytes.data());
  r.io.size = bytes.size();
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.io, PngFail, PngWarn);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) return M::Error(where + ": out of memory reading the png");
  if (!PngStart(&r, mode, max_side)) return M::Error(Broken(where, "png", r.io.text));
  const int channels = png_get_channels(r.png, r.info);
  const png_uint_32 width = png_get_image_width(r.png, r.info), height = png_get_image_height(r.png, r.info);
  if (channels < 1 || channels > 4 || png_get_rowbytes(r.png, r.info) != static_cast<size_t>(width) * channels) {
    return M::Error(Broken(where, "png", "an unexpected pixel layout"));
  }
  cv::Mat image(static_cast<int>(height), static_cast<int>(width), CV_8UC(channels));
  std::vector<png_bytep> rows(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = image.ptr(static_cast<int>(y));
  if (!PngRows(&r, rows.data())) return M::Error(Broken(where, "png", r.io.text));
  return image;
}

S EncodeJpeg(const cv::Mat& image, int quality) {
  if (image.empty() || image.depth() != CV_8U) return S::Error("JPEG: expected a non-empty 8-bit picture");
  cv::Mat in = image;
  if (image.channels() == 4) cv::cvtColor(image, in, cv::COLOR_BGRA2BGR);
  else if (image.channels() != 1 && image.channels() != 3) return S::Error("JPEG: expected 1, 3 or 4 channels");
  JpegWriter w;
  w.capacity = 64 << 10;
  w.buffer = static_cast<unsigned char*>(std::malloc(w.capacity));
  if (!w.buffer) return S::Error("JPEG: out of memory");
  if (!JpegWrite(&w, in, std::clamp(quality, 1, 100))) return S::Error(std::string("JPEG: ") + w.err.text);
  return std::string(reinterpret_cast<const char*>(w.buffer), w.size);
}

S EncodePng(const cv::Mat& image) {
  if (image.empty() || image.depth() != CV_8U) return S::Error("PNG: expected a non-empty 8-bit picture");
  if (image.channels() != 1 && image.channels() != 3 && image.channels() != 4) return S::Error("PNG: expected 1, 3 or 4 channels");
  std::vector<unsigned char> out;
  PngWriter w;
  w.io.out = &out;
  w.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w.io, PngFail, PngWarn);
  if (w.png) w.info = png_create_info_struct(w.png);
  if (!w.png || !w.info) return S::Error("PNG: out of memory");
  std::vector<png_bytep> rows(static_cast<size_t>(image.rows));
  for (int y = 0; y < image.rows; ++y) rows[static_cast<size_t>(y)] = const_cast<png_bytep>(image.ptr(y));
  if (!PngWrite(&w, image, rows.data())) return S::Error(std::string("PNG: ") + w.io.text);
  return std::string(out.begin(), out.end());
}

}  // namespace swref::calibration
