// Where a game refereed from a recorded source (a video, a folder of frames) resumes after a crash
// (docs/referee.md, "Crashes and resuming"). The referee writes it beside the record (RECORD.resume) after every
// frame that it observed or that committed something: how far the game got (the next frame to read, the
// events told), which journal entries that state follows (their count and the last one's hash), and the session's
// state then (RefereeSession::SaveState). `swref referee --resume` restores that state and re-judges the frames
// after it; the entries those frames wrote before the crash are taken from the record, not written again
// (Journal::OpenToRejudge), so every committed event is in the record exactly once.
//
// It is written after the record (the record is never behind it) with the record's file writer, and removed when
// the record is closed. It is outside input when read back: bounded (kMaxResumePointBytes, the JSON depth limit)
// and checked field by field; a missing or unusable one makes the resume re-judge every frame from the first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/durable_write.h"
#include "engine/result.h"

namespace swref::core {

inline constexpr std::uintmax_t kMaxResumePointBytes = 4u << 20;  // 4 MiB (a 2-player game's point: ~20 KB)
inline constexpr const char* kResumePointFormat = "swref-resume/1";

struct ResumePoint {
  int entries = 1;                                    // the journal's first `entries` entries...
  std::string hash;                                   // ... the last of which has this hash
  int64_t next_frame = 0;                             // frames before it were processed
  int64_t events = 0;                                 // events of the events file told
  nlohmann::json session = nlohmann::json::object();  // RefereeSession::SaveState()
};

// Reads the checked fields of one object of a resume point (the session's state uses it too): each call that
// fails sets `error` to the field's place and what it expected, and later calls do nothing.
class FieldReader {
 public:
  FieldReader(const nlohmann::json& object, std::string where);
  bool Int(const char* key, int64_t lo, int64_t hi, int64_t* out);
  bool Int(const char* key, int lo, int hi, int* out);
  bool Bool(const char* key, bool* out);
  bool String(const char* key, size_t max_bytes, std::string* out);
  // The member (an array or object, as asked), or null with the error set.
  const nlohmann::json* Array(const char* key, size_t max_size);
  const nlohmann::json* Object(const char* key);
  std::string Place(const char* key) const { return where_ + "." + key; }
  bool Fail(const std::string& problem);  // sets the error (when none yet); false
  bool ok() const { return error.empty(); }
  std::string error;

 private:
  const nlohmann::json* Find(const char* key);
  const nlohmann::json& object_;
  std::string where_;
};

// RECORD + ".resume".
std::filesystem::path ResumePointPath(const std::filesystem::path& record);

nlohmann::json ToJson(const ResumePoint& point);
// Errors name the field under `where` ("game.json.resume.next_frame: expected an integer >= 0").
engine::Result<ResumePoint> ParseResumePoint(const nlohmann::json& doc, const std::string& where);
engine::Result<ResumePoint> ReadResumePoint(const std::filesystem::path& file);
engine::WriteOutcome WriteResumePoint(const std::filesystem::path& file, const ResumePoint& point, const engine::FileReplacer& write);

}  // namespace swref::core
