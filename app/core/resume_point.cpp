#include "app/core/resume_point.h"

#include "app/core/journal_entry.h"
#include "engine/json_input.h"

namespace swref::core {

using nlohmann::json;

FieldReader::FieldReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
  if (!object_.is_object()) error = where_ + ": expected an object";
}

bool FieldReader::Fail(const std::string& problem) {
  if (error.empty()) error = problem;
  return false;
}

const json* FieldReader::Find(const char* key) {
  if (!ok()) return nullptr;
  const auto it = object_.find(key);
  if (it == object_.end()) return Fail(Place(key) + ": missing"), nullptr;
  return &*it;
}

bool FieldReader::Int(const char* key, int64_t lo, int64_t hi, int64_t* out) {
  const json* v = Find(key);
  if (!v) return false;
  if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi) {
    return Fail(Place(key) + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  *out = v->get<int64_t>();
  return true;
}

bool FieldReader::Int(const char* key, int lo, int hi, int* out) {
  int64_t v = 0;
  if (!Int(key, static_cast<int64_t>(lo), static_cast<int64_t>(hi), &v)) return false;
  *out = static_cast<int>(v);
  return true;
}

bool FieldReader::Bool(const char* key, bool* out) {
  const json* v = Find(key);
  if (!v) return false;
  if (!v->is_boolean()) return Fail(Place(key) + ": expected true or false");
  *out = v->get<bool>();
  return true;
}

bool FieldReader::String(const char* key, size_t max_bytes, std::string* out) {
  const json* v = Find(key);
  if (!v) return false;
  if (!v->is_string() || v->get_ref<const std::string&>().size() > max_bytes) {
    return Fail(Place(key) + ": expected a string of at most " + std::to_string(max_bytes) + " bytes");
  }
  *out = v->get<std::string>();
  return true;
}

const json* FieldReader::Array(const char* key, size_t max_size) {
  const json* v = Find(key);
  if (!v) return nullptr;
  if (!v->is_array() || v->size() > max_size)
    return Fail(Place(key) + ": expected an array of at most " + std::to_string(max_size) + " items"), nullptr;
  return v;
}

const json* FieldReader::Object(const char* key) {
  const json* v = Find(key);
  if (!v) return nullptr;
  if (!v->is_object()) return Fail(Place(key) + ": expected an object"), nullptr;
  return v;
}

std::filesystem::path ResumePointPath(const std::filesystem::path& record) { return record.string() + ".resume"; }

json ToJson(const ResumePoint& point) {
  return {{"format", kResumePointFormat},
          {"record", {{"entries", point.entries}, {"hash", point.hash}}},
          {"next_frame", point.next_frame},
          {"events", point.events},
          {"session", point.session}};
}

engine::Result<ResumePoint> ParseResumePoint(const json& doc, const std::string& where) {
  using R = engine::Result<ResumePoint>;
  FieldReader top(doc, where);
  ResumePoint p;
  std::string format;
  if (top.String("format", 64, &format) && format != kResumePointFormat) {
    return R::Error(top.Place("format") + ": expected \"" + std::string(kResumePointFormat) + "\", got \"" + format + "\"");
  }
  if (const json* record = top.Object("record")) {
    FieldReader r(*record, top.Place("record"));
    r.Int("entries", 1, 1 << 30, &p.entries);
    if (r.String("hash", 64, &p.hash) && !IsSha256Hex(p.hash)) r.Fail(r.Place("hash") + ": expected a SHA-256 (64 hex digits)");
    if (!r.ok()) return R::Error(r.error);
  }
  top.Int("next_frame", int64_t{0}, INT64_MAX / 2, &p.next_frame);
  top.Int("events", int64_t{0}, INT64_MAX / 2, &p.events);
  if (const json* session = top.Object("session")) p.session = *session;
  if (!top.ok()) return R::Error(top.error);
  return p;
}

engine::Result<ResumePoint> ReadResumePoint(const std::filesystem::path& file) {
  auto doc = engine::ReadJsonFile(file, kMaxResumePointBytes, "resume point");
  if (!doc) return engine::Result<ResumePoint>::Error(doc.error());
  return ParseResumePoint(*doc, file.filename().string());
}

engine::WriteOutcome WriteResumePoint(const std::filesystem::path& file, const ResumePoint& point, const engine::FileReplacer& write) {
  return write(file, ToJson(point).dump() + "\n");
}

}  // namespace swref::core
