#include "app/core/video_capture.h"

#include <dlfcn.h>

#include <filesystem>
#include <cstdlib>
#include <vector>

namespace swref::core {
namespace fs = std::filesystem;
namespace {

using NewCapture = VideoCapture* (*)();

struct Plugin {
  NewCapture make = nullptr;
  std::string error;
};

// Loaded once per process and kept (never unloaded: captures may outlive any one caller).
const Plugin& LoadPlugin() {
  static const Plugin plugin = [] {
    Plugin p;
    std::vector<fs::path> dirs;
    if (const char* env = secure_getenv("SWREF_PLUGIN_DIR"); env && *env) dirs.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) dirs.push_back(exe.parent_path());
    // The build tree's folder only for a program inside it (the tests, in build/tests): a copy of swref elsewhere
    // never loads code from a folder it does not know.
    const std::string build_dir = SWREF_PLUGIN_BUILD_DIR;
    if (!ec && exe.string().rfind(build_dir + "/", 0) == 0) dirs.emplace_back(build_dir);
    std::string tried;
    for (const fs::path& dir : dirs) {
      const fs::path file = dir / kVideoPluginFile;
      if (!fs::exists(file, ec)) {
        tried += (tried.empty() ? "" : ", ") + dir.string();
        continue;
      }
      void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        p.error = file.string() + ": cannot be loaded (" + dlerror() + ")";
        return p;
      }
      p.make = reinterpret_cast<NewCapture>(dlsym(handle, kVideoPluginSymbol));
      if (!p.make) {
        p.error = file.string() + ": not swref's video plugin (no " + kVideoPluginSymbol + ")";
        dlclose(handle);
      }
      return p;
    }
    p.error = std::string("videos and cameras need ") + kVideoPluginFile + ", built beside swref; it is not in " + tried +
              " (set SWREF_PLUGIN_DIR to its folder)";
    return p;
  }();
  return plugin;
}

}  // namespace

engine::Result<std::unique_ptr<VideoCapture>> NewVideoCapture() {
  using R = engine::Result<std::unique_ptr<VideoCapture>>;
  const Plugin& p = LoadPlugin();
  if (!p.make) return R::Error(p.error);
  return std::unique_ptr<VideoCapture>(p.make());
}

}  // namespace swref::core
