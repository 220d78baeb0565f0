// A Small World map topology: regions (terrain, symbols, edge flags) and their adjacency. Loaded from the
// map JSON format of the four official maps (data/maps/smallworld-*.json) or from a user's map file, and
// validated: ids, terrains, symmetric adjacency, connectivity, and planarity of the map plus an "outside"
// vertex joined to every border region (a printed board is a plane map). No region outlines here: those come
// from a board layout (calibration).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/result.h"

namespace swref::engine {

enum class Terrain : uint8_t { kFarmland, kForest, kHill, kMountain, kSwamp, kSea, kLake };
std::string_view ToString(Terrain terrain);
// Ids (regions, markers) as people read them in a message: "1, 5, 11".
std::string IdList(const std::vector<int>& ids);

struct Region {
  int id = 0;
  Terrain terrain = Terrain::kFarmland;
  bool cavern = false;
  bool magic = false;
  bool mine = false;
  bool lost_tribe = false;  // a Lost Tribe token stands here at setup
  bool border = false;      // touches the edge of the board
  bool coastal = false;     // land next to a sea or lake
  bool edge_entry = false;  // a legal first conquest: border, or next to a sea that touches the edge
  bool IsWater() const { return terrain == Terrain::kSea || terrain == Terrain::kLake; }
  bool HasMountain() const { return terrain == Terrain::kMountain; }
};

struct Map {
  std::string key;            // "2p".."5p" for the official maps, else the file path it came from
  std::string name;
  int players = 0;            // the player count the map is for
  int turns = 0;              // rounds in a game
  std::vector<Region> regions;                  // regions[i].id == i
  std::vector<std::vector<int>> neighbours;     // sorted ascending
  std::vector<uint8_t> adjacent;                // dense n*n matrix, 1 where two regions share a border

  int size() const { return static_cast<int>(regions.size()); }
  bool Valid(int region) const { return region >= 0 && region < size(); }
  bool Adjacent(int a, int b) const { return adjacent[static_cast<size_t>(a) * regions.size() + b] != 0; }
};

inline constexpr int kMaxRegions = 250;

// Parses and validates a map document. `where` names the source in error messages (a file path or "map 2p").
Result<std::shared_ptr<const Map>> ParseMap(const nlohmann::json& doc, const std::string& where);

// The official maps: "2p", "3p", "4p", "5p".
Result<std::shared_ptr<const Map>> BuiltinMap(std::string_view key);
std::vector<std::string> BuiltinMapKeys();

// "2p".."5p" or a path to a map file (relative paths are resolved against base_dir).
Result<std::shared_ptr<const Map>> LoadMap(const std::string& name, const std::filesystem::path& base_dir);

}  // namespace swref::engine
