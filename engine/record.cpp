#include "engine/record.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>

#include "engine/json_input.h"

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

std::string ReadRegionList(const json& v, const std::string& place, std::vector<int>* out) {
  if (!v.is_array()) return place + ": expected an array of region ids, " + Got(v);
  for (size_t i = 0; i < v.size(); ++i) {
    int region = 0;
    if (auto e = ReadInt(v[i], place + "[" + std::to_string(i) + "]", &region); !e.empty()) return e;
    out->push_back(region);
  }
  return "";
}

std::string ReadMove(const json& v, const std::string& place, Move* m) {
  if (!v.is_object()) return place + ": expected an object {\"from\": region, \"to\": region, \"tokens\": n}, " + Got(v);
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key() != "from" && it.key() != "to" && it.key() != "tokens") return place + ": unknown field \"" + it.key() + "\" for a move";
  const std::pair<const char*, int*> fields[] = {{"from", &m->from}, {"to", &m->to}, {"tokens", &m->tokens}};
  for (auto [name, out] : fields) {
    if (!v.contains(name)) return place + "." + name + ": missing";
    if (auto e = ReadInt(v[name], place + "." + name, out, 0, name == std::string("tokens") ? 255 : INT32_MAX); !e.empty()) return e;
  }
  return "";
}

// SoloPlay's conquer fields (docs/solo.md): from, hero, retreat.
std::string ParseSoloConquer(const json& doc, const std::string& place, Action* a) {
  if (doc.contains("from"))
    if (auto e = ReadPlacement(doc["from"], place + ".from", &a->from); !e.empty()) return e;
  if (doc.contains("hero"))
    if (auto e = ReadInt(doc["hero"], place + ".hero", &a->hero, 0); !e.empty()) return e;
  if (doc.contains("retreat")) {
    a->has_retreat = true;
    if (auto e = ReadRegionList(doc["retreat"], place + ".retreat", &a->retreat); !e.empty()) return e;
  }
  return "";
}

// SoloPlay's redeploy fields: move, holes, add.
std::string ParseSoloRedeploy(const json& doc, const std::string& place, Action* a) {
  if (doc.contains("move"))
    if (auto e = ReadMove(doc["move"], place + ".move", &a->move); !e.empty()) return e;
  if (doc.contains("holes")) {
    const json& h = doc["holes"];
    if (!h.is_array()) return place + ".holes: expected an array of moves, " + Got(h);
    for (size_t i = 0; i < h.size(); ++i) {
      Move m;
      if (auto e = ReadMove(h[i], place + ".holes[" + std::to_string(i) + "]", &m); !e.empty()) return e;
      a->hole_moves.push_back(m);
    }
  }
  if (doc.contains("add"))
    if (auto e = ReadPlacement(doc["add"], place + ".add", &a->add); !e.empty()) return e;
  return "";
}

std::string ParseErode(const json& doc, const std::string& place, Action* a) {
  if (auto e = CheckFields(doc, place, {"race", "regions"}); !e.empty()) return e;
  if (!doc.contains("race") || !doc["race"].is_string()) return place + ".race: expected a race id";
  auto race = RaceFromId(doc["race"].get<std::string>());
  if (!race) return place + ".race: unknown race \"" + doc["race"].get<std::string>() + "\"";
  a->race = static_cast<int>(*race);
  if (!doc.contains("regions")) return place + ".regions: missing";
  return ReadRegionList(doc["regions"], place + ".regions", &a->regions);
}

std::string ParseConquer(const json& doc, const std::string& place, Action* a, bool solo) {
  if (auto e = solo ? CheckFields(doc, place, {"region", "tokens", "die", "with", "ruling", "from", "hero", "retreat"})
                    : CheckFields(doc, place, {"region", "tokens", "die", "with", "ruling"});
      !e.empty())
    return e;
  if (doc.contains("ruling")) {
    if (doc["ruling"] != "house") return place + ".ruling: expected \"house\" (a conquest accepted against the rules), " + Got(doc["ruling"]);
    a->house_ruling = true;
  }
  if (solo)
    if (auto e = ParseSoloConquer(doc, place, a); !e.empty()) return e;
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

std::string ParseRedeploy(const json& doc, const std::string& place, Action* a, bool withdraw, bool solo) {
  const bool solo_redeploy = solo && !withdraw;
  if (auto e = withdraw        ? CheckFields(doc, place, {"tokens", "encampments"})
               : solo_redeploy ? CheckFields(doc, place, {"tokens", "encampments", "fortress", "heroes", "with", "move", "holes", "add"})
                               : CheckFields(doc, place, {"tokens", "encampments", "fortress", "heroes", "with"});
      !e.empty())
    return e;
  if (solo_redeploy) {
    if (auto e = ParseSoloRedeploy(doc, place, a); !e.empty()) return e;
  } else if (!doc.contains("tokens")) {
    return place + ".tokens: missing";
  }
  if (doc.contains("tokens"))
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

std::string ReadCombos(const json& v, const std::string& place, std::vector<SoloCombo>* out) {
  if (!v.is_array()) return place + ": expected an array of {\"race\": id, \"power\": id}, " + Got(v);
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string where = place + "[" + std::to_string(i) + "]";
    const json& c = v[i];
    if (!c.is_object()) return where + ": expected {\"race\": id, \"power\": id}, " + Got(c);
    for (auto it = c.begin(); it != c.end(); ++it)
      if (it.key() != "race" && it.key() != "power") return where + ": unknown field \"" + it.key() + "\"";
    if (!c.contains("race") || !c["race"].is_string()) return where + ".race: expected a race id";
    if (!c.contains("power") || !c["power"].is_string()) return where + ".power: expected a power id";
    auto race = RaceFromId(c["race"].get<std::string>());
    if (!race) return where + ".race: unknown id \"" + c["race"].get<std::string>() + "\"";
    auto power = PowerFromId(c["power"].get<std::string>());
    if (!power) return where + ".power: unknown id \"" + c["power"].get<std::string>() + "\"";
    out->push_back({*race, *power});
  }
  return "";
}

// The `solo` object of a solo record (docs/solo.md). Checks that need the map (lost tribes, how many opposition
// combos) come when the game starts.
std::string ParseSoloObject(const json& doc, SoloOptions* out) {
  const std::string place = "record.solo";
  if (!doc.is_object()) return place + ": expected an object, " + Got(doc);
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::set<std::string> kFields = {"coins", "extra_round", "lost_tribes", "opposition", "combos"};
    if (!kFields.count(it.key())) return place + ": unknown field \"" + it.key() + "\" (coins, extra_round, lost_tribes, opposition, combos)";
  }
  if (doc.contains("coins")) {
    if (auto e = ReadInt(doc["coins"], place + ".coins", &out->coins); !e.empty()) return e;
    if (out->coins != 5 && out->coins != 1) return place + ".coins: expected 5, or 1 for the more challenging game, got " + std::to_string(out->coins);
  }
  if (doc.contains("extra_round")) {
    if (!doc["extra_round"].is_boolean()) return place + ".extra_round: expected true or false, " + Got(doc["extra_round"]);
    out->extra_round = doc["extra_round"].get<bool>();
  }
  if (doc.contains("lost_tribes")) {
    out->has_lost_tribes = true;
    if (auto e = ReadRegionList(doc["lost_tribes"], place + ".lost_tribes", &out->lost_tribes); !e.empty()) return e;
  }
  if (doc.contains("opposition"))
    if (auto e = ReadCombos(doc["opposition"], place + ".opposition", &out->opposition); !e.empty()) return e;
  if (doc.contains("combos"))
    if (auto e = ReadCombos(doc["combos"], place + ".combos", &out->combos); !e.empty()) return e;
  return "";
}

}  // namespace

Result<Action> ParseAction(const json& doc, const std::vector<std::string>& players, const std::string& place, bool solo) {
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
  if (type == ActionType::kErode && !solo) return R::Error(place + ".do: \"erode\" exists only in a solo record (\"variant\": \"solo\")");
  if (!type)
    return R::Error(place + ".do: unknown action \"" + doc["do"].get<std::string>() + "\" (pick, conquer, abandon, redeploy, withdraw, ally, decline, end_turn" +
                    (solo ? ", erode)" : ")"));
  a.type = *type;
  std::string error;
  switch (a.type) {
    case ActionType::kPick:
      error = CheckFields(doc, place, {"slot"});
      if (error.empty()) error = doc.contains("slot") ? ReadInt(doc["slot"], place + ".slot", &a.slot) : place + ".slot: missing";
      break;
    case ActionType::kConquer: error = ParseConquer(doc, place, &a, solo); break;
    case ActionType::kAbandon:
      error = CheckFields(doc, place, {"region"});
      if (error.empty()) error = doc.contains("region") ? ReadInt(doc["region"], place + ".region", &a.region) : place + ".region: missing";
      break;
    case ActionType::kRedeploy: error = ParseRedeploy(doc, place, &a, false, solo); break;
    case ActionType::kWithdraw: error = ParseRedeploy(doc, place, &a, true, solo); break;
    case ActionType::kErode: error = ParseErode(doc, place, &a); break;
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
  if (doc.contains("variant")) {
    if (!doc["variant"].is_string()) return R::Error("record.variant: expected \"standard\" or \"solo\"");
    rec.variant = doc["variant"].get<std::string>();
    if (rec.variant != "standard" && rec.variant != "solo") return R::Error("record.variant: expected \"standard\" or \"solo\", got \"" + rec.variant + "\"");
  }
  const bool solo = rec.variant == "solo";
  if (!doc.contains("players") || !doc["players"].is_array()) return R::Error("record.players: expected an array of names");
  const json& players = doc["players"];
  if (solo && players.size() != 1) return R::Error("record.players: a solo record names exactly 1 player, got " + std::to_string(players.size()));
  if (!solo && (players.size() < 2 || players.size() > 5)) return R::Error("record.players: 2 to 5 players, got " + std::to_string(players.size()));
  std::set<std::string> names;
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string place = "record.players[" + std::to_string(i) + "]";
    if (!players[i].is_string() || players[i].get<std::string>().empty()) return R::Error(place + ": expected a non-empty name");
    if (!names.insert(players[i].get<std::string>()).second) return R::Error(place + ": \"" + players[i].get<std::string>() + "\" is named twice");
    rec.players.push_back(players[i].get<std::string>());
  }
  if (doc.contains("seed")) {
    if (!doc["seed"].is_number_unsigned() && !(doc["seed"].is_number_integer() && doc["seed"].get<int64_t>() >= 0))
      return R::Error("record.seed: expected an integer >= 0, " + Got(doc["seed"]));
    rec.seed = doc["seed"].get<uint64_t>();
  }
  if (auto e = ReadIds(doc, "races", kRaceCount, RaceFromId, &rec.races); !e.empty()) return R::Error(e);
  if (auto e = ReadIds(doc, "powers", kPowerCount, PowerFromId, &rec.powers); !e.empty()) return R::Error(e);
  if (solo && doc.contains("solo"))
    if (auto e = ParseSoloObject(doc["solo"], &rec.solo); !e.empty()) return R::Error(e);
  if (!doc.contains("actions") || !doc["actions"].is_array()) return R::Error("record.actions: expected an array");
  if (doc["actions"].size() > kMaxRecordActions) return R::Error("record.actions: more than " + std::to_string(kMaxRecordActions) + " actions");
  for (size_t i = 0; i < doc["actions"].size(); ++i) {
    auto action = ParseAction(doc["actions"][i], rec.players, "record.actions[" + std::to_string(i) + "]", solo);
    if (!action) return R::Error(action.error());
    rec.actions.push_back(std::move(*action));
  }
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::set<std::string> kKnown = {"format", "map", "players", "variant", "seed", "races", "powers", "actions"};
    if (!kKnown.count(it.key()) && !(solo && it.key() == "solo")) rec.extra[it.key()] = it.value();
  }
  return rec;
}

Result<Record> ReadRecordFile(const std::filesystem::path& path) {
  auto doc = ReadJsonFile(path, kMaxRecordFileBytes, "record");
  if (!doc) return Result<Record>::Error(doc.error());
  auto rec = ParseRecord(*doc);
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
  auto move = [](const Move& m) { return json{{"from", m.from}, {"to", m.to}, {"tokens", m.tokens}}; };
  switch (a.type) {
    case ActionType::kPick: j["slot"] = a.slot; break;
    case ActionType::kConquer:
    case ActionType::kAbandon:
      j["region"] = a.region;
      if (a.tokens >= 0) j["tokens"] = a.tokens;
      if (a.die >= 0) j["die"] = a.die;
      if (a.with != With::kNone) j["with"] = ToString(a.with);
      if (a.house_ruling) j["ruling"] = "house";
      if (!a.from.empty()) j["from"] = placement(a.from);
      if (a.hero >= 0) j["hero"] = a.hero;
      if (a.has_retreat) j["retreat"] = a.retreat;
      break;
    case ActionType::kRedeploy:
    case ActionType::kWithdraw:
      if (!a.placement.empty() || (a.move.from < 0 && a.hole_moves.empty() && a.add.empty())) j["tokens"] = placement(a.placement);
      if (a.move.from >= 0) j["move"] = move(a.move);
      if (!a.hole_moves.empty()) {
        j["holes"] = json::array();
        for (const Move& m : a.hole_moves) j["holes"].push_back(move(m));
      }
      if (!a.add.empty()) j["add"] = placement(a.add);
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
    case ActionType::kErode:
      j["race"] = a.race >= 0 ? Info(static_cast<Race>(a.race)).id : std::string_view("?");
      j["regions"] = a.regions;
      break;
  }
  return j;
}

namespace {

json SoloToJson(const SoloOptions& solo) {
  json j = {{"coins", solo.coins}, {"extra_round", solo.extra_round}};
  if (solo.has_lost_tribes) j["lost_tribes"] = solo.lost_tribes;
  auto combos = [](const std::vector<SoloCombo>& cs) {
    json a = json::array();
    for (const SoloCombo& c : cs) a.push_back({{"race", Info(c.race).id}, {"power", Info(c.power).id}});
    return a;
  };
  if (!solo.opposition.empty()) j["opposition"] = combos(solo.opposition);
  if (!solo.combos.empty()) j["combos"] = combos(solo.combos);
  return j;
}

}  // namespace

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
  if (rec.variant == "solo") j["solo"] = SoloToJson(rec.solo);
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
  options.solo = record.variant == "solo";
  options.solo_options = record.solo;
  auto game = Game::Create(options);
  if (!game) return Result<Game>::Error("record." + game.error());
  return game;
}

}  // namespace swref::engine
