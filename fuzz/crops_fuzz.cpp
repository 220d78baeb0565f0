// The enrollment crop folder `DIR/<kind>/*.png` (calibration/token_model.h, ReadCropFolder). The input is split at
// "\n--crop--\n" into up to 6 files; the first byte of each part picks its folder (two token kinds and one name
// that is not a kind) and its extension, the rest is the file's content.
#include <algorithm>

#include "calibration/token_model.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  namespace fs = std::filesystem;
  static const char* kFolders[] = {"ratmen", "orcs_decline", "goblins"};
  static const char* kExtensions[] = {".png", ".jpg", ".JPEG", ".txt"};
  const fs::path dir = fuzz::ScratchDir() / "crops";
  std::error_code ec;
  fs::remove_all(dir, ec);
  std::string_view rest = fuzz::Text(data, size);
  for (int i = 0; i < 6 && !rest.empty(); ++i) {
    auto [part, after] = fuzz::SplitAt(rest, "\n--crop--\n");
    rest = after;
    const auto pick = static_cast<uint8_t>(part.empty() ? 0 : part[0]);
    const fs::path folder = dir / kFolders[pick % 3];
    fs::create_directories(folder);
    fuzz::WriteFile(folder / (std::to_string(i) + kExtensions[(pick / 3) % 4]), part.empty() ? part : part.substr(1));
  }
  fs::create_directories(dir);
  const std::vector<std::string> kinds = {"ratmen", "orcs_decline"};
  auto patches = calibration::ReadCropFolder(dir.string(), kinds, 3.0);
  if (patches.ok()) (void)calibration::TokenModel::Build(*patches);  // enrollment from what was read
  return 0;
}
