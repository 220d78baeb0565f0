#include "app/core/play.h"

namespace swref::core {

engine::Result<engine::ReplayResult> ReplayRecordFile(const std::filesystem::path& path) {
  auto record = engine::ReadRecordFile(path);
  if (!record) return engine::Result<engine::ReplayResult>::Error(record.error());
  auto replay = engine::Replay(*record, path.parent_path());
  if (!replay) return engine::Result<engine::ReplayResult>::Error(path.string() + ": " + replay.error());
  return replay;
}

}  // namespace swref::core
