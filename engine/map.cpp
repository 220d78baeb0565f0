#include "engine/map.h"

#include <algorithm>
#include <fstream>
#include <queue>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/builtin_maps.h"
#include "engine/components.h"
#include "engine/json_input.h"
#include "engine/planarity.h"

namespace swref::engine {
namespace {

using nlohmann::json;
using MapResult = Result<std::shared_ptr<const Map>>;

constexpr std::string_view kTerrainIds[] = {"farmland", "forest", "hill", "mountain", "swamp", "sea", "lake"};

std::string Place(const std::string& where, const std::string& field) { return where + ": " + field; }

// Reads an optional boolean flag; a present flag of the wrong type is an error, an absent one is false.
bool ReadFlag(const json& region, const char* key, bool* out, std::string* error, const std::string& place) {
  auto it = region.find(key);
  if (it == region.end()) return true;
  if (!it->is_boolean()) {
    *error = place + "." + key + ": expected true or false";
    return false;
  }
  *out = it->get<bool>();
  return true;
}

std::string ParseRegions(const json& doc, const std::string& where, Map* map) {
  auto it = doc.find("regions");
  if (it == doc.end() || !it->is_array() || it->empty()) return Place(where, "regions: expected a non-empty array");
  const int n = static_cast<int>(it->size());
  if (n > kMaxRegions) return Place(where, "regions: " + std::to_string(n) + " regions, at most " + std::to_string(kMaxRegions));
  map->regions.assign(n, Region{});
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; ++i) {
    const json& r = (*it)[i];
    const std::string place = Place(where, "regions[" + std::to_string(i) + "]");
    if (!r.is_object()) return place + ": expected an object";
    if (!r.contains("id") || !r["id"].is_number_integer()) return place + ".id: expected an integer";
    const auto id = r["id"].get<int64_t>();
    if (id < 0 || id >= n) return place + ".id: " + std::to_string(id) + " is out of range: ids must be 0.." + std::to_string(n - 1);
    if (seen[id]) return place + ".id: " + std::to_string(id) + " is used twice";
    seen[id] = true;
    Region region;
    region.id = static_cast<int>(id);
    if (!r.contains("terrain") || !r["terrain"].is_string()) return place + ".terrain: expected a string";
    const auto terrain = r["terrain"].get<std::string>();
    auto t = std::find(std::begin(kTerrainIds), std::end(kTerrainIds), terrain);
    if (t == std::end(kTerrainIds)) return place + ".terrain: unknown terrain \"" + terrain + "\" (farmland, forest, hill, mountain, swamp, sea, lake)";
    region.terrain = static_cast<Terrain>(t - std::begin(kTerrainIds));
    if (!r.contains("border")) return place + ".border: missing (true if the region touches the board edge)";
    std::string error;
    if (!ReadFlag(r, "cavern", &region.cavern, &error, place) || !ReadFlag(r, "magic", &region.magic, &error, place) ||
        !ReadFlag(r, "mine", &region.mine, &error, place) || !ReadFlag(r, "lost_tribe", &region.lost_tribe, &error, place) ||
        !ReadFlag(r, "border", &region.border, &error, place))
      return error;
    if (region.IsWater() && (region.lost_tribe || region.cavern || region.magic || region.mine))
      return place + ": a " + terrain + " carries no lost tribe, cavern, magic source or mine";
    map->regions[id] = region;
  }
  return "";
}

void AddEdge(Map* map, int a, int b) {
  const size_t n = map->regions.size();
  map->adjacent[a * n + b] = map->adjacent[b * n + a] = 1;
}

std::string ParseAdjacency(const json& doc, const std::string& where, Map* map) {
  const int n = map->size();
  map->adjacent.assign(static_cast<size_t>(n) * n, 0);
  auto it = doc.find("adjacency");
  if (it != doc.end()) {
    if (!it->is_array()) return Place(where, "adjacency: expected an array of [a, b] pairs");
    for (size_t i = 0; i < it->size(); ++i) {
      const json& e = (*it)[i];
      const std::string place = Place(where, "adjacency[" + std::to_string(i) + "]");
      if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
        return place + ": expected a pair of region ids [a, b]";
      const auto a = e[0].get<int64_t>(), b = e[1].get<int64_t>();
      if (a < 0 || a >= n) return place + ": " + std::to_string(a) + " is not a region id";
      if (b < 0 || b >= n) return place + ": " + std::to_string(b) + " is not a region id";
      if (a == b) return place + ": region " + std::to_string(a) + " cannot border itself";
      if (map->Adjacent(static_cast<int>(a), static_cast<int>(b)))
        return place + ": the border " + std::to_string(a) + "-" + std::to_string(b) + " is listed twice";
      AddEdge(map, static_cast<int>(a), static_cast<int>(b));
    }
  }
  // The per-region form: "adjacent": [..] in each region; it must be symmetric.
  const json& regions = doc["regions"];
  bool any_lists = false;
  for (const json& r : regions) any_lists = any_lists || r.contains("adjacent");
  if (any_lists) {
    if (it != doc.end()) return Place(where, "give the adjacency either as \"adjacency\" pairs or as per-region \"adjacent\" lists, not both");
    std::vector<std::set<int>> lists(n);
    for (const json& r : regions) {
      const int id = r["id"].get<int>();
      const std::string place = Place(where, "regions[" + std::to_string(id) + "].adjacent");
      if (!r.contains("adjacent") || !r["adjacent"].is_array()) return place + ": expected an array of region ids";
      for (const json& v : r["adjacent"]) {
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= n) return place + ": " + v.dump() + " is not a region id";
        const int b = v.get<int>();
        if (b == id) return place + ": region " + std::to_string(id) + " cannot border itself";
        lists[id].insert(b);
      }
    }
    for (int a = 0; a < n; ++a) {
      for (int b : lists[a]) {
        if (!lists[b].count(a))
          return Place(where, "regions[" + std::to_string(a) + "].adjacent lists " + std::to_string(b) + " but regions[" +
                                  std::to_string(b) + "].adjacent does not list " + std::to_string(a));
        AddEdge(map, a, b);
      }
    }
  } else if (it == doc.end()) {
    return Place(where, "adjacency: missing");
  }
  map->neighbours.assign(n, {});
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (map->Adjacent(a, b)) map->neighbours[a].push_back(b);
  return "";
}

// coastal and edge_entry follow from terrain, border and adjacency; a file that gives them must agree.
std::string DeriveFlags(const json& doc, const std::string& where, Map* map) {
  for (Region& r : map->regions) {
    bool coastal = false, next_to_border_sea = false;
    for (int b : map->neighbours[r.id]) {
      const Region& other = map->regions[b];
      coastal = coastal || other.IsWater();
      next_to_border_sea = next_to_border_sea || (other.terrain == Terrain::kSea && other.border);
    }
    coastal = coastal && !r.IsWater();
    const bool edge_entry = r.border || next_to_border_sea;
    for (const json& g : doc["regions"]) {
      if (g["id"].get<int>() != r.id) continue;
      const std::string place = Place(where, "regions[" + std::to_string(r.id) + "]");
      if (g.contains("coastal") && (!g["coastal"].is_boolean() || g["coastal"].get<bool>() != coastal))
        return place + ".coastal: should be " + (coastal ? "true" : "false") + " (land next to a sea or lake)";
      if (g.contains("edge_entry") && (!g["edge_entry"].is_boolean() || g["edge_entry"].get<bool>() != edge_entry))
        return place + ".edge_entry: should be " + (edge_entry ? "true" : "false") + " (border, or next to a sea that touches the edge)";
    }
    r.coastal = coastal;
    r.edge_entry = edge_entry;
  }
  return "";
}

std::string CheckConnected(const std::string& where, const Map& map) {
  std::vector<bool> reached(map.size(), false);
  std::queue<int> todo;
  todo.push(0);
  reached[0] = true;
  while (!todo.empty()) {
    const int a = todo.front();
    todo.pop();
    for (int b : map.neighbours[a]) {
      if (reached[b]) continue;
      reached[b] = true;
      todo.push(b);
    }
  }
  std::string cut;
  for (int i = 0; i < map.size(); ++i)
    if (!reached[i]) cut += (cut.empty() ? "" : ", ") + std::to_string(i);
  if (!cut.empty()) return Place(where, "the map is not connected: regions " + cut + " cannot be reached from region 0");
  return "";
}

std::string CheckPlanar(const std::string& where, const Map& map) {
  const int n = map.size();
  std::vector<std::pair<int, int>> edges;
  bool any_border = false;
  for (int a = 0; a < n; ++a) {
    for (int b : map.neighbours[a])
      if (a < b) edges.emplace_back(a, b);
    if (map.regions[a].border) edges.emplace_back(a, n), any_border = true;
  }
  if (!any_border) return Place(where, "no region has \"border\": true; a board has regions on its edge");
  const PlanarityResult planar = TestPlanarity(n + 1, edges);
  if (!planar.error.empty()) return Place(where, "adjacency: " + planar.error);
  if (!planar.planar)
    return Place(where, "the regions and their borders cannot be drawn on a flat board (the adjacency plus an outside "
                        "region touching every border region is not a planar graph)");
  return "";
}

std::string CheckPieces(const std::string& where, const Map& map) {
  int lost = 0, mountains = 0;
  for (const Region& r : map.regions) lost += r.lost_tribe, mountains += r.HasMountain();
  if (lost > Info(Piece::kLostTribe).in_box)
    return Place(where, std::to_string(lost) + " lost-tribe regions, but the box holds " + std::to_string(Info(Piece::kLostTribe).in_box) + " Lost Tribe tokens");
  if (mountains > Info(Piece::kMountain).in_box)
    return Place(where, std::to_string(mountains) + " mountain regions, but the box holds " + std::to_string(Info(Piece::kMountain).in_box) + " mountains");
  return "";
}

}  // namespace

std::string_view ToString(Terrain terrain) { return kTerrainIds[static_cast<int>(terrain)]; }

MapResult ParseMap(const json& doc, const std::string& where) {
  if (!doc.is_object()) return MapResult::Error(where + ": expected a JSON object");
  auto map = std::make_shared<Map>();
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) return MapResult::Error(Place(where, "name: expected a string"));
    map->name = doc["name"].get<std::string>();
  }
  if (!doc.contains("players") || !doc["players"].is_number_integer() || doc["players"].get<int64_t>() < 2 || doc["players"].get<int64_t>() > 5)
    return MapResult::Error(Place(where, "players: expected an integer from 2 to 5"));
  map->players = doc["players"].get<int>();
  if (!doc.contains("turns") || !doc["turns"].is_number_integer() || doc["turns"].get<int64_t>() < 1 || doc["turns"].get<int64_t>() > 30)
    return MapResult::Error(Place(where, "turns: expected an integer from 1 to 30"));
  map->turns = doc["turns"].get<int>();
  for (auto step : {ParseRegions, ParseAdjacency, DeriveFlags}) {
    if (std::string error = step(doc, where, map.get()); !error.empty()) return MapResult::Error(error);
  }
  for (auto check : {CheckConnected, CheckPlanar, CheckPieces}) {
    if (std::string error = check(where, *map); !error.empty()) return MapResult::Error(error);
  }
  return std::shared_ptr<const Map>(std::move(map));
}

std::vector<std::string> BuiltinMapKeys() { return {"2p", "3p", "4p", "5p"}; }

MapResult BuiltinMap(std::string_view key) {
  const char* text = BuiltinMapText(key);
  if (text == nullptr) return MapResult::Error("unknown built-in map \"" + std::string(key) + "\" (2p, 3p, 4p, 5p)");
  auto parsed = ParseMap(json::parse(text), "map " + std::string(key));
  if (parsed.ok()) std::const_pointer_cast<Map>(parsed.value())->key = std::string(key);
  return parsed;
}

MapResult LoadMap(const std::string& name, const std::filesystem::path& base_dir) {
  if (BuiltinMapText(name) != nullptr) return BuiltinMap(name);
  std::filesystem::path path(name);
  if (path.is_relative()) path = base_dir / path;
  if (!std::ifstream(path)) return MapResult::Error(CannotOpen(path, "map file") + "; the built-in maps are 2p, 3p, 4p and 5p");
  auto doc = ReadJsonFile(path, kMaxJsonFileBytes, "map file");
  if (!doc) return MapResult::Error(doc.error());
  auto parsed = ParseMap(*doc, path.string());
  if (parsed.ok()) std::const_pointer_cast<Map>(parsed.value())->key = name;
  return parsed;
}

std::string IdList(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s;
}

}  // namespace swref::engine
