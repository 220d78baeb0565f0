#include "app/core/truth_players.h"

#include "app/core/demo_table.h"
#include "engine/observed.h"

namespace swref::core {

void TruthPlayers::OnNotice(const Notice& notice, const std::function<void(const Notice&)>& next) {
  if (next) next(notice);
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
      asked = asked || m.kind == NoticeKind::kQuestion;
    }
  }
}

}  // namespace swref::core
