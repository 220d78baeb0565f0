// Players who answer the referee's questions by looking at the table: on a synthetic game, the frames' exact
// truth (truth.jsonl, datasets/game_frames.h). `swref demo`, `swref bench referee` and `swref referee --truth`
// use them to follow a whole game from its frames without people at the table: when the referee asks, they correct
// every region it reads wrong in the frame it last observed and confirm the regions the question names, in one
// correction (and again, at most 3 times, when the corrected board raises a new question). A question a correction
// cannot settle stays open, as at a real table.
// A flag is looked at the same way, its region confirmed: raised on a misreading, or on a count the camera got wrong
// earlier, the players' correction withdraws it (referee_session.h).
// When an action they tell waits for a flagged conquest that the board they were last read from shows taken back,
// they say "taken back" (the alert's button), as players do when the camera has not read the region back exactly
// (a SoloPlay redeployment or erosion flagged: when the regions it changed show something else, or the whole board
// is as the game has it).
// The truth is read with datasets::ReadObservations (one Observation a frame, by frame index).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/core/referee_session.h"
#include "engine/observed.h"
#include "vision/observation.h"

namespace swref::core {

class TruthPlayers {
 public:
  TruthPlayers(RefereeSession& session, std::vector<vision::Observation> truth) : session_(session), truth_(std::move(truth)) {}
  // Hands `notice` on, then answers the question it may raise; the notices of the answer go on too.
  void OnNotice(const Notice& notice, const std::function<void(const Notice&)>& next);
  int questions() const { return questions_; }  // questions (and flags on a misreading) answered with a correction
  int corrected() const { return corrected_; }  // region readings corrected in them (not those only confirmed)
  int taken_back() const { return taken_back_; }  // flagged conquests they said were taken back (the alert's button)

 private:
  void Remember(const Notice& notice);  // keeps what a flag was raised on
  RefereeSession& session_;
  std::vector<vision::Observation> truth_;
  int questions_ = 0, corrected_ = 0, taken_back_ = 0;
  std::optional<engine::ObservedRegion> flagged_;  // the open flag's region as read when it was flagged
  std::optional<engine::ObservedBoard> flagged_board_;  // the whole board then (a SoloPlay redeployment or erosion)
  std::optional<engine::ObservedRegion> flagged_truth_;  // the flagged region as it truly was then
};

}  // namespace swref::core
