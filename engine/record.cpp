#include "engine/record.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>

namespace swref::engine {
namespace {

using nlohmann::json;

std::string Got(const json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return "got " + s;
}

// Each reader returns "" or the error for `place`.
std::string ReadInt(const json& v, const std::string& place, int* out, int64_t lo = INT32_MIN, int64_t hi = INT32_MAX) {
  if (!v.is_number_integer()) return place + ": expected an integer, " + Got(v);
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi) return place + ": " + std::to_string(x) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi);
  *out = static_cast<int>(x);
  return "";
}

std::string ReadRegionKey(const std::string& key, const std::string& place, int* out) {
  int value = 0;
  auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), value);
  if (ec != std::errc() || end != key.data() + key.size() || key.empty())
    return place + ": \"" + key + "\" is not a region id (keys are region ids as strings, e.g. \"12\")";
  *out = value;
  return "";
}

std::string ReadPlacement(const json& v, const std::string& place, std::vector<Placement>* out) {
  if (!v.is_object()) return place + ": expected an object {\"region\": tokens}, " + Got(v);
  for (auto it = v.begin(); it != v.end(); ++it) {
    Placement p;
    const std::string where = place + "." + it.key();
    if (auto e = ReadRegionKey(it.key(), place, &p.region); !e.empty()) return e;
    if (auto e = ReadInt(it.value(), where, &p.count, 0, 255); !e.empty()) return e;
    out->push_back(p);
  }
  return "";
}

std::string CheckFields(const json& doc, const std::string& place, std::initializer_list<const char*> allowed) {
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key() == "player" || it.key() == "do" || it.key() == "note") continue;
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }))
      return place + ": unknown field \"" + it.key() + "\" for \"" + doc["do"].get<std::string>() + "\"";
  }
  return "";
}

template <typename Id, typename FromId>
std::string ReadIds(const json& doc, const char* field, int limit, FromId from_id, std::vector<Id>* out) {
  if (!doc.contains(field)) return "";
  const std::string place = std::string("record.") + field;
  const json& v = doc[field];
  if (!v.is_array()) return place + ": expected an array of ids, " + Got(v);
  if (static_cast<int>(v.size()) > limit) return place + ": more than " + std::to_string(limit) + " entries";
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string where = place + "[" + std::to_string(i) + "]";
    if (!v[i].is_string()) return where + ": expected an id string, " + Got(v[i]);
    auto id = from_id(v[i].get<std::string>());
    if (!id) return where + ": unknown id \"" + v[i].get<std::string>() + "\"";
    if (std::find(out->begin(), out->end(), *id) != out->end()) return where + ": \"" + v[i].get<std::string>() + "\" is listed twice";
    out->push_back(*id);
  }
  return "";
}

std::string ParseConquer(const json& doc, const std::string& place, Action* a) {
  if (auto e = CheckFields(doc, place, {"region", "tokens", "die", "with", "ruling"}); !e.empty()) return e;
  if (doc.contains("ruling")) {
    if (doc["ruling"] != "house") return place + ".ruling: expected \"house\" (a conquest accepted against the rules), " + Got(doc["ruling"]);
    a->house_ruling = true;
  }
  if (!doc.contains("region")) return place + ".region: missing";
  if (auto e = ReadInt(doc["region"], place + ".region", &a->region); !e.empty()) return e;
  if (doc.contains("tokens"))
    if (auto e = ReadInt(doc["tokens"], place + ".tokens", &a->tokens, 1, 255); !e.empty()) return e;
  if (doc.contains("die"))
    if (auto e = ReadInt(doc["die"], place + ".die", &a->die, 0, 3); !e.empty()) return e + " (the die's faces are 0, 0, 0, 1, 2, 3)";
  if (doc.contains("with")) {
    const json& w = doc["with"];
    const std::string s = w.is_string() ? w.get<std::string>() : "";
    if (s == "dragon") a->with = With::kDragon;
    else if (s == "sorcery") a->with = With::kSorcery;
    else if (s == "ghouls") a->with = With::kGhouls;
    else return place + ".with: expected \"dragon\", \"sorcery\" or \"ghouls\", " + Got(w);
    if (a->die >= 0 && (a->with == With::kDragon || a->with == With::kSorcery))
      return place + ".die: no die is rolled for a conquest with the " + std::string(a->with == With::kDragon ? "dragon" : "Sorcerers' conversion");
    if (a->tokens >= 0 && a->with == With::kSorcery) return place + ".tokens: a Sorcerers' conversion places exactly 1 token";
  }
  return "";
}

std::string ParseRedeploy(const json& doc, const std::string& place, Action* a, bool withdraw) {
  if (auto e = withdraw ? CheckFields(doc, place, {"tokens", "encampments"}) : CheckFields(doc, place, {"tokens", "encampments", "fortress", "heroes", "with"});
      !e.empty())
    return e;
  if (!doc.contains("tokens")) return place + ".tokens: missing";
  if (auto e = ReadPlacement(doc["tokens"], place + ".tokens", &a->placement); !e.empty()) return e;
  if (doc.contains("encampments")) {
    a->has_encampments = true;
    if (auto e = ReadPlacement(doc["encampments"], place + ".encampments", &a->encampments); !e.empty()) return e;
  }
  if (doc.contains("fortress"))
    if (auto e = ReadInt(doc["fortress"], place + ".fortress", &a->fortress, 0); !e.empty()) return e;
  if (doc.contains("heroes")) {
    const json& h = doc["heroes"];
    if (!h.is_array()) return place + ".heroes: expected an array of region ids, " + Got(h);
    for (size_t i = 0; i < h.size(); ++i) {
      int region = 0;
      if (auto e = ReadInt(h[i], place + ".heroes[" + std::to_string(i) + "]", &region); !e.empty()) return e;
      a->heroes.push_back(region);
    }
  }
  if (doc.contains("with")) {
    if (doc["with"] != "ghouls") return place + ".with: a redeploy takes only \"with\": \"ghouls\", " + Got(doc["with"]);
    a->with = With::kGhouls;
  }
  return "";
}

}  // namespace

Result<Action> ParseAction(const json& doc, const std::vector<std::string>& players, const std::string& place) {
  using R = Result<Action>;
  if (!doc.is_object()) return R::Error(place + ": expected an object, " + Got(doc));
  Action a;
  if (!doc.contains("player") || !doc["player"].is_string()) return R::Error(place + ".player: expected a player's name");
  const auto name = doc["player"].get<std::string>();
  auto it = std::find(players.begin(), players.end(), name);
  if (it == players.end()) return R::Error(place + ".player: \"" + name + "\" is not one of the record's players");
  a.player = static_cast<int>(it - players.begin());
  if (!doc.contains("do") || !doc["do"].is_string()) return R::Error(place + ".do: expected an action name");
  auto type = ActionTypeFromString(doc["do"].get<std::string>());
  if (!type)
    return R::Error(place + ".do: unknown action \"" + doc["do"].get<std::string>() + "\" (pick, conquer, abandon, redeploy, withdraw, ally, decline, end_turn)");
  a.type = *type;
  std::string error;
  switch (a.type) {
    case ActionType::kPick:
      error = CheckFields(doc, place, {"slot"});
      if (error.empty()) error = doc.contains("slot") ? ReadInt(doc["slot"], place + ".slot", &a.slot) : place + ".slot: missing";
      break;
    case ActionType::kConquer: error = ParseConquer(doc, place, &a); break;
    case ActionType::kAbandon:
      error = CheckFields(doc, place, {"region"});
      if (error.empty()) error = doc.contains("region") ? ReadInt(doc["region"], place + ".region", &a.region) : place + ".region: missing";
      break;
    case ActionType::kRedeploy: error = ParseRedeploy(doc, place, &a, false); break;
    case ActionType::kWithdraw: error = ParseRedeploy(doc, place, &a, true); break;
    case ActionType::kAlly:
      error = CheckFields(doc, place, {"target"});
      if (error.empty() && (!doc.contains("target") || !doc["target"].is_string())) error = place + ".target: expected a player's name";
      if (error.empty()) {
        auto t = std::find(players.begin(), players.end(), doc["target"].get<std::string>());
        a.target = t == players.end() ? -2 : static_cast<int>(t - players.begin());
      }
      break;
    case ActionType::kDecline: error = CheckFields(doc, place, {}); break;
    case ActionType::kEndTurn:
      error = CheckFields(doc, place, {"decline"});
      if (error.empty() && doc.contains("decline")) {
        if (!doc["decline"].is_boolean()) error = place + ".decline: expected true or false, " + Got(doc["decline"]);
        else a.decline = doc["decline"].get<bool>();
      }
      break;
  }
  if (!error.empty()) return R::Error(error);
  return a;
}

Result<Record> ParseRecord(const json& doc) {
  using R = Result<Record>;
  if (!doc.is_object()) return R::Error("record: expected a JSON object");
  Record rec;
  if (!doc.contains("format") || doc["format"] != kRecordFormat)
    return R::Error(std::string("record.format: expected \"") + kRecordFormat + "\"" + (doc.contains("format") ? ", " + Got(doc["format"]) : ", missing"));
  if (!doc.contains("map") || !doc["map"].is_string() || doc["map"].get<std::string>().empty())
    return R::Error("record.map: expected \"2p\", \"3p\", \"4p\", \"5p\" or a map file path");
  rec.map = doc["map"].get<std::string>();
  if (!doc.contains("players") || !doc["players"].is_array()) return R::Error("record.players: expected an array of names");
  const json& players = doc["players"];
  if (players.size() < 2 || players.size() > 5) return R::Error("record.players: 2 to 5 players, got " + std::to_string(players.size()));
  std::set<std::string> names;
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string place = "record.players[" + std::to_string(i) + "]";
    if (!players[i].is_string() || players[i].get<std::string>().empty()) return R::Error(place + ": expected a non-empty name");
    if (!names.insert(players[i].get<std::string>()).second) return R::Error(place + ": \"" + players[i].get<std::string>() + "\" is named twice");
    rec.players.push_back(players[i].get<std::string>());
  }
  if (doc.contains("variant")) {
    if (!doc["variant"].is_string()) return R::Error("record.variant: expected \"standard\" or \"solo\"");
    rec.variant = doc["variant"].get<std::string>();
    if (rec.variant == "solo") return R::Error("record.variant: the \"solo\" variant (SoloPlay) is not available yet in this version");
    if (rec.variant != "standard") return R::Error("record.variant: expected \"standard\" or \"solo\", got \"" + rec.variant + "\"");
  }
  if (doc.contains("seed")) {
    if (!doc["seed"].is_number_unsigned() && !(doc["seed"].is_number_integer() && doc["seed"].get<int64_t>() >= 0))
      return R::Error("record.seed: expected an integer >= 0, " + Got(doc["seed"]));
    rec.seed = doc["seed"].get<uint64_t>();
  }
  if (auto e = ReadIds(doc, "races", kRaceCount, RaceFromId, &rec.races); !e.empty()) return R::Error(e);
  if (auto e = ReadIds(doc, "powers", kPowerCount, PowerFromId, &rec.powers); !e.empty()) return R::Error(e);
  if (!doc.contains("actions") || !doc["actions"].is_array()) return R::Error("record.actions: expected an array");
  if (doc["actions"].size() > kMaxRecordActions) return R::Error("record.actions: more than " + std::to_string(kMaxRecordActions) + " actions");
  for (size_t i = 0; i < doc["actions"].size(); ++i) {
    auto action = ParseAction(doc["actions"][i], rec.players, "record.actions[" + std::to_string(i) + "]");
    if (!action) return R::Error(action.error());
    rec.actions.push_back(std::move(*action));
  }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::set<std::string> kKnown = {"format", "map", "players", "variant", "seed", "races", "powers", "actions"};
    if (!kKnown.count(it.key())) rec.extra[it.key()] = it.value();
  }
  return rec;
}

Result<Record> ReadRecordFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<Record>::Error(path.string() + ": cannot open the record");
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) return Result<Record>::Error(path.string() + ": not valid JSON");
  auto rec = ParseRecord(doc);
  if (!rec) return Result<Record>::Error(path.string() + ": " + rec.error());
  return rec;
}

json ToJson(const Action& a, const std::vector<std::string>& players) {
  json j = {{"player", players[a.player]}, {"do", ToString(a.type)}};
  auto placement = [](const std::vector<Placement>& ps) {
    json o = json::object();
    for (const Placement& p : ps) o[std::to_string(p.region)] = p.count;
    return o;
  };
  switch (a.type) {
    case ActionType::kPick: j["slot"] = a.slot; break;
    case ActionType::kConquer:
    case ActionType::kAbandon:
      j["region"] = a.region;
      if (a.tokens >= 0) j["tokens"] = a.tokens;
      if (a.die >= 0) j["die"] = a.die;
      if (a.with != With::kNone) j["with"] = ToString(a.with);
      if (a.house_ruling) j["ruling"] = "house";
      break;
    case ActionType::kRedeploy:
    case ActionType::kWithdraw:
      j["tokens"] = placement(a.placement);
      if (a.has_encampments) j["encampments"] = placement(a.encampments);
      if (a.fortress >= 0) j["fortress"] = a.fortress;
      if (!a.heroes.empty()) j["heroes"] = a.heroes;
      if (a.with == With::kGhouls) j["with"] = "ghouls";
      break;
    case ActionType::kAlly: j["target"] = a.target >= 0 ? players[a.target] : std::string("?"); break;
    case ActionType::kDecline: break;
    case ActionType::kEndTurn:
      if (a.decline) j["decline"] = true;
      break;
  }
  return j;
}

json ToJson(const Record& rec) {
  json j = rec.extra;
  j["format"] = kRecordFormat;
  j["map"] = rec.map;
  j["players"] = rec.players;
  j["variant"] = rec.variant;
  j["seed"] = rec.seed;
  json races = json::array(), powers = json::array(), actions = json::array();
  for (Race r : rec.races) races.push_back(Info(r).id);
  for (Power p : rec.powers) powers.push_back(Info(p).id);
  for (const Action& a : rec.actions) actions.push_back(ToJson(a, rec.players));
  j["races"] = races;
  j["powers"] = powers;
  j["actions"] = actions;
  return j;
}

Result<Game> StartGame(const Record& record, const std::filesystem::path& base_dir) {
  auto map = LoadMap(record.map, base_dir);
  if (!map) return Result<Game>::Error("record.map: " + map.error());
  GameOptions options;
  options.map = *map;
  options.players = record.players;
  options.races = record.races;
  options.powers = record.powers;
  options.seed = record.seed;
  auto game = Game::Create(options);
  if (!game) return Result<Game>::Error("record." + game.error());
  return game;
}

}  // namespace swref::engine
