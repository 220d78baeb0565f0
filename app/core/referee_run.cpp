#include "app/core/referee_run.h"

#include <algorithm>

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
  auto tell_up_to = [&](int64_t frame) {
    for (; next < events.size() && events[next].after_frame <= frame && !summary.stopped; ++next) take(session.OnEvent(events[next]));
  };
  tell_up_to(-1);
  Frame frame;
  const int64_t total = frames.count();
  while (!summary.stopped && frames.Next(&frame)) {
    take(session.OnFrame(frame));
    ++summary.frames;
    tell_up_to(frame.index);
    if (progress) progress(summary.frames, total);
  }
  tell_up_to(INT64_MAX);
  summary.observed = session.frames_observed();
  if (!summary.stopped && !session.game().finished()) take(session.Stop("the frames ended before the game did"));
  return summary;
}

engine::Result<engine::Record> ReadGameHeader(const std::string& path) {
  auto record = engine::ReadRecordFile(path);
  if (!record) return record;
  record->actions.clear();
  return record;
}

}  // namespace swref::core
