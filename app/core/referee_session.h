// The referee (pipeline steps 1-8, docs/referee.md): camera frames and what the players tell in, judged game
// actions, flags, questions and tallies out, every committed event in the game record before it is shown.
//
// Frames: every frame goes through the cheap stillness check (vision/still.h); when the scene has just become
// stable, the frame is observed (vision/observer.h; incrementally: only where the board changed since the last
// still scene, every twelfth in full). An observation that reads differently from the last
// one is explained against the committed game (engine/explain.h):
//   - legal actions are committed (journal.h: an `observation` digest, then each `action`);
//   - an illegal conquest is flagged (`flag`: the rule and the numbers) and stays open until the players take it
//     back (the board reads as before again, or they say so) or accept it as a house ruling (`resolution`);
//     nothing else is committed while a flag is open (a board that changes meanwhile is a `pending` reminder, and
//     is judged as it stands once the flag is taken back);
//   - a reading the rules cannot settle is a `question` that stays open until the players answer it (an option,
//     or a corrected reading) or the board settles it;
//   - an in-between state (tokens lifted to ready, a redeploy under way) waits.
// Events: a told action (pick, decline, ally, end_turn) is committed when the rules accept it, after the board's
// pending change is explained with the turn ending; end_turn tallies the turn's coins (`coins`). A die face waits
// for the conquest it reinforces.
//
// Frames come in order of their index: a frame whose index is not after the last one taken (a duplicate, or one
// that arrives out of order) is ignored with a notice; a gap (frames dropped) is no error.
//
// Failures: a record write that fails (disk full) stops the session: every later frame and event is refused
// with the reason until Retry() succeeds; nothing committed before is lost. Resume (`Start` with resume) reads
// and verifies the record; then either continues from its last entry with a fresh view of the table (a live
// camera), or (`rejudge`: a video or a folder, whose frames can be read again) restores the state of the last
// resume point (resume_point.h) and re-judges the frames after it, taking the entries they wrote before the crash
// from the record (docs/referee.md, "Crashes and resuming").
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/core/frame_source.h"
#include "app/core/hidden_arrangement.h"
#include "app/core/journal.h"
#include "app/core/referee_state.h"
#include "app/core/table_events.h"
#include "engine/explain.h"
#include "engine/record.h"
#include "vision/observer.h"
#include "vision/still.h"

namespace swref::core {

struct RefereeOptions {
  std::string setup;              // the setup folder (board, layout, tokens/model.json, camera.json)
  std::string record;             // the game record written as the game goes
  bool resume = false;            // continue `record` (verified first) instead of starting it
  bool rejudge = false;           // with resume: the frames and events are the game's own, from its first frame
                                  // (RunReferee restores the resume point and re-judges the frames after it)
  vision::StillOptions still;     // when a scene counts as stable
  bool ask_hidden_counts = true;  // a conquest onto a stack hiding its count: a question (engine/explain.h)
  bool incremental = true;        // a still scene is observed anew only where it changed since the last one
                                  // (vision::ObserverOptions::incremental); false: every one in full
  JournalOptions journal;         // limits, the file writer (tests inject failures), the clock
};

enum class NoticeKind {
  kCommitted,  // an action committed (a told one, or one the board showed)
  kFlag,       // an illegal conquest: text has the rule and the numbers
  kResolved,   // a flag taken back or accepted as a house ruling
  kQuestion,   // the players must settle a reading: text, data.options
  kAnswered,   // a question settled
  kPending,    // the board is between two states (tokens in hand): nothing to judge yet
  kCoins,      // a turn's tally: data {turn (its index: a turn amended is told again), player, round, coins {regions, race,
               // power, total}, after} (hidden from others)
  kRefused,    // a told action the rules refuse, or an event that does not fit now: text says why
  kVision,     // a frame not used as a board (motion, no board, a bad image, a duplicate or out of order): text says why
  kStopped,    // the record could not be written: the session accepts nothing until Retry()
  kEnded,      // the game is over: data {coins, winners}
};
const char* ToString(NoticeKind kind);

struct Notice {
  NoticeKind kind = NoticeKind::kCommitted;
  int64_t frame = -1;                // the frame it came from (-1: an event)
  std::string text;                  // for people
  int seq = -1;                      // the journal entry it wrote (-1: none)
  nlohmann::json data = nlohmann::json::object();
  double ms = 0;          // kCommitted/kFlag/kQuestion from a frame: from the frame to this verdict
  bool replayed = false;  // re-judged on resume: its entries were already in the record (shown before)
};

// Where a re-judging resume continues (RefereeSession::resume_at).
struct ResumeAt {
  int64_t next_frame = 0;       // the first frame to judge
  int64_t events = 0;           // events of the events file already told
  std::vector<int64_t> frames;  // frames to read again first and hand to Restore() (the resume point's state
                                // keeps their index, not their pixels)
  std::vector<int64_t> scene_frames;  // frames Restore() reads again one by one and observes (incremental observation:
                                      // those since the last observed in full, at most ObserverOptions::full_every)
};

class RefereeSession {
 public:
  // A new game (`header`: the record's header, its actions ignored) or, with options.resume, the record's own.
  static engine::Result<std::unique_ptr<RefereeSession>> Start(const RefereeOptions& options, const engine::Record& header);

  std::vector<Notice> OnFrame(const Frame& frame);
  std::vector<Notice> OnEvent(const TableEvent& event);
  // Closes an unfinished game in the record ("stopped" with a note).
  std::vector<Notice> Stop(const std::string& note);
  // After kStopped: tries to write the record again; "" when it worked.
  std::string Retry();

  // Re-judging resume (options.rejudge): where to continue; Restore() puts the resume point's state back, given
  // the frames resume_at().frames names and `read_again` for those of resume_at().scene_frames ("" or the error).
  // How the resume goes, for people: resume_note().
  const ResumeAt& resume_at() const { return resume_at_; }
  std::string Restore(const std::map<int64_t, cv::Mat>& frames, const std::function<cv::Mat(int64_t)>& read_again = nullptr);
  const std::string& resume_note() const { return resume_note_; }
  // After a frame and the events told after it: writes the resume point when something happened since the last
  // one (a frame observed, an entry, an event). A write that fails stops the session like the record's.
  std::vector<Notice> SaveResumePoint(int64_t next_frame, int64_t events);
  // The state a resume point keeps (referee_state.h).
  SessionState SaveState() const;

  const engine::Game& game() const { return journal_.game(); }
  const Journal& journal() const { return journal_; }
  const std::vector<std::string>& players() const { return journal_.players(); }
  int open_flag() const { return open_flag_; }                                // its journal seq, or -1
  int open_question() const { return open_question_; }                        // its journal seq, or -1
  const std::vector<int>& open_regions() const { return question_regions_; }  // the regions the open question names
  int flag_region() const { return flag_region_; }                            // the open flag's region, or -1
  std::vector<int> flag_regions() const;  // every region the open flag's attempt names (a SoloPlay erosion's, a redeploy's)
  const std::string& open_text() const { return open_text_; }                 // the open flag's or question's sentence
  const vision::Observation& last_observation() const { return last_observation_; }
  // The board as last judged: the last observation with the players' corrections.
  const std::optional<engine::ObservedBoard>& last_seen() const { return last_seen_; }
  const std::vector<vision::Instance>& last_instances() const { return observer_->last_instances(); }
  const vision::Observer& observer() const { return *observer_; }
  vision::StillWindow::State still_state() const { return still_state_; }
  int64_t last_frame() const { return last_frame_; }               // the last frame taken (-1: none)
  int64_t last_observed_frame() const { return observed_frame_; }  // the last frame observed (-1: none)
  int64_t frames_seen() const { return frames_seen_; }
  int64_t frames_observed() const { return frames_observed_; }

 private:
  RefereeSession(RefereeOptions options, Journal journal, std::unique_ptr<vision::Observer> observer);
  // The board as observed, judged; `frame`: where it came from (-1: re-judged for an event).
  void Judge(const engine::ObservedBoard& seen, int64_t frame, const std::string& image, bool turn_ending, std::vector<Notice>* out);
  // SoloPlay, another die told while `die` (of `player`) is unused: the last board judged with it as the die of a
  // failed attempt (die_final), the die told kept aside.
  void JudgeFinalDie(int die, int player, std::vector<Notice>* out);
  void CommitReading(const engine::Reading& reading, size_t count, int64_t frame, std::vector<Notice>* out);
  bool CommitAction(const engine::Action& action, int64_t frame, std::vector<Notice>* out);
  void CommitObservation(const engine::ObservedBoard& seen, int64_t frame, const std::string& image, std::vector<Notice>* out);
  bool Written(const std::string& error, std::vector<Notice>* out);  // false (and kStopped) when a write failed
  void Take(const Frame& frame, std::vector<Notice>* out);           // OnFrame's work
  std::vector<Notice> Tell(const TableEvent& event);                 // OnEvent's work
  void WritePoint(int64_t next_frame, int64_t events, std::vector<Notice>* out);
  const std::string& Failure() const;  // the record's or the resume point's failed write ("": none)
  void MarkReplayed(bool replaying_at_start, std::vector<Notice>* out) const;
  void TellCoins(std::vector<Notice>* out);
  void ApplyDeferred(std::vector<Notice>* out);  // a told action that waited for the board to be settled
  // After the players' correction: a count arrangement the camera could not see, amended where it was made
  // (hidden_arrangement.h). False when a write failed.
  bool AmendHiddenArrangement(std::vector<Notice>* out);
  // After the players' correction: a count the camera misread earlier, amended where it was committed (the
  // correction's regions, hidden_arrangement.h: FindMiscount). False when a write failed.
  bool AmendMiscount(const std::vector<int>& confirmed, std::vector<Notice>* out);
  // Writes `amendment` (the journal's reason `why`) and tells it (`text`, then how many actions it took out).
  bool CommitAmendment(const Amendment& amendment, const std::string& why, const std::string& text, std::vector<Notice>* out);
  engine::ExplainContext Context(bool turn_ending) const;
  bool Flaggable(engine::ActionType type) const;  // an action the rules refuse that is flagged, not asked about

  RefereeOptions options_;
  Journal journal_;
  std::unique_ptr<vision::Observer> observer_;
  vision::StillWindow still_;
  vision::StillWindow::State still_state_ = vision::StillWindow::State::kMoving;
  vision::Observation last_observation_;
  engine::ObservedBoard last_raw_;                  // the last observation as read (before corrections)
  std::string last_sha_;                            // ... its digest for the record (ObservationSha256, no timing)
  std::optional<engine::ObservedBoard> last_seen_;  // the last board observed (judged or not)
  engine::ObservedBoard committed_seen_;            // what the board looked like at the last commit
  std::map<int, RegionCorrection> corrections_;     // by region; dropped when the camera reads it differently

  int die_ = -1;                                      // a die face told and not yet used ...
  int die_player_ = -1;                               // ... by this player, for a conquest of that player's turn
  // The told die is `player`'s (one of an older resume point, without its player, is whoever plays).
  bool DieIsFor(int player) const { return die_player_ < 0 || die_player_ == player; }
  bool die_final_ = false;                            // SoloPlay: another die is told; the unused one is read now
  int question_die_ = -1, question_die_player_ = -1;  // ... and the open question that reading raised rolls it
  int open_flag_ = -1, open_question_ = -1;
  int flag_region_ = -1;                              // the open flag's region
  std::deque<TableEvent> deferred_;                   // told actions waiting for an open question to be settled
  std::string open_text_;
  std::vector<engine::Reading> question_options_;
  std::vector<int> question_regions_;  // the regions the open question names
  int64_t observed_frame_ = -1;        // the frame last observed, and its name
  std::string observed_image_;
  std::chrono::steady_clock::time_point frame_time_;
  int64_t frames_seen_ = 0, frames_observed_ = 0;
  size_t coins_told_ = 0;        // game().scores() already told
  int64_t last_frame_ = -1;      // the last frame taken
  int64_t still_frame_ = -1;     // the frame the still window compares the next one with
  int64_t pose_frame_ = -1;      // the frame the observer's held pose was found in
  std::vector<int64_t> scene_frames_;  // incremental observation: the frames observed since (and with) the last one in full

  // Resuming and resume points.
  ResumeAt resume_at_;
  std::optional<SessionState> resume_state_;  // the resume point's session state, until Restore()
  std::string resume_note_;
  std::string point_failure_;  // the resume point could not be written
  int saved_entries_ = -1;     // journal size, frames observed and events at the last point
  int64_t saved_observed_ = -1, saved_events_ = -1, saved_next_frame_ = 0;
};

// A vision observation as the engine takes it.
engine::ObservedBoard ToObserved(const vision::Observation& observation);

// The regions an action names, in order, each once: a conquest's, its attackers', its hero's and the regions the
// opposition retreats into; a redeploy's; an erosion's (a flag notice's "regions"; what the players are asked to look at).
std::vector<int> RegionsNamed(const engine::Action& a);

}  // namespace swref::core
