// The players' events told to a refereed game (referee_session.h: OnEvent): actions, the die, flags taken back or
// accepted, answers, corrections, undo; and the actions that wait for an open question or flag.
#include <algorithm>
#include <deque>

#include "app/core/hidden_arrangement.h"
#include "app/core/referee_session.h"
#include "engine/observed.h"

namespace swref::core {
namespace {

// Whether `seen`, the flagged region read after the players said the conquest was taken back, may still be the
// attempt misread: anything but the attacker's active race holding more tokens than the attempt placed. That is
// the conquest made again, legally, before the camera saw the attempt leave (docs/referee.md, "Events").
bool MayStillShowAttempt(const engine::Game& game, const engine::Action* attempt, const engine::ObservedRegion& seen) {
  if (!attempt || attempt->type != engine::ActionType::kConquer || attempt->tokens < 0) return true;
  const int race = game.players()[attempt->player].active;
  return !(seen.race && static_cast<int>(*seen.race) == race && !seen.decline && seen.tokens > attempt->tokens);
}

}  // namespace

std::vector<Notice> RefereeSession::OnEvent(const TableEvent& event) {
  const bool replaying = journal_.replaying();
  std::vector<Notice> out = Tell(event);
  MarkReplayed(replaying, &out);
  return out;
}

std::vector<Notice> RefereeSession::Tell(const TableEvent& event) {
  std::vector<Notice> out;
  if (!Failure().empty()) return Written(Failure(), &out), out;
  auto refuse = [&](const std::string& why) {
    // Names the event refused: "Ann's end_turn (after frame 30) refused: ..."
    const std::string who = event.player.empty() ? "" : event.player + "'s ";
    const std::string when = event.after_frame >= 0 ? " (after frame " + std::to_string(event.after_frame) + ")" : "";
    out.push_back({NoticeKind::kRefused, -1, who + event.body.value("do", "event") + when + " refused: " + why});
  };
  auto record_event = [&] {
    auto r = journal_.AppendEvent(event.body);
    return r ? true : Written(r.error(), &out);
  };
  switch (event.type) {
    case EventType::kAction: {
      // An open flag: the action waits until the players take the conquest back or accept it (refused, the
      // players' end of turn would be lost, and every tally after it with it).
      if (open_flag_ >= 0 || !deferred_.empty()) {  // told after one that waits: it waits too, in order
        deferred_.push_back(event);
        out.push_back({NoticeKind::kPending, -1, event.player + "'s " + event.body.value("do", "") +
                         (open_flag_ >= 0 ? " waits until the flagged conquest is taken back or accepted: " : " waits until the board is settled: ") +
                         open_text_});
        return out;
      }
      auto action = engine::ParseAction(event.body, players(), "event", game().solo() != nullptr);
      if (!action) return refuse(action.error()), out;
      // The board's change not yet judged (a redeploy in progress) is read now, the turn ending.
      if (action->type == engine::ActionType::kEndTurn && last_seen_) Judge(*last_seen_, -1, "", true, &out);
      if (open_flag_ >= 0 || open_question_ >= 0) {
        // Told once: it is applied as soon as the board is settled.
        deferred_.push_back(event);
        out.push_back({NoticeKind::kPending, -1, event.player + "'s " + event.body.value("do", "") +
                         (open_flag_ >= 0 ? " waits until the flagged conquest is taken back or accepted: " : " waits until the board is settled: ") +
                         open_text_});
        return out;
      }
      if (!record_event()) return out;
      const engine::Code code = game().Check(*action);
      if (code != engine::Code::kOk) {
        engine::Game copy = game();
        return refuse(copy.Apply(*action).why), out;
      }
      CommitAction(*action, -1, &out);
      return out;
    }
    case EventType::kDie: {
      const auto& names = players();
      const auto who = std::find(names.begin(), names.end(), event.player);
      if (who == names.end()) return refuse("no player of this game is called \"" + event.player + "\""), out;
      if (!deferred_.empty()) {
        // Told after actions that wait (an end of turn waiting for a flag): the die waits too, in order. Else a later
        // player's roll would take the place of the one the waiting turn's last conquest used.
        deferred_.push_back(event);
        out.push_back({NoticeKind::kPending, -1, event.player + "'s die waits with the actions told before it: " + open_text_});
        return out;
      }
      if (!record_event()) return out;
      const int unused = die_, unused_player = die_player_;
      die_ = event.face;
      die_player_ = static_cast<int>(who - names.begin());
      if (unused >= 0 && last_seen_ && game().solo()) JudgeFinalDie(unused, unused_player, &out);  // its failed attack, read now
      return out;
    }
    case EventType::kAccept:
    case EventType::kTakeBack: {
      if (open_flag_ < 0) return refuse("there is no flagged conquest to " + std::string(event.type == EventType::kAccept ? "accept" : "take back")), out;
      const bool house = event.type == EventType::kAccept;
      auto r = journal_.AppendResolution(open_flag_, house, house ? (event.note.empty() ? "accepted as a house ruling" : event.note) : "taken back");
      if (!r && journal_.failure().empty()) return refuse(r.error()), out;  // it cannot stand as a house ruling: still open
      if (!r) return Written(r.error(), &out), out;
      if (!house && last_seen_ && flag_region_ >= 0 && flag_region_ < last_seen_->size() && flag_region_ < static_cast<int>(game().board().size()) &&
          MayStillShowAttempt(game(), journal_.FlagAttempt(open_flag_), last_seen_->regions[flag_region_])) {
        // Taken back, as the players say: until the camera reads the region anew, it reads as the game has it (else
        // the next judgement of the last board, at an end of turn, would flag the same attempt again). A region
        // already showing the conquest made again with more tokens is left as seen: it is judged as it is.
        const engine::ObservedRegion committed = engine::ObserveRegion(game().board()[flag_region_]);
        const engine::ObservedBoard raw = ToObserved(last_observation_);
        if (flag_region_ < raw.size()) corrections_[flag_region_] = {raw.regions[flag_region_], committed};
        last_seen_->regions[flag_region_] = committed;
      }
      out.push_back({NoticeKind::kResolved, -1, house ? "the flagged conquest stands as a house ruling" : "the flagged conquest is taken back", r->seq});
      open_flag_ = -1, flag_region_ = -1, open_text_.clear();
      if (house && last_seen_) committed_seen_ = *last_seen_;
      TellCoins(&out);
      // Taken back while the board moved on (the next conquest already made): what it shows now is judged at once,
      // as the camera will not read it as a change again. Waiting actions read it themselves.
      if (!house && deferred_.empty() && last_seen_) Judge(*last_seen_, -1, "", false, &out);
      ApplyDeferred(&out);
      return out;
    }
    case EventType::kAnswer: {
      if (open_question_ < 0) return refuse("there is no open question to answer"), out;
      if (event.option >= static_cast<int>(question_options_.size())) {
        return refuse("the question has " + std::to_string(question_options_.size()) + " options; answer with a correction of the reading instead"), out;
      }
      auto a = journal_.AppendAnswer(open_question_, {{"option", event.option}}, false);
      if (!a) return Written(a.error(), &out), out;
      out.push_back({NoticeKind::kAnswered, -1, "option " + std::to_string(event.option) + " chosen", *a});
      const engine::Reading chosen = question_options_[event.option];
      open_question_ = -1, open_text_.clear(), question_options_.clear(), question_regions_.clear();
      if (last_seen_) CommitObservation(*last_seen_, -1, "", &out);
      const int told = die_, told_player = die_player_;
      CommitReading(chosen, chosen.actions.size(), -1, &out);
      if (question_die_ >= 0)  // the reading rolled the die of before the last one told, which stays
        die_ = told, die_player_ = told_player, question_die_ = -1, question_die_player_ = -1;
      ApplyDeferred(&out);
      return out;
    }
    case EventType::kCorrect: {
      if (!last_seen_) return refuse("nothing has been observed yet to correct"), out;
      engine::ObservedBoard corrected = *last_seen_;
      std::string regions;
      for (const nlohmann::json& c : event.corrections) {
        const int region = c["region"].get<int>();
        if (region >= corrected.size()) return refuse("region " + std::to_string(region) + " is not on this map"), out;
        nlohmann::json fields = c;
        fields.erase("region");
        auto r = engine::CorrectRegion(corrected.regions[region], fields, "region " + std::to_string(region));
        if (!r) return refuse("correction refused: " + r.error()), out;
        corrected.regions[region] = *r;
        if (region < last_raw_.size()) corrections_[region] = {last_raw_.regions[region], *r};
        regions += (regions.empty() ? "" : ", ") + std::to_string(region);
      }
      last_seen_ = corrected;
      const int question_die = open_question_ >= 0 ? question_die_ : -1, question_die_player = question_die_player_;
      question_die_ = -1, question_die_player_ = -1;
      if (open_question_ >= 0) {
        auto a = journal_.AppendAnswer(open_question_, {{"correct", event.body}}, true);
        if (!a) return Written(a.error(), &out), out;
        out.push_back({NoticeKind::kAnswered, -1,
                       "the reading of region" + std::string(event.corrections.size() > 1 ? "s " : " ") + regions + " corrected", *a});
        open_question_ = -1, open_text_.clear(), question_options_.clear(), question_regions_.clear();
      } else if (!record_event()) {
        return out;
      }
      // Counts the camera got wrong earlier, amended where they were made (with a flag open too: the flag may rest on
      // one, and is then withdrawn below).
      std::vector<int> named;
      for (const nlohmann::json& c : event.corrections) named.push_back(c["region"].get<int>());
      if (!AmendHiddenArrangement(&out) || !AmendMiscount(named, &out)) return out;
      const engine::ExplainKind corrected_kind =
          open_flag_ >= 0 ? engine::Explain(game(), *last_seen_, Context(false)).kind : engine::ExplainKind::kIllegal;
      if (corrected_kind == engine::ExplainKind::kExplained || corrected_kind == engine::ExplainKind::kPending) {
        // The flag was raised on a misreading: read right, the board is what legal actions leave (or are leaving: a
        // failed attack's tokens not yet back, tokens lifted for the next attack). The attempt as
        // read does not stand (it is resolved as not made) and the corrected board is judged anew below. (Read right
        // as before the attempt, it was taken back: Judge resolves it so.)
        auto r = journal_.AppendResolution(open_flag_, false, "withdrawn: the players corrected the reading");
        if (!r) return Written(r.error(), &out), out;
        // A die the misread attempt took is given back (unless another was told since): the attempt read right
        // may be the one that rolled it.
        if (const engine::Action* attempt = journal_.FlagAttempt(open_flag_); attempt && attempt->die >= 0 && die_ < 0)
          die_ = attempt->die, die_player_ = attempt->player;
        Notice n{NoticeKind::kResolved, -1, "the flag is withdrawn: read right, the board breaks no rule", r->seq};
        n.data = {{"withdrawn", true}};
        out.push_back(n);
        open_flag_ = -1, flag_region_ = -1, open_text_.clear();
      }
      if (question_die >= 0) {
        JudgeFinalDie(question_die, question_die_player, &out);  // the question's die, read with the board corrected
      } else {
        Judge(*last_seen_, -1, "", false, &out);
      }
      ApplyDeferred(&out);
      return out;
    }
    case EventType::kUndo: {
      auto u = journal_.AppendUndo(event.note);
      if (!u) return refuse(u.error()), out;
      out.push_back({NoticeKind::kCommitted, -1, "the last action was taken out: " + event.note, u->seq});
      coins_told_ = std::min(coins_told_, game().scores().size());  // an end of turn taken out is told again when made
      committed_seen_ = engine::ObserveBoard(game().board());
      last_seen_.reset();
      corrections_.clear();
      return out;
    }
  }
  return out;
}

bool RefereeSession::AmendHiddenArrangement(std::vector<Notice>* out) {
  if (!last_seen_ || game().solo()) return true;
  // Only a board the rules cannot settle as it is (a question, or a flag the arrangement raises), and that the
  // amended game reads without a question or a flag.
  const std::optional<Amendment> amendment = FindHiddenArrangement(journal_.timeline(), *last_seen_);
  const engine::ExplainKind now = amendment ? engine::Explain(game(), *last_seen_, Context(false)).kind : engine::ExplainKind::kNoChange;
  if (now != engine::ExplainKind::kQuestion && now != engine::ExplainKind::kIllegal) return true;
  const engine::ExplainKind amended = engine::Explain(*amendment->after, *last_seen_, Context(false)).kind;
  if (amended == engine::ExplainKind::kQuestion || amended == engine::ExplainKind::kIllegal) return true;
  return CommitAmendment(*amendment, "amended: " + amendment->text + ", an arrangement the camera could not see (the players' correction)",
                         "the camera could not see " + amendment->text, out);
}

bool RefereeSession::AmendMiscount(const std::vector<int>& confirmed, std::vector<Notice>* out) {
  if (!last_seen_ || game().solo()) return true;
  // Only a board the rules cannot settle as it is (a question, or a flag the miscount raises), and that the amended
  // game reads without a question (a flag it raises then has the right numbers; with a flag open, without a flag).
  const std::optional<Amendment> amendment = FindMiscount(journal_.timeline(), *last_seen_, confirmed);
  const engine::ExplainKind now = amendment ? engine::Explain(game(), *last_seen_, Context(false)).kind : engine::ExplainKind::kNoChange;
  if (now != engine::ExplainKind::kQuestion && now != engine::ExplainKind::kIllegal) return true;
  const engine::ExplainKind amended = engine::Explain(*amendment->after, *last_seen_, Context(false)).kind;
  // With a flag open, only an amendment under which the board breaks no rule (the flag is then withdrawn).
  if (amended == engine::ExplainKind::kQuestion || (open_flag_ >= 0 && amended != engine::ExplainKind::kExplained)) return true;
  return CommitAmendment(*amendment, "amended: " + amendment->text + ", a count the camera misread (the players' correction)",
                         "the camera misread " + amendment->text, out);
}

bool RefereeSession::CommitAmendment(const Amendment& amendment, const std::string& why, const std::string& text,
                                     std::vector<Notice>* out) {
  // The actions are taken out, then made again amended, in one write (a failed one changes nothing).
  auto seq = journal_.AppendAmendment(amendment.undo, amendment.redo, why);
  if (!seq) return Written(seq.error(), out);
  // The turns it ended again are told again (the coins notice's `turn` says which).
  const auto ends = static_cast<size_t>(std::count_if(amendment.redo.begin(), amendment.redo.end(),
                                                      [](const engine::Action& a) { return a.type == engine::ActionType::kEndTurn; }));
  coins_told_ = std::min(coins_told_, game().scores().size() - std::min(game().scores().size(), ends));
  committed_seen_ = engine::ObserveBoard(game().board());
  Notice n{
      NoticeKind::kCommitted, -1,
      text + "; " + std::to_string(amendment.undo) + (amendment.undo == 1 ? " action" : " actions") + " taken out and made again with it",
      *seq};
  n.data = {
      {"amended",
       {{"player", players()[amendment.owner]}, {"round", amendment.round}, {"regions", amendment.regions}, {"undone", amendment.undo}}}};
  out->push_back(n);
  TellCoins(out);
  return true;
}

void RefereeSession::ApplyDeferred(std::vector<Notice>* out) {
  while (!deferred_.empty() && open_flag_ < 0 && open_question_ < 0 && Failure().empty()) {
    // The first waiting event is told with the queue set aside (told with others still waiting, it would only
    // join the end of the queue again, forever); whatever it leaves waiting goes before the rest.
    std::deque<TableEvent> rest;
    rest.swap(deferred_);
    const TableEvent event = rest.front();
    rest.pop_front();
    for (Notice& n : Tell(event)) out->push_back(std::move(n));
    deferred_.insert(deferred_.end(), rest.begin(), rest.end());
  }
}

}  // namespace swref::core
