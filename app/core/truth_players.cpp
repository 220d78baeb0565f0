#include "app/core/truth_players.h"

#include "engine/observed.h"

namespace swref::core {
namespace {

// What the players say when the referee asks: the true reading of every region the referee reads wrong, in one
// correction (empty when it reads every region right).
nlohmann::json Corrections(const engine::ObservedBoard& seen, const engine::ObservedBoard& real) {
  nlohmann::json list = nlohmann::json::array();
  for (int id = 0; id < real.size() && id < seen.size(); ++id) {
    const engine::ObservedRegion& r = real.regions[id];
    const engine::ObservedRegion& v = seen.regions[id];
    const bool same = v.race == r.race && v.decline == r.decline && v.tokens == r.tokens && v.lost_tribe == r.lost_tribe &&
                      v.mountain == r.mountain && v.troll_lair == r.troll_lair && v.fortress == r.fortress &&
                      v.encampments == r.encampments && v.hole == r.hole && v.hero == r.hero && v.dragon == r.dragon;
    if (same && v.tokens_certain) continue;
    nlohmann::json pieces = {
        {"mountain", r.mountain}, {"troll_lair", r.troll_lair}, {"fortress", r.fortress}, {"encampment", r.encampments}, {"hole", r.hole},
        {"hero", r.hero},         {"dragon", r.dragon}};
    list.push_back({{"region", id},
                    {"race", r.race ? nlohmann::json(engine::Info(*r.race).id) : nlohmann::json(nullptr)},
                    {"decline", r.decline},
                    {"tokens", r.tokens},
                    {"lost_tribe", r.lost_tribe},
                    {"pieces", pieces}});
  }
  return list;
}

}  // namespace

void TruthPlayers::OnNotice(const Notice& notice, const std::function<void(const Notice&)>& next) {
  if (next) next(notice);
  bool asked = notice.kind == NoticeKind::kQuestion;
  for (int round = 0; round < 3 && asked && session_.open_question() >= 0 && session_.last_seen(); ++round) {
    asked = false;
    const int64_t frame = session_.last_observed_frame();  // the players look at the board the referee read
    if (frame < 0 || frame >= static_cast<int64_t>(truth_.size())) break;
    const nlohmann::json list = Corrections(*session_.last_seen(), ToObserved(truth_[frame]));
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
