#include "calibration/image_io.h"

#include <gtest/gtest.h>

#include "calibration/image_codec.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <jpeglib.h>

#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace {

namespace fs = std::filesystem;

std::string Encode(const std::string& ext, const cv::Mat& image, int quality = 95) {
  auto bytes = EncodeImage(ext, image, quality);
  EXPECT_TRUE(bytes.ok()) << bytes.error();
  return bytes ? *bytes : std::string();
}

cv::Mat Picture(int width, int height, int type = CV_8UC3) {
  cv::Mat m(height, width, type);
  cv::randu(m, cv::Scalar::all(0), cv::Scalar::all(255));
  return m;
}

std::string CorpusFile(const std::string& name) {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/fuzz/corpus/image/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A JPEG with arithmetic coding (swref never writes one, a camera seldom does, libjpeg-turbo reads them), one scan
// or progressive. Written with libjpeg directly: EncodeImage writes Huffman-coded baseline files only.
std::string EncodeArithmetic(const cv::Mat& bgr, bool progressive) {
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = static_cast<JDIMENSION>(bgr.cols), c.image_height = static_cast<JDIMENSION>(bgr.rows);
  c.input_components = 3, c.in_color_space = JCS_EXT_BGR;
  jpeg_set_defaults(&c);
  c.arith_code = TRUE;
  if (progressive) jpeg_simple_progression(&c);
  jpeg_start_compress(&c, TRUE);
  for (int y = 0; y < bgr.rows; ++y) {
    JSAMPROW row = const_cast<unsigned char*>(bgr.ptr(y));
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::string bytes(reinterpret_cast<char*>(out), size);
  std::free(out);
  return bytes;
}

double MaxDiff(const cv::Mat& a, const cv::Mat& b) { return cv::norm(a, b, cv::NORM_INF); }

TEST(PeekImageHeader, ReadsTheSizeOfEveryFormat) {
  for (const std::string ext : {".png", ".jpg"}) {
    const cv::Mat image = Picture(37, 23);
    auto header = PeekImageHeader(Encode(ext, image), "x" + ext);
    ASSERT_TRUE(header.ok()) << header.error();
    EXPECT_EQ(header->size, cv::Size(37, 23)) << ext;
    auto decoded = DecodeImage(Encode(ext, image), ImageRead::kUnchanged, "x" + ext);
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_EQ(decoded->size(), cv::Size(37, 23)) << ext;
  }
}

TEST(PeekImageHeader, RejectsXNamingTheFile) {
  EXPECT_EQ(PeekImageHeader("", "a.png").error(), "a.png: the file is empty");
  EXPECT_EQ(PeekImageHeader("hello", "a.png").error(), "a.png: not a PNG or JPEG image");
  // TIFF, WebP, BMP and PNM headers: formats swref does not read.
  for (const std::string& head : {std::string("II*\0\x08\0\0\0", 8), std::string("RIFF\x1a\x01\0\0WEBPVP8 ", 16), std::string("BM\x36\0\0\0", 6),
                                 std::string("P6\n8 8\n255\n")}) {
    EXPECT_EQ(PeekImageHeader(head + std::string(64, '\0'), "a.img").error(), "a.img: not a PNG or JPEG image") << head;
  }
  EXPECT_EQ(PeekImageHeader(Encode(".png", Picture(8, 8)).substr(0, 20), "a.png").error(), "a.png: a truncated PNG header");
  EXPECT_EQ(PeekImageHeader(Encode(".jpg", Picture(8, 8)).substr(0, 40), "a.jpg").error(), "a.jpg: a truncated JPEG header");
}

// A truncated file is refused, never decoded as a picture half grey (a referee would see a board half covered).
TEST(DecodeImage, RefusesTruncatedFiles) {
  const std::string jpeg = Encode(".jpg", Picture(64, 64));
  auto cut = DecodeImage(jpeg.substr(0, jpeg.size() / 2), ImageRead::kColor, "a.jpg");  // inside the scan
  EXPECT_EQ(cut.error(), "a.jpg: not a readable image (a broken or truncated jpeg: Corrupt JPEG data: premature end of data segment)");
  // Only the end marker missing: the picture is whole, and read (as OpenCV reads it).
  auto no_end = DecodeImage(jpeg.substr(0, jpeg.size() - 2), ImageRead::kColor, "b.jpg");
  ASSERT_TRUE(no_end.ok()) << no_end.error();
  EXPECT_EQ(MaxDiff(*no_end, *DecodeImage(jpeg, ImageRead::kColor, "c.jpg")), 0);
  const std::string png = Encode(".png", Picture(64, 64));
  auto cut_png = DecodeImage(png.substr(0, png.size() / 2), ImageRead::kColor, "a.png");
  EXPECT_EQ(cut_png.error(), "a.png: not a readable image (a broken or truncated png: the file ends inside the picture (truncated))");
}

// The arithmetic decoder meets the end of the data without a warning and feeds zeros to the last row: a file cut
// short is refused all the same, as soon as the data runs out (found by fuzzing: a 179-byte file declaring
// 2112x7425 pixels, docs/fuzzing.md). A whole file whose data ends early with its own end marker is read: the coder
// drops its final zero bytes, and a flat band costs it almost nothing.
TEST(DecodeImage, RefusesAnArithmeticCodedPictureCutShort) {
  const cv::Mat image = Picture(96, 128);
  for (const bool progressive : {false, true}) {
    const std::string jpeg = EncodeArithmetic(image, progressive);
    auto whole = DecodeImage(jpeg, ImageRead::kColor, "a.jpg");
    ASSERT_TRUE(whole.ok()) << whole.error();
    EXPECT_EQ(whole->size(), image.size());
    // Without its end marker the picture is whole, and read.
    EXPECT_TRUE(DecodeImage(jpeg.substr(0, jpeg.size() - 2), ImageRead::kColor, "b.jpg").ok()) << progressive;
    // Cut inside a scan (for a progressive file: an early one, then the last). A cut inside the last row of blocks
    // cannot be told from a whole file that lacks its end marker, and is read.
    const std::vector<size_t> cuts = progressive ? std::vector<size_t>{jpeg.size() / 3, jpeg.size() * 9 / 10} : std::vector<size_t>{jpeg.size() / 3, jpeg.size() / 2};
    for (const size_t keep : cuts) {
      auto cut = DecodeImage(jpeg.substr(0, keep), ImageRead::kColor, "c.jpg");
      ASSERT_FALSE(cut.ok()) << keep << (progressive ? " progressive" : "");
      EXPECT_NE(cut.error().find("c.jpg: not a readable image (a broken or truncated jpeg: the file ends in the picture data, at row "), std::string::npos) << cut.error();
    }
  }
  // A whole picture whose lower half is one flat colour: its data ends long before its last row, and it is read.
  cv::Mat flat = Picture(256, 256);
  flat(cv::Rect(0, 128, 256, 128)).setTo(cv::Scalar(40, 90, 160));
  for (const bool progressive : {false, true}) {
    auto decoded = DecodeImage(EncodeArithmetic(flat, progressive), ImageRead::kColor, "flat.jpg");
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_LT(cv::norm((*decoded)(cv::Rect(0, 160, 256, 96)), cv::Mat(96, 256, CV_8UC3, cv::Scalar(40, 90, 160)), cv::NORM_INF), 8) << progressive;
  }
  EXPECT_EQ(DecodeImage(CorpusFile("slow-arith-data-ends-2112x7425.jpg"), ImageRead::kColor, "e.jpg").error(),
            "e.jpg: not a readable image (a broken or truncated jpeg: the file ends in the picture data, at row 0 of 7425)");
}

// PNG is lossless in every layout; JPEG close.
TEST(DecodeImage, GivesBackWhatWasWritten) {
  for (int type : {CV_8UC1, CV_8UC3, CV_8UC4}) {
    const cv::Mat image = Picture(41, 17, type);
    auto back = DecodeImage(Encode(".png", image), ImageRead::kUnchanged, "x.png");
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_EQ(back->type(), type);
    EXPECT_EQ(MaxDiff(*back, image), 0) << "channels " << image.channels();
  }
  cv::Mat smooth(48, 64, CV_8UC3);
  for (int y = 0; y < smooth.rows; ++y)
    for (int x = 0; x < smooth.cols; ++x) smooth.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(3 * x), static_cast<uchar>(4 * y), 128);
  auto jpeg = DecodeImage(Encode(".jpg", smooth, 95), ImageRead::kColor, "x.jpg");
  ASSERT_TRUE(jpeg.ok()) << jpeg.error();
  EXPECT_LT(cv::norm(*jpeg, smooth, cv::NORM_L1) / smooth.total() / 3, 2.0);
}

// The modes give the channels they promise, from any layout: colour is BGR, grey one channel (OpenCV's weights),
// unchanged keeps grey as grey and alpha as BGRA.
TEST(DecodeImage, EachModeGivesItsChannels) {
  const cv::Mat bgr = Picture(20, 10);
  cv::Mat grey, expect_grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  for (const std::string ext : {".png", ".jpg"}) {
    auto as_grey = DecodeImage(Encode(ext, bgr), ImageRead::kGray, "x" + ext);
    ASSERT_TRUE(as_grey.ok()) << as_grey.error();
    EXPECT_EQ(as_grey->type(), CV_8UC1) << ext;
    if (ext == ".png") {
      EXPECT_LE(MaxDiff(*as_grey, grey), 1);  // libpng with OpenCV's weights, against cv::cvtColor
    }
    auto grey_as_colour = DecodeImage(Encode(ext, grey), ImageRead::kColor, "x" + ext);
    ASSERT_TRUE(grey_as_colour.ok()) << grey_as_colour.error();
    EXPECT_EQ(grey_as_colour->type(), CV_8UC3) << ext;
    auto grey_unchanged = DecodeImage(Encode(ext, grey), ImageRead::kUnchanged, "x" + ext);
    EXPECT_EQ(grey_unchanged->type(), CV_8UC1) << ext;
  }
  const cv::Mat bgra = Picture(20, 10, CV_8UC4);
  EXPECT_EQ(DecodeImage(Encode(".png", bgra), ImageRead::kColor, "x.png")->type(), CV_8UC3);
  // Files other writers made: 16 bits a channel (the high byte kept), an alpha channel.
  for (const std::string name : {"tiny-16bit.png", "tiny-alpha.png", "tiny.png"}) {
    const std::string bytes = CorpusFile(name);
    ASSERT_FALSE(bytes.empty()) << name;
    for (ImageRead mode : {ImageRead::kColor, ImageRead::kGray, ImageRead::kUnchanged}) {
      auto image = DecodeImage(bytes, mode, name);
      ASSERT_TRUE(image.ok()) << image.error();
      EXPECT_EQ(image->depth(), CV_8U) << name;
      const int channels = mode == ImageRead::kColor ? 3 : mode == ImageRead::kGray ? 1 : image->channels();
      EXPECT_EQ(image->channels(), channels) << name;
    }
  }
  EXPECT_EQ(DecodeImage(CorpusFile("tiny-alpha.png"), ImageRead::kUnchanged, "a.png")->channels(), 4);
}

// A phone's photo carries its orientation in EXIF; it is decoded upright, as OpenCV's reader does.
TEST(DecodeImage, AppliesTheExifOrientation) {
  cv::Mat image(20, 40, CV_8UC3, cv::Scalar(0, 0, 0));
  image(cv::Rect(0, 0, 10, 20)).setTo(cv::Scalar(255, 255, 255));  // the left quarter white
  const std::string jpeg = Encode(".jpg", image);
  // An APP1 "Exif" segment after the start marker: big-endian TIFF, one IFD0 entry, orientation 6 (turn 90°
  // clockwise to view).
  const std::string exif("\xFF\xE1\x00\x22"
                         "Exif\0\0"
                         "MM\x00\x2A\x00\x00\x00\x08"
                         "\x00\x01"
                         "\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00"
                         "\x00\x00\x00\x00",
                         36);
  const std::string turned = jpeg.substr(0, 2) + exif + jpeg.substr(2);
  auto upright = DecodeImage(turned, ImageRead::kColor, "phone.jpg");
  ASSERT_TRUE(upright.ok()) << upright.error();
  ASSERT_EQ(upright->size(), cv::Size(20, 40));
  EXPECT_GT(cv::mean((*upright)(cv::Rect(0, 0, 20, 8)))[0], 200);   // the white quarter is at the top now
  EXPECT_LT(cv::mean((*upright)(cv::Rect(0, 30, 20, 10)))[0], 60);
}

// Found by fuzzing (fuzz/corpus/image/crash-webp-to-dicom.bin): with OpenCV's imgcodecs, a file that starts as a
// WebP but that libwebp refused was handed to the next decoder whose signature matched, OpenCV's DICOM reader
// (GDCM), which aborted the process. Now only PNG and JPEG are decoded, by their own libraries.
TEST(DecodeImage, NeverReachesAnotherDecoder) {
  const std::string reproducer = CorpusFile("crash-webp-to-dicom.bin");
  ASSERT_EQ(reproducer.size(), 134u);
  EXPECT_EQ(DecodeImage(reproducer, ImageRead::kColor, "crash.bin").error(), "crash.bin: not a PNG or JPEG image");
  // And a 17-byte PNM that once made OpenCV's reader allocate 2.9 GB (fuzz/corpus/image/oom-pnm-number-then-comment.pnm).
  EXPECT_EQ(DecodeImage(CorpusFile("oom-pnm-number-then-comment.pnm"), ImageRead::kColor, "x.ppm").error(), "x.ppm: not a PNG or JPEG image");
}

// A small file that declares a huge picture is refused from its header: nothing of that size is allocated.
TEST(DecodeImage, RefusesPicturesOverTheLimitBeforeDecoding) {
  const std::string png = Encode(".png", Picture(kMaxImageSide + 1, 2));
  EXPECT_EQ(DecodeImage(png, ImageRead::kColor, "wide.png").error(), "wide.png: the picture is 8193x2, larger than the limit of 8192 pixels a side");
  std::string jpeg = Encode(".jpg", Picture(16, 16));
  // The frame header's height and width (after "\xFF\xC0", length, precision) set to 60000 x 60000.
  const size_t sof = jpeg.find("\xFF\xC0");
  ASSERT_NE(sof, std::string::npos);
  jpeg[sof + 5] = jpeg[sof + 7] = static_cast<char>(0xEA), jpeg[sof + 6] = jpeg[sof + 8] = 0x60;
  EXPECT_EQ(DecodeImage(jpeg, ImageRead::kColor, "bomb.jpg").error(), "bomb.jpg: the picture is 60000x60000, larger than the limit of 8192 pixels a side");
  EXPECT_EQ(DecodeImage(Encode(".png", Picture(40, 30)), ImageRead::kColor, "crop.png", 32).error(),
            "crop.png: the picture is 40x30, larger than the limit of 32 pixels a side");
  // The decoders check the size they will decode again, whatever the header check read: a file can hide a huge
  // frame header from a reader that walks the markers differently (found in review).
  EXPECT_EQ(DecodeJpeg(Encode(".jpg", Picture(40, 30)), ImageRead::kColor, "x.jpg", 32).error(),
            "x.jpg: not a readable image (a broken or truncated jpeg: a frame of 40x30, larger than the limit of 32 pixels a side)");
  EXPECT_FALSE(DecodePng(Encode(".png", Picture(40, 30)), ImageRead::kColor, "x.png", 32).ok());
}

TEST(ReadImageFile, EnforcesTheFileSizeLimit) {
  const fs::path path = fs::temp_directory_path() / ("swref_image_io_" + std::to_string(::getpid()) + ".png");
  std::ofstream(path, std::ios::binary) << Encode(".png", Picture(20, 10));
  auto ok = ReadImageFile(path.string(), ImageRead::kColor);
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->size(), cv::Size(20, 10));
  EXPECT_TRUE(LooksLikeImage(path.string()));
  fs::resize_file(path, kMaxImageFileBytes + 1);
  EXPECT_EQ(ReadImageFile(path.string(), ImageRead::kColor).error(),
            path.string() + ": the image is " + std::to_string(kMaxImageFileBytes + 1) + " bytes, more than the limit of 134217728 bytes");
  fs::remove(path);
}

TEST(WriteImageFile, ChoosesTheFormatByTheExtensionAndNamesTheFileInErrors) {
  const fs::path dir = fs::temp_directory_path() / ("swref_image_write_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const cv::Mat image = Picture(16, 8);
  for (const std::string name : {"a.png", "b.JPG", "c.jpeg"}) {
    ASSERT_TRUE(WriteImageFile((dir / name).string(), image).ok()) << name;
    EXPECT_EQ(PeekImageHeader(Encode(fs::path(name).extension().string(), image), name)->format, name == "a.png" ? "png" : "jpeg");
    EXPECT_EQ(ReadImageFile((dir / name).string())->size(), image.size()) << name;
  }
  EXPECT_EQ(WriteImageFile((dir / "d.tif").string(), image).error(), (dir / "d.tif").string() + ": \".tif\": not an image extension swref writes (.png, .jpg, .jpeg)");
  EXPECT_EQ(WriteImageFile((dir / "no-such" / "e.png").string(), image).error(),
            (dir / "no-such" / "e.png").string() + ": cannot create a temporary file in " + (dir / "no-such").string() + ": No such file or directory");
  EXPECT_FALSE(WriteImageFile((dir / "f.png").string(), cv::Mat()).ok());
  EXPECT_FALSE(LooksLikeImage((dir / "missing.png").string()));
  // Written beside and renamed over (engine::ReplaceFileDurably): a picture that cannot be put in place leaves
  // what was there, and no temporary file.
  fs::create_directories(dir / "g.png" / "taken");  // a folder where the picture should go
  const auto refused = WriteImageFile((dir / "g.png").string(), Picture(4, 4));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rfind((dir / "g.png").string() + ": cannot rename the new content over the file (the file on disk is unchanged): ", 0), 0u)
      << refused.error();
  EXPECT_TRUE(fs::is_directory(dir / "g.png" / "taken"));
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 3);  // a.png, b.JPG, c.jpeg
  fs::remove_all(dir);
}

}  // namespace
}  // namespace swref::calibration
