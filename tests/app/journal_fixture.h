// Test fixture: a game refereed through a Journal as the camera session will do it, with every kind of entry.
// The game is a seeded injected game (engine/inject.h: random legal play with illegal conquests slipped in).
#pragma once

#include <filesystem>
#include <string>

#include "app/core/journal.h"
#include "engine/inject.h"

namespace swref::core::testing {

struct RefereedGame {
  engine::InjectedGame injected;   // the game played (its record holds the illegal conquests too)
  int flags = 0;                   // flags written (all taken back)
  int questions = 0, undos = 0, corrections = 0, observations = 0;
};

// Referees the injected game `seed` on `map` into a new record at `path`: for each action the events told
// (pick, decline, ally, end_turn, die), an observation digest after each board change, the action (an illegal
// conquest: a flag, taken back); every 7th conquest also a question and its answer, every 9th accepted conquest is
// first committed, undone ("misread") and committed again, every 13th observation gets a correction. Fails the
// calling test (gtest ASSERT) on any error.
void RefereeInjectedGame(const std::filesystem::path& path, const std::string& map, uint64_t seed, JournalOptions options,
                         RefereedGame* out);

// The appends of RefereeInjectedGame, of `record`'s game, into `journal` (which starts where the game does).
void RefereeInto(Journal& journal, const engine::Record& record, RefereedGame* out);

// A writer without fsync, for tests that build many records (the durability is tested on its own).
engine::WriteOutcome FastReplace(const std::filesystem::path& path, std::string_view content);

// A fresh empty folder under the system's temporary folder, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace swref::core::testing
