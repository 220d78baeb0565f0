#include "engine/observed.h"

#include <array>

namespace swref::engine {
namespace {

using json = nlohmann::json;

// The pieces an observation counts, in the order of the record's `pieces` lists (the lost tribe has its own field).
constexpr std::array<Piece, 7> kBoardPieces = {Piece::kMountain, Piece::kTrollLair, Piece::kFortress, Piece::kEncampment,
                                               Piece::kHole,     Piece::kHero,      Piece::kDragon};

template <typename Region>  // ObservedRegion or const ObservedRegion
auto PieceField(Region& r, Piece piece) -> decltype(&r.mountain) {
  switch (piece) {
    case Piece::kMountain: return &r.mountain;
    case Piece::kTrollLair: return &r.troll_lair;
    case Piece::kFortress: return &r.fortress;
    case Piece::kEncampment: return &r.encampments;
    case Piece::kHole: return &r.hole;
    case Piece::kHero: return &r.hero;
    case Piece::kDragon: return &r.dragon;
    case Piece::kLostTribe: return &r.lost_tribe;
  }
  return nullptr;
}

// "" or the error for a count field of `rj`; absent fields keep their default.
std::string ReadCount(const json& rj, const char* key, const std::string& at, int* out) {
  auto it = rj.find(key);
  if (it == rj.end()) return "";
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 255)
    return at + "." + key + ": expected an integer from 0 to 255";
  *out = it->get<int>();
  return "";
}

std::string ReadBool(const json& rj, const char* key, const std::string& at, bool* out) {
  auto it = rj.find(key);
  if (it == rj.end()) return "";
  if (!it->is_boolean()) return at + "." + key + ": expected true or false";
  *out = it->get<bool>();
  return "";
}

// The fields `rj` gives, over `r`'s (without the check that race and count agree).
std::string ReadRegionFields(const json& rj, const std::string& at, ObservedRegion* r) {
  if (!rj.is_object()) return at + ": expected an object";
  if (auto race = rj.find("race"); race != rj.end()) {
    if (race->is_null()) {
      r->race.reset();
    } else {
      auto id = race->is_string() ? RaceFromId(race->get<std::string>()) : std::nullopt;
      if (!id) return at + ".race: expected a race id or null";
      r->race = *id;
    }
  }
  for (auto e : {ReadBool(rj, "decline", at, &r->decline), ReadCount(rj, "tokens", at, &r->tokens),
                 ReadBool(rj, "tokens_certain", at, &r->tokens_certain), ReadCount(rj, "lost_tribe", at, &r->lost_tribe)})
    if (!e.empty()) return e;
  if (auto pieces = rj.find("pieces"); pieces != rj.end()) {
    if (!pieces->is_object()) return at + ".pieces: expected an object {piece id: count}";
    for (const auto& [key, value] : pieces->items()) {
      auto piece = PieceFromId(key);
      if (!piece) return at + ".pieces." + key + ": unknown piece";
      if (auto e = ReadCount(*pieces, key.c_str(), at + ".pieces", PieceField(*r, *piece)); !e.empty()) return e;
    }
  }
  if (auto c = rj.find("confidence"); c != rj.end()) {
    if (!c->is_number()) return at + ".confidence: expected a number";
    r->uncertain = c->get<double>() < kLowConfidence;
  }
  return "";
}

std::string ReadRegion(const json& rj, const std::string& at, ObservedRegion* r) {
  if (auto e = ReadRegionFields(rj, at, r); !e.empty()) return e;
  if (!r->race && r->tokens > 0) return at + ".tokens: " + std::to_string(r->tokens) + " race tokens but no race";
  return "";
}

}  // namespace

Result<ObservedRegion> CorrectRegion(const ObservedRegion& before, const json& fields, const std::string& where) {
  using R = Result<ObservedRegion>;
  ObservedRegion r = before;
  if (auto e = ReadRegionFields(fields, where, &r); !e.empty()) return R::Error(e);
  if (!r.race && !fields.contains("tokens")) r.tokens = 0, r.decline = false;
  if (!r.race && r.tokens > 0) return R::Error(where + ".tokens: " + std::to_string(r.tokens) + " race tokens but no race");
  r.tokens_certain = true;
  r.uncertain = false;
  return r;
}

int ObservedRegion::Count(Piece piece) const { return *PieceField(*this, piece); }

ObservedRegion ObserveRegion(const RegionState& state) {
  ObservedRegion r;
  if (state.HasRace()) {
    r.race = state.race_id();
    r.decline = state.decline;
    r.tokens = state.tokens;
  }
  for (Piece p : kBoardPieces) *PieceField(r, p) = state.Count(p);
  r.lost_tribe = state.lost_tribe;
  return r;
}

RegionState StateOf(const ObservedRegion& seen, int owner) {
  RegionState s;
  if (seen.race) s.owner = static_cast<int8_t>(owner), s.race = static_cast<int8_t>(*seen.race), s.decline = seen.decline;
  s.tokens = static_cast<uint8_t>(seen.race ? seen.tokens : 0);
  s.mountain = static_cast<uint8_t>(seen.mountain), s.troll_lair = static_cast<uint8_t>(seen.troll_lair);
  s.fortress = static_cast<uint8_t>(seen.fortress), s.encampments = static_cast<uint8_t>(seen.encampments);
  s.hole = static_cast<uint8_t>(seen.hole), s.hero = static_cast<uint8_t>(seen.hero), s.dragon = static_cast<uint8_t>(seen.dragon);
  s.lost_tribe = static_cast<uint8_t>(seen.lost_tribe);
  return s;
}

ObservedBoard ObserveBoard(const Board& board) {
  ObservedBoard seen;
  seen.regions.reserve(board.size());
  for (const RegionState& r : board) seen.regions.push_back(ObserveRegion(r));
  return seen;
}

bool ReadsAs(const RegionState& state, const ObservedRegion& seen) {
  const bool race = state.HasRace();
  if (race != seen.race.has_value()) return false;
  if (race && (state.race_id() != *seen.race || state.decline != seen.decline)) return false;
  if (seen.tokens_certain ? state.tokens != seen.tokens : state.tokens < seen.tokens) return false;
  if (state.lost_tribe != seen.lost_tribe) return false;
  for (Piece p : kBoardPieces)
    if (state.Count(p) != seen.Count(p)) return false;
  return true;
}

Result<ObservedBoard> ParseObservedBoard(const json& doc, int region_count, const std::string& where) {
  using R = Result<ObservedBoard>;
  const json* regions = &doc;
  std::string place = where;
  if (doc.is_object()) {
    if (auto s = doc.find("status"); s != doc.end() && *s != "ok")
      return R::Error(where + ".status: " + s->dump() + ": only a still board (\"ok\") can be explained");
    auto it = doc.find("regions");
    if (it == doc.end()) return R::Error(where + ".regions: missing");
    regions = &*it;
    place = where + ".regions";
  }
  if (!regions->is_array()) return R::Error(place + ": expected an array of regions");
  ObservedBoard board;
  board.regions.resize(region_count);
  std::vector<bool> seen(region_count, false);
  for (size_t i = 0; i < regions->size(); ++i) {
    const json& rj = (*regions)[i];
    const std::string at = place + "[" + std::to_string(i) + "]";
    auto id = rj.is_object() ? rj.find("id") : rj.end();
    if (!rj.is_object() || id == rj.end() || !id->is_number_integer()) return R::Error(at + ".id: expected a region id");
    const int64_t r = id->get<int64_t>();
    if (r < 0 || r >= region_count) return R::Error(at + ".id: " + std::to_string(r) + " is not a region of the map (0.." + std::to_string(region_count - 1) + ")");
    if (seen[r]) return R::Error(at + ".id: region " + std::to_string(r) + " is listed twice");
    seen[r] = true;
    if (auto e = ReadRegion(rj, at, &board.regions[r]); !e.empty()) return R::Error(e);
  }
  for (int r = 0; r < region_count; ++r)
    if (!seen[r]) return R::Error(place + ": region " + std::to_string(r) + " is missing (every region of the map is listed)");
  return board;
}

nlohmann::ordered_json ToJson(const ObservedBoard& board) {
  nlohmann::ordered_json regions = nlohmann::ordered_json::array();
  for (int i = 0; i < board.size(); ++i) {
    const ObservedRegion& r = board.regions[i];
    nlohmann::ordered_json j;
    j["id"] = i;
    j["race"] = r.race ? nlohmann::ordered_json(Info(*r.race).id) : nlohmann::ordered_json(nullptr);
    j["decline"] = r.decline;
    j["tokens"] = r.tokens;
    j["tokens_certain"] = r.tokens_certain;
    j["pieces"] = nlohmann::ordered_json::object();
    for (Piece p : kBoardPieces)
      if (r.Count(p) > 0) j["pieces"][std::string(Info(p).id)] = r.Count(p);
    j["lost_tribe"] = r.lost_tribe;
    j["confidence"] = r.uncertain ? 0.5 : 1.0;
    regions.push_back(std::move(j));
  }
  return regions;
}

}  // namespace swref::engine
