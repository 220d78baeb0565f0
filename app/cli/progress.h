// A progress bar on stderr for long work (`swref bench`, `swref dataset generate`): redrawn in place on a
// terminal, a few plain lines otherwise (CI logs).
#pragma once

#include <chrono>
#include <string>

namespace swref::cli {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  void Update(int done, int total);
  void Finish();

 private:
  std::string label_;
  bool tty_;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace swref::cli
