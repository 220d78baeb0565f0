#include "vision/observation.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/components.h"
#include "engine/map.h"

namespace swref::vision {
namespace {

constexpr std::array<const char*, 4> kStatusNames = {"ok", "no_board", "motion", "bad_image"};

// The pieces an observation counts (the lost tribe has its own field).
constexpr std::array<engine::Piece, 7> kBoardPieces = {
    engine::Piece::kMountain, engine::Piece::kTrollLair, engine::Piece::kFortress, engine::Piece::kEncampment,
    engine::Piece::kHole,     engine::Piece::kHero,      engine::Piece::kDragon};

template <typename T>
engine::Result<T> Field(const nlohmann::json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) return engine::Result<T>::Error(where + ": missing \"" + key + "\"");
  if constexpr (std::is_same_v<T, int>) {
    // An integer in int's range: nlohmann would cast a float or a large number, out of range that is undefined.
    if (!it->is_number_integer() || (it->is_number_unsigned() && it->template get<uint64_t>() > INT32_MAX) ||
        it->template get<int64_t>() < INT32_MIN || it->template get<int64_t>() > INT32_MAX)
      return engine::Result<T>::Error(where + "." + key + ": expected an integer");
  }
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return engine::Result<T>::Error(where + "." + key + ": wrong type");
  }
}

// An optional field: left as it is when absent; false with `problem` set when present with the wrong type.
template <typename T>
bool Optional(const nlohmann::json& obj, const char* key, const std::string& where, T* out, std::string* problem) {
  if (!obj.contains(key)) return true;
  auto v = Field<T>(obj, key, where);
  if (!v) return *problem = v.error(), false;
  *out = *v;
  return true;
}

}  // namespace

const char* ToString(Status status) { return kStatusNames[static_cast<int>(status)]; }

Observation FromBoard(const engine::Board& board, const std::vector<bool>& uncertain) {
  Observation obs;
  obs.regions.reserve(board.size());
  for (size_t r = 0; r < board.size(); ++r) {
    const engine::RegionState& s = board[r];
    RegionObservation o;
    o.id = static_cast<int>(r);
    if (s.HasRace()) {
      o.race = std::string(engine::Info(s.race_id()).id);
      o.decline = s.decline;
      o.tokens = s.tokens;
      o.tokens_certain = !(r < uncertain.size() && uncertain[r]);
    }
    for (engine::Piece p : kBoardPieces) {
      if (int n = s.Count(p); n > 0) o.pieces[std::string(engine::Info(p).id)] = n;
    }
    o.lost_tribe = s.lost_tribe;
    obs.regions.push_back(std::move(o));
  }
  return obs;
}

nlohmann::ordered_json ToJson(const Observation& observation) {
  nlohmann::ordered_json doc;
  doc["image"] = observation.image;
  doc["status"] = ToString(observation.status);
  if (observation.ms) doc["ms"] = std::round(*observation.ms * 10) / 10;
  doc["regions"] = nlohmann::ordered_json::array();
  for (const RegionObservation& r : observation.regions) {
    nlohmann::ordered_json j;
    j["id"] = r.id;
    j["race"] = r.race ? nlohmann::ordered_json(*r.race) : nlohmann::ordered_json(nullptr);
    j["decline"] = r.decline;
    j["tokens"] = r.tokens;
    j["tokens_certain"] = r.tokens_certain;
    j["pieces"] = nlohmann::ordered_json::object();
    for (const auto& [piece, n] : r.pieces) j["pieces"][piece] = n;
    j["lost_tribe"] = r.lost_tribe;
    j["confidence"] = std::round(r.confidence * 1000) / 1000;
    doc["regions"].push_back(std::move(j));
  }
  return doc;
}

engine::Result<Observation> ParseObservation(const nlohmann::json& doc, const std::string& where) {
  using R = engine::Result<Observation>;
  if (!doc.is_object()) return R::Error(where + ": expected a JSON object");
  Observation obs;
  auto image = Field<std::string>(doc, "image", where);
  if (!image) return R::Error(image.error());
  obs.image = *image;
  auto status = Field<std::string>(doc, "status", where);
  if (!status) return R::Error(status.error());
  bool known = false;
  for (size_t i = 0; i < kStatusNames.size(); ++i) {
    if (*status == kStatusNames[i]) obs.status = static_cast<Status>(i), known = true;
  }
  if (!known) return R::Error(where + ".status: unknown status \"" + *status + "\" (ok, no_board, motion, bad_image)");
  if (doc.contains("ms")) {
    auto ms = Field<double>(doc, "ms", where);
    if (!ms) return R::Error(ms.error());
    if (!std::isfinite(*ms) || *ms < 0) return R::Error(where + ".ms: expected a number >= 0");
    obs.ms = *ms;
  }
  auto regions = doc.find("regions");
  if (regions == doc.end() || !regions->is_array()) return R::Error(where + ".regions: expected an array");
  if (regions->size() > static_cast<size_t>(engine::kMaxRegions))
    return R::Error(where + ".regions: more than " + std::to_string(engine::kMaxRegions) + " regions");
  for (size_t i = 0; i < regions->size(); ++i) {
    const nlohmann::json& rj = (*regions)[i];
    const std::string at = where + ".regions[" + std::to_string(i) + "]";
    if (!rj.is_object()) return R::Error(at + ": expected an object");
    RegionObservation r;
    auto id = Field<int>(rj, "id", at);
    if (!id) return R::Error(id.error());
    r.id = *id;
    if (auto race = rj.find("race"); race != rj.end() && !race->is_null()) {
      if (!race->is_string() || !engine::RaceFromId(race->get<std::string>()))
        return R::Error(at + ".race: expected a race id or null");
      r.race = race->get<std::string>();
    }
    auto tokens = Field<int>(rj, "tokens", at);
    if (!tokens) return R::Error(tokens.error());
    if (*tokens < 0) return R::Error(at + ".tokens: must be >= 0");
    r.tokens = *tokens;
    std::string problem;
    if (!Optional(rj, "decline", at, &r.decline, &problem) || !Optional(rj, "tokens_certain", at, &r.tokens_certain, &problem) ||
        !Optional(rj, "lost_tribe", at, &r.lost_tribe, &problem) || !Optional(rj, "confidence", at, &r.confidence, &problem)) {
      return R::Error(problem);
    }
    // A confidence is a share, written to 3 decimals (ToJson): read as written, so that a line reads back the same.
    if (!(r.confidence >= 0 && r.confidence <= 1)) return R::Error(at + ".confidence: expected a number from 0 to 1");
    r.confidence = std::round(r.confidence * 1000) / 1000;
    if (auto pieces = rj.find("pieces"); pieces != rj.end()) {
      if (!pieces->is_object()) return R::Error(at + ".pieces: expected an object");
      for (const auto& [key, value] : pieces->items()) {
        auto piece = engine::PieceFromId(key);
        if (!piece || *piece == engine::Piece::kLostTribe) return R::Error(at + ".pieces." + key + ": unknown piece");
        if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > INT32_MAX)
          return R::Error(at + ".pieces." + key + ": expected a count >= 0");
        if (value.get<int>() > 0) r.pieces[key] = value.get<int>();
      }
    }
    obs.regions.push_back(std::move(r));
  }
  return obs;
}

}  // namespace swref::vision
