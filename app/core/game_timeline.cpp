#include "app/core/game_timeline.h"

namespace swref::core {

nlohmann::json StepJson(const TimelineStep& step) {
  nlohmann::json j = {{"ok", step.applied()}};
  if (step.house_ruled) j["ruling"] = "house";
  if (!step.verdict.ok()) j["code"] = engine::ToString(step.verdict.code), j["why"] = step.verdict.why;
  return j;
}

engine::Result<GameTimeline> GameTimeline::Start(const engine::Record& header, const std::filesystem::path& base_dir) {
  auto game = engine::StartGame(header, base_dir);
  if (!game) return engine::Result<GameTimeline>::Error(game.error());
  return GameTimeline(std::move(*game));
}

TimelineStep GameTimeline::ApplyTo(engine::Game* game, const engine::Action& action) {
  TimelineStep step;
  if (action.house_ruling) {
    bool applied = false;
    step.verdict = game->ApplyHouseRuling(action, &applied);
    step.house_ruled = applied && !step.verdict.ok();
  } else {
    step.verdict = game->Apply(action);
  }
  return step;
}

TimelineStep GameTimeline::Apply(const engine::Action& action) {
  const TimelineStep step = ApplyTo(&game_, action);
  actions_.push_back(action);
  if (actions_.size() % kSnapshotEvery == 0) snapshots_.push_back(game_);
  return step;
}

TimelineStep GameTimeline::Try(const engine::Action& action) const {
  engine::Game copy = game_;
  return ApplyTo(&copy, action);
}

bool GameTimeline::Undo() {
  if (actions_.empty()) return false;
  if (actions_.size() % kSnapshotEvery == 0) snapshots_.pop_back();
  actions_.pop_back();
  const size_t base = (snapshots_.size() - 1) * kSnapshotEvery;
  game_ = snapshots_.back();
  for (size_t i = base; i < actions_.size(); ++i) ApplyTo(&game_, actions_[i]);
  return true;
}

}  // namespace swref::core
