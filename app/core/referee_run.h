// `swref referee` and the demo: a referee session fed from a frame source and an events file, start to end.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/core/frame_source.h"
#include "app/core/referee_session.h"
#include "app/core/table_events.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::core {

struct RefereeRunSummary {
  int64_t frames = 0;                // frames read
  int64_t observed = 0;              // frames observed (the scene had just become still)
  int committed = 0, flags = 0, questions = 0, refused = 0;
  bool stopped = false;              // the record could not be written: the run stopped there
  std::vector<double> latency_ms;    // from a frame to its verdict, per judged still scene
  double median_latency_ms() const;
};

// A run one frame at a time (the GUI drives it from its worker thread; RunReferee below loops over it): each
// Step reads the next frame, gives it to the session and then tells the events placed after it (`after_frame`).
// The events before the first frame are told by the first Step; those left after the last frame by the Step that
// finds no frame. Events the caller tells in between (buttons) go to the session directly.
class RefereeStepper {
 public:
  RefereeStepper(RefereeSession& session, FrameSource& frames, std::vector<TableEvent> events)
      : session_(session), frames_(frames), events_(std::move(events)) {}
  // False when there was no frame left (or the session stopped); `frame` (optional) gets the frame read.
  bool Step(std::vector<Notice>* out, Frame* frame = nullptr);
  // Step in two halves, for a caller that answers the frame's questions before the events after it are told (as
  // `swref demo`'s players do): the frame alone, then the events placed after it (or, with no frame left, the rest).
  bool ReadFrame(std::vector<Notice>* out, Frame* frame = nullptr);
  void TellEvents(std::vector<Notice>* out);
  // A resumed run: reads the frames up to and including `frame` without giving them to the session, and drops the
  // events placed before or at it (the record holds what they did). False when the frames ended first.
  bool SkipTo(int64_t frame);
  // A run resumed from a resume point (RefereeSession::resume_at), its frames already positioned at `next_frame`:
  // the first `events_told` events were told before; those placed before `next_frame` are told now.
  void ResumeAt(int64_t next_frame, size_t events_told, std::vector<Notice>* out);
  int64_t last_frame() const { return last_frame_; }  // the index of the last frame given (-1: none yet)
  size_t events_told() const { return next_; }
  const std::vector<TableEvent>& events() const { return events_; }

 private:
  void TellUpTo(int64_t frame, std::vector<Notice>* out);
  RefereeSession& session_;
  FrameSource& frames_;
  std::vector<TableEvent> events_;
  size_t next_ = 0;
  int64_t last_frame_ = -1;
  bool stopped_ = false;
  bool ended_ = false;  // no frame left
};

// Feeds every frame, and after each frame the events told after it (`after_frame`), to a session; hands every
// notice to `on_notice` as it comes. Events left after the last frame are told at the end. The game is closed in
// the record ("stopped") when it is not finished. `progress(done, total)` (total -1 when unknown) per frame.
// Frames that can be read again (a folder, a video): a resume point after every frame that did something
// (RefereeSession::SaveResumePoint), and a session started to re-judge (RefereeOptions::rejudge) goes on from its
// resume point: the state restored with the frames it names read again, then its next frame and event. An error
// when those frames are not there (other frames than the game's).
engine::Result<RefereeRunSummary> RunReferee(RefereeSession& session, FrameSource& frames, const std::vector<TableEvent>& events,
                                             const std::function<void(const Notice&)>& on_notice,
                                             const std::function<void(int64_t, int64_t)>& progress = nullptr);

// The game's header for a new record: a record file whose actions, if any, are ignored. Errors name the file.
engine::Result<engine::Record> ReadGameHeader(const std::string& path);

}  // namespace swref::core
