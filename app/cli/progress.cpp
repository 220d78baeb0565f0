#include "app/cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace swref::cli {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), tty_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}

void ProgressBar::Update(int done, int total) {
  const int percent = total > 0 ? done * 100 / total : 100;
  if (percent == last_percent_ || (!tty_ && percent / 25 == last_percent_ / 25 && last_percent_ >= 0)) return;
  last_percent_ = percent;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  constexpr int kWidth = 30;
  const int filled = percent * kWidth / 100;
  std::string bar(filled, '#');
  bar += std::string(kWidth - filled, '.');
  if (tty_) std::fprintf(stderr, "\r%s [%s] %3d%%  %d/%d  %.1fs", label_.c_str(), bar.c_str(), percent, done, total, s);
  else std::fprintf(stderr, "%s %3d%%  %d/%d  %.1fs\n", label_.c_str(), percent, done, total, s);
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (tty_ && last_percent_ >= 0) std::fprintf(stderr, "\n");
}

}  // namespace swref::cli
