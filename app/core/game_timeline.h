// The game along a journal's committed actions: apply an action (plainly, or as a house ruling, exactly as
// engine::Replay does), take the last one back, and read the state. The journal and the verifier both walk a
// record with it. Taking back rebuilds from a snapshot kept every kSnapshotEvery actions, so an undo costs at
// most that many applications and memory grows by one Game per kSnapshotEvery actions.
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::core {

struct TimelineStep {
  engine::Verdict verdict;    // the rules' verdict
  bool house_ruled = false;   // applied as a house ruling against that verdict
  bool applied() const { return verdict.ok() || house_ruled; }
};

// A step as `swref play` shows it, without "i": {"ok", "ruling"?, "code"?, "why"?}.
nlohmann::json StepJson(const TimelineStep& step);

class GameTimeline {
 public:
  static constexpr int kSnapshotEvery = 32;

  // The game the record's header starts (map relative to base_dir); its `actions` are not applied.
  static engine::Result<GameTimeline> Start(const engine::Record& header, const std::filesystem::path& base_dir);

  // Applies `action` (with `house_ruling` through Game::ApplyHouseRuling) and keeps it, whatever the verdict.
  TimelineStep Apply(const engine::Action& action);
  // The step `action` would give now, the game unchanged.
  TimelineStep Try(const engine::Action& action) const;
  // Takes the last kept action back; false when there is none.
  bool Undo();

  const engine::Game& game() const { return game_; }
  const std::vector<engine::Action>& actions() const { return actions_; }

 private:
  explicit GameTimeline(engine::Game start) : game_(start), snapshots_{std::move(start)} {}
  static TimelineStep ApplyTo(engine::Game* game, const engine::Action& action);

  engine::Game game_;
  std::vector<engine::Action> actions_;
  std::vector<engine::Game> snapshots_;  // [k]: the game after k * kSnapshotEvery actions
};

}  // namespace swref::core
