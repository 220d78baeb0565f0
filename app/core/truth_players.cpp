#include "app/core/truth_players.h"

#include "app/core/demo_table.h"
#include "engine/observed.h"

namespace swref::core {

void TruthPlayers::Remember(const Notice& notice) {
  // The attempt flagged, as the referee read it (the players' corrections included).
  const int region = session_.flag_region();
  if (notice.kind == NoticeKind::kFlag && session_.last_seen() && region >= 0 && region < session_.last_seen()->size())
    flagged_ = session_.last_seen()->regions[region];
  if (notice.kind == NoticeKind::kFlag && session_.last_seen()) flagged_board_ = *session_.last_seen();
  // And as it truly was then: whether the dragon was there is read from the truth (the camera may miss it).
  const int64_t frame = session_.last_observed_frame();
  if (notice.kind == NoticeKind::kFlag) {
    flagged_truth_.reset();
    if (region >= 0 && frame >= 0 && frame < static_cast<int64_t>(truth_.size())) {
      const engine::ObservedBoard real = ToObserved(truth_[frame]);
      if (region < real.size()) flagged_truth_ = real.regions[region];
    }
  }
}

namespace {

bool SameReading(const engine::ObservedRegion& a, const engine::ObservedRegion& b) {
  return a.race == b.race && a.decline == b.decline && a.tokens == b.tokens;
}

}  // namespace

void TruthPlayers::OnNotice(const Notice& notice, const std::function<void(const Notice&)>& next) {
  if (next) next(notice);
  Remember(notice);
  // Told that their action waits for a flagged conquest, they look at the board the referee last read: the
  // attempt no longer there (taken back, and perhaps made again legally, while the camera did not read the region
  // back exactly or missed the moment), they say so, as players press "taken back" on the alert.
  if (notice.kind == NoticeKind::kPending && session_.open_flag() >= 0) {
    const int64_t frame = session_.last_observed_frame();
    const int region = session_.flag_region();
    const engine::Board& committed = session_.game().board();
    if (frame >= 0 && frame < static_cast<int64_t>(truth_.size()) && region < static_cast<int>(committed.size())) {
      const engine::ObservedBoard real = ToObserved(truth_[frame]);
      bool back = false;
      if (region >= 0) {  // a conquest: its region
        const engine::ObservedRegion* now = region < real.size() ? &real.regions[region] : nullptr;
        // (The dragon too, as the truth had it when flagged: its attack taken back and the region conquered again
        // without it.)
        const bool dragon_gone = flagged_truth_ && flagged_truth_->dragon > 0 && now && now->dragon == 0;
        const bool gone = now && flagged_ && (!SameReading(*now, *flagged_) || dragon_gone);
        back = now && (gone || engine::ReadsAs(committed[region], *now));
      } else if (flagged_board_ && flagged_board_->size() == real.size() && real.size() == static_cast<int>(committed.size())) {
        // a SoloPlay redeployment or erosion: the regions it changed no longer show it (or the board is as before)
        bool all_back = true, changed_again = false;
        for (int r = 0; r < real.size(); ++r) {
          all_back = all_back && engine::ReadsAs(committed[r], real.regions[r]);
          const bool touched = !engine::ReadsAs(committed[r], flagged_board_->regions[r]);
          changed_again = changed_again || (touched && !SameReading(real.regions[r], flagged_board_->regions[r]));
        }
        back = all_back || changed_again;
      }
      if (back) {
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
  // Flagged: they look at the region first; a flag raised on a misreading is answered with the correction.
  bool asked = notice.kind == NoticeKind::kQuestion || notice.kind == NoticeKind::kFlag;
  for (int round = 0; round < 3 && asked && (session_.open_question() >= 0 || session_.open_flag() >= 0) && session_.last_seen(); ++round) {
    asked = false;
    const int64_t frame = session_.last_observed_frame();  // the players look at the board the referee read
    if (frame < 0 || frame >= static_cast<int64_t>(truth_.size())) break;
    // They confirm what the referee asks about: the question's regions, the regions the flagged attempt names (a
    // conquest's region and its attackers', an erosion's, a redeploy's).
    std::vector<int> confirm = session_.open_regions();
    for (int r : session_.flag_regions()) confirm.push_back(r);
    const engine::ObservedBoard real = ToObserved(truth_[frame]);
    int wrong = 0;
    const nlohmann::json list = TruthCorrections(*session_.last_seen(), real, confirm, &wrong);
    if (list.empty()) break;
    TableEvent e;
    e.after_frame = frame;
    e.type = EventType::kCorrect;
    e.body = {{"do", "correct"}, {"regions", list}};
    e.corrections.assign(list.begin(), list.end());
    corrected_ += wrong;
    if (wrong > 0 || session_.open_question() >= 0) ++questions_;
    for (const Notice& m : session_.OnEvent(e)) {
      if (next) next(m);
      Remember(m);
      asked = asked || m.kind == NoticeKind::kQuestion || m.kind == NoticeKind::kFlag;
    }
  }
}

}  // namespace swref::core
