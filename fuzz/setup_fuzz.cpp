// A setup folder's setup.json and the layout it names (calibration/board_setup.h, ReadSetup). The input is the
// setup.json text, then "\n--layout--\n", then the layout.json text; both files are written into a scratch setup
// folder and read as `swref observe --setup` reads them.
#include "calibration/board_setup.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto dir = fuzz::ScratchDir() / "setup";
  std::filesystem::create_directories(dir);
  const auto [setup, layout] = fuzz::SplitAt(fuzz::Text(data, size), "\n--layout--\n");
  fuzz::WriteFile(dir / "setup.json", setup);
  fuzz::WriteFile(dir / "layout.json", layout);
  auto read = calibration::ReadSetup(dir.string());
  if (read.ok()) (void)calibration::PxPerMmAt(read->pose.image_from_board, {read->layout.board_mm.width / 2, read->layout.board_mm.height / 2});
  return 0;
}
