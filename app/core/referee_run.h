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
  int64_t observed = 0;              // frames observed in full (the scene had just become still)
  int committed = 0, flags = 0, questions = 0, refused = 0;
  bool stopped = false;              // the record could not be written: the run stopped there
  std::vector<double> latency_ms;    // from a frame to its verdict, per judged still scene
  double median_latency_ms() const;
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
