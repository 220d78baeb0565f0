#include "app/core/truth_players.h"

#include "app/core/demo_table.h"
#include "engine/observed.h"

namespace swref::core {

void TruthPlayers::Remember(const Notice& notice) {
  // The attempt flagged, as the referee read it (the players' corrections included).
  const int region = session_.flag_region();
  if (notice.kind == NoticeKind::kFlag && session_.last_seen() && region >= 0 && region < session_.last_seen()->size())
    flagged_ = session_.last_seen()->regions[region];
}

void TruthPlayers::OnNotice(const Notice& notice, const std::function<void(const Notice&)>& next) {
  if (next) next(notice);
  Remember(notice);
  // Told that their action waits for a flagged conquest, they look at the board the referee last read: the
  // attempt no longer there (taken back, and perhaps made again legally, while the camera did not read the region
  // back exactly or missed the moment), they say so, as players press "taken back" on the alert.
  if (notice.kind == NoticeKind::kPending && session_.open_flag() >= 0) {
    const int64_t frame = session_.last_observed_frame();
    const int region = session_.flag_region();
    if (frame >= 0 && frame < static_cast<int64_t>(truth_.size()) && region >= 0 && region < static_cast<int>(session_.game().board().size())) {
      const engine::ObservedBoard real = ToObserved(truth_[frame]);
      const engine::ObservedRegion* now = region < real.size() ? &real.regions[region] : nullptr;
      const bool gone = now && flagged_ && (now->race != flagged_->race || now->decline != flagged_->decline || now->tokens != flagged_->tokens);
      if (now && (gone || engine::ReadsAs(session_.game().board()[region], *now))) {
        TableEvent e;
        e.after_frame = frame;
        e.type = EventType::kTakeBack;
        e.body = {{"do", "take_back"}};
        ++taken_back_;
        for (const Notice& m : session_.OnEvent(e)) OnNotice(m, next);
      }
    }
    return;
  }
  bool asked = notice.kind == NoticeKind::kQuestion;
  for (int round = 0; round < 3 && asked && session_.open_question() >= 0 && session_.last_seen(); ++round) {
    asked = false;
    const int64_t frame = session_.last_observed_frame();  // the players look at the board the referee read
    if (frame < 0 || frame >= static_cast<int64_t>(truth_.size())) break;
    const nlohmann::json list = TruthCorrections(*session_.last_seen(), ToObserved(truth_[frame]));
    if (list.empty()) break;
    TableEvent e;
    e.after_frame = frame;
    e.type = EventType::kCorrect;
    e.body = {{"do", "correct"}, {"regions", list}};
    e.corrections.assign(list.begin(), list.end());
    corrected_ += static_cast<int>(list.size());
    ++questions_;
    for (const Notice& m : session_.OnEvent(e)) {
      if (next) next(m);
      Remember(m);
      asked = asked || m.kind == NoticeKind::kQuestion;
    }
  }
}

}  // namespace swref::core
