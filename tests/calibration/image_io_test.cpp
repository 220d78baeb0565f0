#include "calibration/image_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace swref::calibration {
namespace {

namespace fs = std::filesystem;

std::string Encode(const std::string& ext, const cv::Mat& image) {
  std::vector<uchar> bytes;
  EXPECT_TRUE(cv::imencode(ext, image, bytes)) << ext;
  return {bytes.begin(), bytes.end()};
}

cv::Mat Picture(int width, int height) {
  cv::Mat m(height, width, CV_8UC3);
  cv::randu(m, cv::Scalar::all(0), cv::Scalar::all(255));
  return m;
}

TEST(PeekImageHeader, ReadsTheSizeOfEveryFormat) {
  for (const std::string ext : {".png", ".jpg", ".bmp", ".ppm", ".pgm"}) {
    cv::Mat image = Picture(37, 23);
    if (ext == ".pgm") cv::cvtColor(image, image, cv::COLOR_BGR2GRAY);
    auto header = PeekImageHeader(Encode(ext, image), "x" + ext);
    ASSERT_TRUE(header.ok()) << header.error();
    EXPECT_EQ(header->size, cv::Size(37, 23)) << ext;
    auto decoded = DecodeImage(Encode(ext, image), cv::IMREAD_UNCHANGED, "x" + ext);
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_EQ(decoded->size(), cv::Size(37, 23)) << ext;
  }
}

TEST(PeekImageHeader, RejectsXNamingTheFile) {
  EXPECT_EQ(PeekImageHeader("", "a.png").error(), "a.png: the file is empty");
  EXPECT_EQ(PeekImageHeader("hello", "a.png").error(), "a.png: not a PNG, JPEG, BMP or PNM image");
  EXPECT_EQ(PeekImageHeader(Encode(".tiff", Picture(8, 8)), "a.tif").error(), "a.tif: not a PNG, JPEG, BMP or PNM image");
  EXPECT_EQ(PeekImageHeader(Encode(".webp", Picture(8, 8)), "a.webp").error(), "a.webp: not a PNG, JPEG, BMP or PNM image");
  EXPECT_EQ(PeekImageHeader(Encode(".png", Picture(8, 8)).substr(0, 20), "a.png").error(), "a.png: a truncated PNG header");
  EXPECT_EQ(PeekImageHeader(Encode(".jpg", Picture(8, 8)).substr(0, 40), "a.jpg").error(), "a.jpg: a truncated JPEG header");
  auto cut = DecodeImage(Encode(".jpg", Picture(64, 64)).substr(0, 400), cv::IMREAD_COLOR, "a.jpg");
  EXPECT_EQ(cut.error(), "a.jpg: not a readable image (a broken or truncated jpeg)");
}

// Found by fuzzing (fuzz/corpus/image/crash-webp-to-dicom.bin): a file that starts as a WebP but that libwebp
// refuses was handed by cv::imdecode to the next decoder whose signature matched, OpenCV's DICOM reader (GDCM),
// which aborted the process on an assert ("DICM" at offset 128). Only formats whose decoder OpenCV picks by the
// signature we check are decoded now.
TEST(DecodeImage, NeverReachesAnotherDecoder) {
  std::string bytes = "RIFF\x1a\x01\0\0WEBPVP8 \x0e\x01\0\0" + std::string(128 - 20, '\0') + "DICM" + std::string(16, '\xff');
  EXPECT_EQ(DecodeImage(bytes, cv::IMREAD_UNCHANGED, "x.webp").error(), "x.webp: not a PNG, JPEG, BMP or PNM image");
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/fuzz/corpus/image/crash-webp-to-dicom.bin", std::ios::binary);
  const std::string reproducer((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(reproducer.size(), 134u);
  EXPECT_EQ(DecodeImage(reproducer, cv::IMREAD_COLOR, "crash.bin").error(), "crash.bin: not a PNG, JPEG, BMP or PNM image");
}

// Found by fuzzing (fuzz/corpus/image/oom-pnm-number-then-comment.pnm, 4.26 million inputs in): a 17-byte PNM,
// "P6\n2876#333270\n7#". The header check read 2876 then a comment then 7; OpenCV's reader ends a number at its
// first non-digit and takes that byte with it, so it read 2876 x 333270 and allocated 2.9 GB. The check now reads
// the numbers as OpenCV does, and refuses it.
TEST(DecodeImage, ReadsAPnmHeaderAsOpenCvDoes) {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/fuzz/corpus/image/oom-pnm-number-then-comment.pnm", std::ios::binary);
  const std::string reproducer((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(reproducer, std::string("P6\n2876#333270\n7#"));
  EXPECT_EQ(PeekImageHeader(reproducer, "x.ppm")->size, cv::Size(2876, 333270));
  EXPECT_EQ(DecodeImage(reproducer, cv::IMREAD_COLOR, "x.ppm").error(),
            "x.ppm: the picture is 2876x333270, larger than the limit of 8192 pixels a side");
  // Comments between the numbers, and a number ended by any byte, as OpenCV reads them.
  EXPECT_EQ(PeekImageHeader("P6 # a comment\n 12 # another\n34\n255\n", "y.ppm")->size, cv::Size(12, 34));
  EXPECT_EQ(PeekImageHeader("P5\n7x9\n255\n", "z.pgm")->size, cv::Size(7, 9));
  const std::string pgm = Encode(".pgm", cv::Mat(9, 7, CV_8U, cv::Scalar(5)));
  EXPECT_EQ(DecodeImage(pgm, cv::IMREAD_UNCHANGED, "w.pgm")->size(), cv::Size(7, 9));
}

// A small file that declares a huge picture is refused from its header: nothing of that size is allocated.
TEST(DecodeImage, RefusesPicturesOverTheLimitBeforeDecoding) {
  const std::string png = Encode(".png", Picture(kMaxImageSide + 1, 2));
  EXPECT_EQ(DecodeImage(png, cv::IMREAD_COLOR, "wide.png").error(),
            "wide.png: the picture is 8193x2, larger than the limit of 8192 pixels a side");
  std::string jpeg = Encode(".jpg", Picture(16, 16));
  // The frame header's height and width (after "\xFF\xC0", length, precision) set to 60000 x 60000.
  const size_t sof = jpeg.find("\xFF\xC0");
  ASSERT_NE(sof, std::string::npos);
  jpeg[sof + 5] = jpeg[sof + 7] = static_cast<char>(0xEA), jpeg[sof + 6] = jpeg[sof + 8] = 0x60;
  EXPECT_EQ(DecodeImage(jpeg, cv::IMREAD_COLOR, "bomb.jpg").error(), "bomb.jpg: the picture is 60000x60000, larger than the limit of 8192 pixels a side");
  EXPECT_EQ(DecodeImage(Encode(".png", Picture(40, 30)), cv::IMREAD_COLOR, "crop.png", 32).error(),
            "crop.png: the picture is 40x30, larger than the limit of 32 pixels a side");
}

TEST(ReadImageFile, EnforcesTheFileSizeLimit) {
  const fs::path path = fs::temp_directory_path() / ("swref_image_io_" + std::to_string(::getpid()) + ".png");
  std::ofstream(path, std::ios::binary) << Encode(".png", Picture(20, 10));
  auto ok = ReadImageFile(path.string(), cv::IMREAD_COLOR);
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->size(), cv::Size(20, 10));
  fs::resize_file(path, kMaxImageFileBytes + 1);
  EXPECT_EQ(ReadImageFile(path.string(), cv::IMREAD_COLOR).error(),
            path.string() + ": the image is " + std::to_string(kMaxImageFileBytes + 1) + " bytes, more than the limit of 134217728 bytes");
  fs::remove(path);
}

}  // namespace
}  // namespace swref::calibration
