#include "engine/durable_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace swref::engine {
namespace {

std::string Reason(const std::filesystem::path& path, const std::string& what, int error) {
  return path.string() + ": " + what + ": " + std::strerror(error);
}

// Writes all of `content` to fd; 0 or errno.
int WriteAll(int fd, std::string_view content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

WriteOutcome ReplaceFileDurably(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string name = ".";
  name.append(path.filename().string()).append(".tmp.XXXXXX");
  std::string temp = (folder / name).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return {false, Reason(path, "cannot create a temporary file in " + folder.string(), errno)};
  int error = ::fchmod(fd, 0644) == 0 ? WriteAll(fd, content) : errno;
  const char* step = "cannot write the new content";
  if (error == 0 && ::fsync(fd) != 0) error = errno, step = "cannot flush the new content to the disk";
  if (::close(fd) != 0 && error == 0) error = errno, step = "cannot close the new content";
  if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0) error = errno, step = "cannot rename the new content over the file";
  if (error != 0) {
    ::unlink(temp.c_str());
    return {false, Reason(path, std::string(step) + " (the file on disk is unchanged)", error)};
  }
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir < 0) return {true, Reason(path, "cannot open its folder to flush the rename", errno)};
  error = ::fsync(dir) == 0 ? 0 : errno;
  ::close(dir);
  if (error != 0) return {true, Reason(path, "cannot flush its folder (the new content may not survive a power cut)", error)};
  return {true, ""};
}

int RemoveStaleTemporaries(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::string prefix = std::string(".").append(path.filename().string()).append(".tmp.");
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0 && entry.is_regular_file(ec)) {
      removed += std::filesystem::remove(entry.path(), ec) ? 1 : 0;
    }
  }
  return removed;
}

}  // namespace swref::engine
