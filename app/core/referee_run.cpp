#include "app/core/referee_run.h"

#include <algorithm>
#include <map>

namespace swref::core {

double RefereeRunSummary::median_latency_ms() const {
  if (latency_ms.empty()) return 0;
  std::vector<double> v = latency_ms;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

void RefereeStepper::TellUpTo(int64_t frame, std::vector<Notice>* out) {
  for (; next_ < events_.size() && events_[next_].after_frame <= frame && !stopped_; ++next_) {
    for (Notice& n : session_.OnEvent(events_[next_])) {
      stopped_ = stopped_ || n.kind == NoticeKind::kStopped;
      out->push_back(std::move(n));
    }
  }
}

bool RefereeStepper::SkipTo(int64_t frame) {
  while (next_ < events_.size() && events_[next_].after_frame <= frame) ++next_;
  Frame f;
  while (last_frame_ < frame) {
    if (!frames_.Next(&f)) return false;
    last_frame_ = f.index;
  }
  return true;
}

bool RefereeStepper::ReadFrame(std::vector<Notice>* out, Frame* frame) {
  if (last_frame_ < 0) TellUpTo(-1, out);
  Frame local;
  Frame& f = frame ? *frame : local;
  if (stopped_ || !frames_.Next(&f)) {
    ended_ = true;
    return false;
  }
  for (Notice& n : session_.OnFrame(f)) {
    stopped_ = stopped_ || n.kind == NoticeKind::kStopped;
    out->push_back(std::move(n));
  }
  last_frame_ = f.index;
  return true;
}

void RefereeStepper::ResumeAt(int64_t next_frame, size_t events_told, std::vector<Notice>* out) {
  last_frame_ = next_frame - 1;
  next_ = std::min(events_told, events_.size());
  TellUpTo(last_frame_, out);
}

void RefereeStepper::TellEvents(std::vector<Notice>* out) { TellUpTo(ended_ ? INT64_MAX : last_frame_, out); }

bool RefereeStepper::Step(std::vector<Notice>* out, Frame* frame) {
  const bool read = ReadFrame(out, frame);
  TellEvents(out);
  return read;
}

engine::Result<RefereeRunSummary> RunReferee(RefereeSession& session, FrameSource& frames, const std::vector<TableEvent>& events,
                                             const std::function<void(const Notice&)>& on_notice,
                                             const std::function<void(int64_t, int64_t)>& progress) {
  RefereeRunSummary summary;
  auto take = [&](const std::vector<Notice>& notices) {
    for (const Notice& n : notices) {
      switch (n.kind) {
        case NoticeKind::kCommitted:
          ++summary.committed;
          break;
        case NoticeKind::kFlag:
          ++summary.flags;
          break;
        case NoticeKind::kQuestion:
          ++summary.questions;
          break;
        case NoticeKind::kRefused:
          ++summary.refused;
          break;
        case NoticeKind::kStopped:
          summary.stopped = true;
          break;
        default:
          break;
      }
      if (n.ms > 0) summary.latency_ms.push_back(n.ms);
      if (on_notice) on_notice(n);
    }
  };
  RefereeStepper stepper(session, frames, events);
  // A re-judging resume: the resume point's state back (with the frames it names read again), then on from its
  // next frame and event.
  const ResumeAt& at = session.resume_at();
  if (at.next_frame > 0 || at.events > 0) {
    if (at.events > static_cast<int64_t>(events.size()))
      return engine::Result<RefereeRunSummary>::Error("the resume point has " + std::to_string(at.events) +
                                                      " events told, the events file " + std::to_string(events.size()));
    std::map<int64_t, cv::Mat> again;
    Frame f;
    for (int64_t index : at.frames) {
      if (frames.SkipTo(index) && frames.Next(&f) && f.index == index) again[index] = f.image;
    }
    if (!frames.SkipTo(at.next_frame))
      return engine::Result<RefereeRunSummary>::Error("the frames end before frame " + std::to_string(at.next_frame) +
                                                      ", where the game resumes");
    auto read_again = [&](int64_t index) {  // one at a time: a scene may rest on a dozen frames
      Frame g;
      return frames.SkipTo(index) && frames.Next(&g) && g.index == index ? g.image : cv::Mat();
    };
    if (std::string error = session.Restore(again, read_again); !error.empty()) return engine::Result<RefereeRunSummary>::Error(error);
    if (!at.scene_frames.empty() && !frames.SkipTo(at.next_frame))  // back where the game resumes
      return engine::Result<RefereeRunSummary>::Error("frame " + std::to_string(at.next_frame) + " could not be read again");
    std::vector<Notice> told;
    stepper.ResumeAt(at.next_frame, static_cast<size_t>(at.events), &told);
    take(told);
  }
  const int64_t total = frames.count();
  std::vector<Notice> notices;
  while (!summary.stopped) {
    // The frame's notices are handed on before the events after it are told (the demo's players answer first).
    notices.clear();
    const bool read = stepper.ReadFrame(&notices);
    take(notices);
    notices.clear();
    if (!summary.stopped) stepper.TellEvents(&notices);
    take(notices);
    if (!read) break;
    ++summary.frames;
    if (progress) progress(stepper.last_frame() + 1, total);
    if (!summary.stopped && frames.can_read_again())
      take(session.SaveResumePoint(stepper.last_frame() + 1, static_cast<int64_t>(stepper.events_told())));
  }
  summary.observed = session.frames_observed();
  if (!summary.stopped && !session.game().finished()) take(session.Stop("the frames ended before the game did"));
  if (!summary.stopped && frames.can_read_again())
    take(session.SaveResumePoint(session.last_frame() + 1, static_cast<int64_t>(stepper.events_told())));  // removed when closed
  return summary;
}

engine::Result<engine::Record> ReadGameHeader(const std::string& path) {
  auto record = engine::ReadRecordFile(path);
  if (!record) return record;
  record->actions.clear();
  return record;
}

}  // namespace swref::core
