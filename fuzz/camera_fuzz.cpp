// A camera file, camera.json (calibration/intrinsics.h): read and parsed; an accepted one is written back and
// must parse again.
#include <cstdlib>

#include "calibration/intrinsics.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto path = fuzz::ScratchDir() / "camera.json";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto camera = calibration::ReadCameraFile(path.string());
  if (!camera.ok()) return 0;
  auto again = calibration::ParseCamera(nlohmann::json::parse(calibration::ToJson(*camera).dump()), "again");
  if (!again.ok()) std::abort();  // what we write, we read
  return 0;
}
