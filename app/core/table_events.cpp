#include "app/core/table_events.h"


#include "engine/json_input.h"
#include "engine/observed.h"

namespace swref::core {
namespace {

using R = engine::Result<TableEvent>;

std::string Got(const nlohmann::json& v) { return "got " + v.dump(); }

bool IsInt(const nlohmann::json& v) { return v.is_number_integer() || v.is_number_unsigned(); }

}  // namespace

engine::Result<TableEvent> ParseTableEvent(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_object()) return R::Error(where + ": expected an object, " + Got(doc));
  TableEvent e;
  if (doc.contains("after_frame")) {
    if (!IsInt(doc["after_frame"]) || doc["after_frame"].get<int64_t>() < -1) {
      return R::Error(where + ".after_frame: expected an integer >= -1, " + Got(doc["after_frame"]));
    }
    e.after_frame = doc["after_frame"].get<int64_t>();
  }
  if (!doc.contains("do") || !doc["do"].is_string()) return R::Error(where + ".do: missing (pick, die, end_turn, accept, answer, ...)");
  const std::string what = doc["do"].get<std::string>();
  e.body = doc;
  e.body.erase("after_frame");
  if (doc.contains("player")) {
    if (!doc["player"].is_string()) return R::Error(where + ".player: expected a player's name, " + Got(doc["player"]));
    e.player = doc["player"].get<std::string>();
  }
  auto text = [&](const char* key, std::string* out) -> std::string {
    if (!doc.contains(key)) return "";
    if (!doc[key].is_string()) return where + "." + key + ": expected a string, " + Got(doc[key]);
    *out = doc[key].get<std::string>();
    return "";
  };
  if (what == "pick" || what == "decline" || what == "end_turn" || what == "ally") {
    if (e.player.empty()) return R::Error(where + ".player: missing (whose " + what + " it is)");
    e.type = EventType::kAction;
  } else if (what == "die") {
    if (e.player.empty()) return R::Error(where + ".player: missing (who rolled)");
    if (!doc.contains("face") || !IsInt(doc["face"]) || doc["face"].get<int64_t>() < 0 || doc["face"].get<int64_t>() > 3) {
      return R::Error(where + ".face: expected 0, 1, 2 or 3 (the die's faces are 0, 0, 0, 1, 2, 3)");
    }
    e.type = EventType::kDie;
    e.face = doc["face"].get<int>();
  } else if (what == "accept") {
    e.type = EventType::kAccept;
    if (auto err = text("note", &e.note); !err.empty()) return R::Error(err);
  } else if (what == "take_back") {
    e.type = EventType::kTakeBack;
  } else if (what == "answer") {
    if (!doc.contains("option") || !IsInt(doc["option"]) || doc["option"].get<int64_t>() < 0 || doc["option"].get<int64_t>() > 1000) {
      return R::Error(where + ".option: expected the number of the option chosen (0, 1, ...)");
    }
    e.type = EventType::kAnswer;
    e.option = doc["option"].get<int>();
  } else if (what == "correct") {
    e.type = EventType::kCorrect;
    auto one = [&](const nlohmann::json& c, const std::string& at) -> std::string {
      if (!c.is_object()) return at + ": expected an object {\"region\": id, ...}";
      if (!c.contains("region") || !IsInt(c["region"]) || c["region"].get<int64_t>() < 0 || c["region"].get<int64_t>() > 100000) {
        return at + ".region: expected the region's id";
      }
      nlohmann::json fields = c;
      for (const char* k : {"region", "do", "player", "after_frame", "regions"}) fields.erase(k);
      if (fields.empty()) return at + ": say what the region holds (race, decline, tokens, lost_tribe, pieces)";
      // The fields' types and ranges, checked over a region that holds some race (whether the race and the count
      // agree is checked against the reading itself when the event is applied).
      engine::ObservedRegion any;
      any.race = engine::Race{};
      if (auto r = engine::CorrectRegion(any, fields, at); !r) return r.error();
      e.corrections.push_back(c);
      return "";
    };
    if (doc.contains("regions")) {
      if (!doc["regions"].is_array() || doc["regions"].empty() || doc["regions"].size() > 1000) {
        return R::Error(where + ".regions: expected a list of corrections [{\"region\": id, ...}, ...]");
      }
      for (size_t i = 0; i < doc["regions"].size(); ++i) {
        if (auto err = one(doc["regions"][i], where + ".regions[" + std::to_string(i) + "]"); !err.empty()) return R::Error(err);
      }
    } else if (auto err = one(doc, where); !err.empty()) {
      return R::Error(err);
    }
  } else if (what == "undo") {
    e.type = EventType::kUndo;
    if (auto err = text("reason", &e.note); !err.empty()) return R::Error(err);
    if (e.note.empty()) return R::Error(where + ".reason: say why the last action is taken out");
  } else {
    return R::Error(where + ".do: unknown event \"" + what + "\" (pick, decline, ally, end_turn, die, accept, take_back, answer, correct, undo)");
  }
  return e;
}

engine::Result<std::vector<TableEvent>> ReadEventsFile(const std::string& path) {
  using RV = engine::Result<std::vector<TableEvent>>;
  auto bytes = engine::ReadFileBytes(path, kMaxEventsFileBytes, "events file");
  if (!bytes) return RV::Error(bytes.error());
  std::vector<TableEvent> out;
  int64_t last = -1;
  size_t start = 0;
  for (int n = 1; start < bytes->size(); ++n) {
    size_t end = bytes->find('\n', start);
    if (end == std::string::npos) end = bytes->size();
    const std::string_view line = std::string_view(*bytes).substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = path + ":" + std::to_string(n);
    if (out.size() >= kMaxEvents) return RV::Error(where + ": more than " + std::to_string(kMaxEvents) + " events");
    auto doc = engine::ParseJsonText(line, where);
    if (!doc) return RV::Error(doc.error());
    auto e = ParseTableEvent(*doc, where);
    if (!e) return RV::Error(e.error());
    if (e->after_frame < last) {
      return RV::Error(where + ".after_frame: " + std::to_string(e->after_frame) + " comes before the previous event's " + std::to_string(last) +
                       " (events must be in the order they were told)");
    }
    last = e->after_frame;
    out.push_back(std::move(*e));
  }
  return out;
}

}  // namespace swref::core
