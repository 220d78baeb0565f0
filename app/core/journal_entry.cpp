#include "app/core/journal_entry.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "app/core/hash.h"

namespace swref::core {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, kEntryKindCount> kKindNames = {
    "start", "observation", "action", "flag", "resolution", "question", "answer", "event", "coins", "correction", "undo", "end"};

// Each field check returns "" or the problem at `place.field`.
std::string Need(const json& data, const std::string& place, const char* field, bool (json::*is)() const noexcept, const char* what) {
  if (!data.contains(field)) return place + "." + field + ": missing";
  if (!(data[field].*is)()) return place + "." + field + ": expected " + what;
  return "";
}

std::string NeedSeq(const json& data, const std::string& place, const char* field) {
  if (auto e = Need(data, place, field, &json::is_number_integer, "an entry's seq (an integer >= 0)"); !e.empty()) return e;
  if (data[field].get<int64_t>() < 0) return place + "." + field + ": expected an entry's seq (an integer >= 0)";
  return "";
}

std::string CheckCoins(const json& data, const std::string& place) {
  for (const char* f : {"turn", "round"})
    if (auto e = Need(data, place, f, &json::is_number_integer, "an integer"); !e.empty()) return e;
  if (auto e = Need(data, place, "player", &json::is_string, "a player's name"); !e.empty()) return e;
  if (auto e = Need(data, place, "coins", &json::is_object, "{regions, race, power, total}"); !e.empty()) return e;
  for (const char* f : {"regions", "race", "power", "total"})
    if (auto e = Need(data["coins"], place + ".coins", f, &json::is_number_integer, "an integer"); !e.empty()) return e;
  return Need(data, place, "totals", &json::is_object, "{player: coins}");
}

std::string CheckKindData(EntryKind kind, const json& data, const std::string& place) {
  switch (kind) {
    case EntryKind::kStart: return "";
    case EntryKind::kObservation: {
      if (!data.contains("sha256") || !IsSha256Hex(data["sha256"])) return place + ".sha256: expected the observation's SHA-256 (64 hex digits)";
      if (auto e = Need(data, place, "changed", &json::is_array, "an array of region ids"); !e.empty()) return e;
      for (size_t i = 0; i < data["changed"].size(); ++i)
        if (!data["changed"][i].is_number_integer()) return place + ".changed[" + std::to_string(i) + "]: expected a region id";
      if (data.contains("image") && !data["image"].is_string()) return place + ".image: expected a string";
      if (data.contains("frame") && !data["frame"].is_number_integer()) return place + ".frame: expected an integer";
      return "";
    }
    case EntryKind::kAction:
      if (auto e = Need(data, place, "index", &json::is_number_integer, "the action's index in record.actions"); !e.empty()) return e;
      if (auto e = Need(data, place, "action", &json::is_object, "a record action"); !e.empty()) return e;
      if (auto e = Need(data, place, "verdict", &json::is_object, "{ok, code?, why?}"); !e.empty()) return e;
      return Need(data["verdict"], place + ".verdict", "ok", &json::is_boolean, "true or false");
    case EntryKind::kFlag:
      if (auto e = Need(data, place, "action", &json::is_object, "the attempted action"); !e.empty()) return e;
      if (auto e = Need(data, place, "region", &json::is_number_integer, "a region id"); !e.empty()) return e;
      if (auto e = Need(data, place, "code", &json::is_string, "a rejection code"); !e.empty()) return e;
      return Need(data, place, "why", &json::is_string, "a sentence");
    case EntryKind::kResolution:
      if (auto e = NeedSeq(data, place, "flag"); !e.empty()) return e;
      if (!data.contains("outcome") || (data["outcome"] != kTakenBack && data["outcome"] != kHouseRuling))
        return place + ".outcome: expected \"taken_back\" or \"house_ruling\"";
      return Need(data, place, "note", &json::is_string, "a string");
    case EntryKind::kQuestion:
      if (auto e = Need(data, place, "text", &json::is_string, "a string"); !e.empty()) return e;
      return Need(data, place, "options", &json::is_array, "an array");
    case EntryKind::kAnswer:
      if (auto e = NeedSeq(data, place, "question"); !e.empty()) return e;
      if (!data.contains("answer")) return place + ".answer: missing";
      return Need(data, place, "corrected", &json::is_boolean, "true or false");
    case EntryKind::kEvent: return Need(data, place, "do", &json::is_string, "the event's name (pick, die, decline, ally, end_turn...)");
    case EntryKind::kCoins: return CheckCoins(data, place);
    case EntryKind::kCorrection:
      if (auto e = NeedSeq(data, place, "entry"); !e.empty()) return e;
      return Need(data, place, "reason", &json::is_string, "a string");
    case EntryKind::kUndo:
      if (auto e = NeedSeq(data, place, "entry"); !e.empty()) return e;
      if (auto e = Need(data, place, "index", &json::is_number_integer, "the action's index in record.actions"); !e.empty()) return e;
      return Need(data, place, "reason", &json::is_string, "a string");
    case EntryKind::kEnd:
      if (!data.contains("reason") || (data["reason"] != "finished" && data["reason"] != "stopped"))
        return place + ".reason: expected \"finished\" or \"stopped\"";
      if (auto e = Need(data, place, "coins", &json::is_object, "{player: coins}"); !e.empty()) return e;
      return Need(data, place, "winners", &json::is_array, "an array of names");
  }
  return place + ": unknown kind";
}

}  // namespace

std::string_view ToString(EntryKind kind) { return kKindNames[static_cast<int>(kind)]; }

std::optional<EntryKind> EntryKindFromString(std::string_view name) {
  for (int i = 0; i < kEntryKindCount; ++i)
    if (kKindNames[i] == name) return static_cast<EntryKind>(i);
  return std::nullopt;
}

std::string CanonicalHash(const json& value) { return Sha256Hex(value.dump()); }

std::string EntryHash(const json& entry) {
  json rest = entry;
  rest.erase("hash");
  return CanonicalHash(rest);
}

json RecordHeader(const json& document) {
  json header = document;
  for (const char* part : {"actions", "journal", "head"}) header.erase(part);
  return header;
}

std::string CheckEntryData(EntryKind kind, const json& data, const std::string& place) {
  if (!data.is_object()) return place + ": expected an object";
  return CheckKindData(kind, data, place);
}

bool IsSha256Hex(const json& value) {
  if (!value.is_string()) return false;
  const auto& s = value.get_ref<const std::string&>();
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string JournalLimits::Check() const {
  if (max_entries == 0) return "max_entries: must be at least 1";
  if (max_record_bytes == 0) return "max_record_bytes: must be at least 1";
  if (max_entry_bytes == 0) return "max_entry_bytes: must be at least 1";
  return "";
}

std::string UtcNow() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                utc.tm_min, utc.tm_sec, static_cast<int>(ms));
  return text;
}

}  // namespace swref::core
