// Replacing a file so that a crash or a full disk never leaves it half written: the new content goes to a
// temporary file in the same folder (".NAME.tmp.XXXXXX"), which is flushed to the disk (fsync), renamed over the
// file (atomic on POSIX file systems), and the folder is flushed so that the rename itself survives a power cut.
// At every moment the file is either its old or its new complete content.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace swref::engine {

struct WriteOutcome {
  bool replaced = false;  // the file now holds the new content (it may still not be durable if `error` is set)
  std::string error;      // "" on success; else one line naming the file and the system's reason
  bool ok() const { return replaced && error.empty(); }
};

// The default writer. Failures: the temporary file cannot be created (read-only folder, no space), a write or
// the fsync fails (disk full, I/O error): the file keeps its old content and the temporary file is removed.
// Only the folder's fsync comes after the rename: its failure returns replaced = true with the error.
WriteOutcome ReplaceFileDurably(const std::filesystem::path& path, std::string_view content);

// Removes the temporary files that writes of `path` cut short by a crash left in its folder (".NAME.tmp.XXXXXX":
// never the file itself, whose rename did not happen). Returns how many were removed.
int RemoveStaleTemporaries(const std::filesystem::path& path);

// The writer a journal uses: ReplaceFileDurably, or a stand-in (tests inject failures through it).
using FileReplacer = std::function<WriteOutcome(const std::filesystem::path& path, std::string_view content)>;

}  // namespace swref::engine
