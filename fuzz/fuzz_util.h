// What the fuzz targets share: the input as text, and a scratch folder of this process (in /dev/shm when there is
// one: the parsers of files are fuzzed through real files, as users reach them) removed at exit.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace swref::fuzz {

inline std::string_view Text(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path d = base / ("swref_fuzz_" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] { std::error_code e; fs::remove_all(ScratchDir(), e); });
    return d;
  }();
  return dir;
}

inline void WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The part of `text` before the first `separator` (all of it when there is none) and the rest after it.
inline std::pair<std::string_view, std::string_view> SplitAt(std::string_view text, std::string_view separator) {
  const size_t at = text.find(separator);
  if (at == std::string_view::npos) return {text, {}};
  return {text.substr(0, at), text.substr(at + separator.size())};
}

}  // namespace swref::fuzz
