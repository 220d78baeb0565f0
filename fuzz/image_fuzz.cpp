// The image decode path (calibration/image_io.h): the header's declared size checked against the limit before
// decoding, libpng or libjpeg-turbo (calibration/image_codec.cpp), and the observer's validation of the frame (vision::PrepareFrame: size, depth,
// channels, blank). The decode as reference photos and crops are read (ImageRead::kColor) and as calibration
// photos are (kGray) too. The whole observation
// of a decoded frame is the `observe` target: registration alone takes ~20 ms a frame, too slow to fuzz the
// decoders (this target runs thousands of inputs a second).
#include <cstdlib>

#include "calibration/image_io.h"
#include "fuzz/fuzz_util.h"
#include "vision/observer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const std::string_view bytes = fuzz::Text(data, size);
  auto header = calibration::PeekImageHeader(bytes, "frame");
  auto frame = calibration::DecodeImage(bytes, calibration::ImageRead::kUnchanged, "frame", vision::kMaxImageSide);
  if (frame.ok()) {
    if (!header.ok()) std::abort();  // decoded only after its header was read
    cv::Mat bgr;
    const std::string why = vision::PrepareFrame(*frame, &bgr);
    if (why.empty() && (bgr.type() != CV_8UC3 || bgr.size() != frame->size())) std::abort();
  }
  auto colour = calibration::DecodeImage(bytes, calibration::ImageRead::kColor, "crop", 1024);
  if (colour.ok() && (colour->type() != CV_8UC3 || colour->cols > 1024 || colour->rows > 1024)) std::abort();
  auto grey = calibration::DecodeImage(bytes, calibration::ImageRead::kGray, "photo", 1024);
  if (grey.ok() && (grey->type() != CV_8UC1 || grey->cols > 1024 || grey->rows > 1024)) std::abort();
  return 0;
}
