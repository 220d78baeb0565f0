// A board layout file (calibration/layout.h): read and parsed; an accepted layout is rasterised coarsely and
// measured, and written back and parsed again.
#include <cstdlib>

#include "calibration/board_setup.h"
#include "calibration/layout.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto path = fuzz::ScratchDir() / "layout.json";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto layout = calibration::ReadLayoutFile(path.string());
  if (!layout.ok()) return 0;
  // 0.25 px/mm: the same code as the observer's 2 px/mm, 64 times fewer pixels.
  const calibration::LayoutTopology topology = calibration::MeasureTopology(*layout, 0.25);
  if (topology.area_mm2.size() != layout->regions.size()) std::abort();
  calibration::FindOverlaps(*layout);
  auto again = calibration::ParseLayout(calibration::ToJson(*layout), "again");
  if (!again.ok() || again->regions.size() != layout->regions.size()) std::abort();  // what we write, we read
  return 0;
}
