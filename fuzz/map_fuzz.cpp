// A map file (engine/map.h): read from disk with its size and nesting limits, parsed and validated (ids,
// terrains, adjacency, connectivity, planarity).
#include <cstdlib>

#include "engine/map.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swref;
  const auto path = fuzz::ScratchDir() / "map.json";
  fuzz::WriteFile(path, fuzz::Text(data, size));
  auto map = engine::LoadMap(path.string(), "");
  if (map.ok()) {
    const engine::Map& m = **map;
    // What the rest of the program relies on once a map is accepted.
    if (m.size() < 1 || m.size() > engine::kMaxRegions || m.adjacent.size() != static_cast<size_t>(m.size()) * m.size()) std::abort();
    for (int a = 0; a < m.size(); ++a)
      for (int b : m.neighbours[a])
        if (!m.Valid(b) || !m.Adjacent(b, a)) std::abort();
  } else if (map.error().empty()) {
    std::abort();  // every refusal says why
  }
  return 0;
}
