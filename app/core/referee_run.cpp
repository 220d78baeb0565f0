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

engine::Result<RefereeRunSummary> RunReferee(RefereeSession& session, FrameSource& frames, const std::vector<TableEvent>& events,
                                             const std::function<void(const Notice&)>& on_notice,
                                             const std::function<void(int64_t, int64_t)>& progress) {
  RefereeRunSummary summary;
  auto take = [&](const std::vector<Notice>& notices) {
    for (const Notice& n : notices) {
      switch (n.kind) {
        case NoticeKind::kCommitted: ++summary.committed; break;
        case NoticeKind::kFlag: ++summary.flags; break;
        case NoticeKind::kQuestion: ++summary.questions; break;
        case NoticeKind::kRefused: ++summary.refused; break;
        case NoticeKind::kStopped: summary.stopped = true; break;
        default: break;
      }
      if (n.ms > 0) summary.latency_ms.push_back(n.ms);
      if (on_notice) on_notice(n);
    }
  };
  size_t next = 0;
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
    if (std::string error = session.Restore(again); !error.empty()) return engine::Result<RefereeRunSummary>::Error(error);
    next = static_cast<size_t>(at.events);
  }
  auto tell_up_to = [&](int64_t frame) {
    for (; next < events.size() && events[next].after_frame <= frame && !summary.stopped; ++next) take(session.OnEvent(events[next]));
  };
  tell_up_to(at.next_frame - 1);
  Frame frame;
  const int64_t total = frames.count();
  while (!summary.stopped && frames.Next(&frame)) {
    take(session.OnFrame(frame));
    ++summary.frames;
    tell_up_to(frame.index);
    if (!summary.stopped && frames.can_read_again()) take(session.SaveResumePoint(frame.index + 1, static_cast<int64_t>(next)));
    if (progress) progress(frame.index + 1, total);
  }
  tell_up_to(INT64_MAX);
  summary.observed = session.frames_observed();
  if (!summary.stopped && !session.game().finished()) take(session.Stop("the frames ended before the game did"));
  if (!summary.stopped && frames.can_read_again())
    take(session.SaveResumePoint(session.last_frame() + 1, static_cast<int64_t>(next)));  // removed when closed
  return summary;
}

engine::Result<engine::Record> ReadGameHeader(const std::string& path) {
  auto record = engine::ReadRecordFile(path);
  if (!record) return record;
  record->actions.clear();
  return record;
}

}  // namespace swref::core
