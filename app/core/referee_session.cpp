// A refereed game (referee_session.h): started or resumed, its resume point, the frames taken and observed, stopped.
// A still board is judged in referee_judge.cpp, the players' events are told in referee_events.cpp.
#include "app/core/referee_session.h"

#include <algorithm>
#include <filesystem>

#include "app/core/resume_point.h"
#include "engine/map.h"

namespace swref::core {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

std::vector<int> Changed(const engine::ObservedBoard& a, const engine::ObservedBoard& b) {
  std::vector<int> out;
  for (int r = 0; r < a.size() && r < b.size(); ++r)
    if (!(a.regions[r] == b.regions[r])) out.push_back(r);
  return out;
}

// What a resume point's state must fit: the map, the players, the journal it resumes.
StateContext FitFor(const Journal& journal, int regions) {
  StateContext c;
  c.regions = regions;
  c.players = journal.players();
  c.solo = journal.game().solo() != nullptr;
  for (int k = 0; k < journal.size(); ++k) c.kinds.push_back(journal.kind(k));
  c.scores = journal.game().scores().size();
  return c;
}

// Resuming by re-judging: the journal as it stood at the last resume point, with that point's state; without a
// usable point (none yet, unreadable, not fitting the record), the journal at its start entry and no state.
struct Reopened {
  Journal journal;
  std::optional<ResumePoint> point;
  std::optional<SessionState> state;
  std::string note;
};

engine::Result<Reopened> ReopenToRejudge(const RefereeOptions& options, int regions, int recorded) {
  using R = engine::Result<Reopened>;
  const fs::path file = ResumePointPath(options.record);
  engine::RemoveStaleTemporaries(file);  // a write of the point cut short (the record's own are removed by the journal)
  const std::string entries = "; the record has " + std::to_string(recorded) + " entries";
  auto read = fs::exists(file) ? ReadResumePoint(file)
                               : engine::Result<ResumePoint>::Error(file.string() + ": none (a crash before the first was written)");
  std::string why = read ? "" : read.error();
  if (read) {
    auto at_point = Journal::OpenToRejudge(options.record, read->entries, read->hash, options.journal);
    auto state = at_point ? ParseSessionState(read->session, FitFor(*at_point, regions), file.filename().string() + ".session")
                          : engine::Result<SessionState>::Error(at_point.error());
    if (state) {
      const std::string note = "resuming from frame " + std::to_string(read->next_frame) + " (the resume point after journal entry " +
                               std::to_string(read->entries - 1) + ")" + entries;
      return Reopened{std::move(*at_point), std::move(*read), std::move(*state), note};
    }
    why = state.error();
  }
  auto from_start = Journal::OpenToRejudge(options.record, 1, "", options.journal);
  if (!from_start) return R::Error(from_start.error());
  return Reopened{std::move(*from_start), std::nullopt, std::nullopt,
                  "re-judging every frame from the first (no usable resume point: " + why + ")" + entries};
}

}  // namespace

const char* ToString(NoticeKind kind) {
  switch (kind) {
    case NoticeKind::kCommitted: return "committed";
    case NoticeKind::kFlag: return "flag";
    case NoticeKind::kResolved: return "resolved";
    case NoticeKind::kQuestion: return "question";
    case NoticeKind::kAnswered: return "answered";
    case NoticeKind::kPending: return "pending";
    case NoticeKind::kCoins: return "coins";
    case NoticeKind::kRefused: return "refused";
    case NoticeKind::kVision: return "vision";
    case NoticeKind::kStopped: return "stopped";
    case NoticeKind::kEnded: return "ended";
  }
  return "?";
}

engine::ObservedBoard ToObserved(const vision::Observation& observation) {
  engine::ObservedBoard board;
  for (const vision::RegionObservation& r : observation.regions) {
    engine::ObservedRegion o;
    if (r.race && r.tokens > 0) o.race = engine::RaceFromId(*r.race);
    o.decline = r.decline;
    o.tokens = o.race ? r.tokens : 0;
    o.tokens_certain = r.tokens_certain;
    auto piece = [&](const char* id) {
      auto it = r.pieces.find(id);
      return it == r.pieces.end() ? 0 : it->second;
    };
    o.mountain = piece("mountain"), o.troll_lair = piece("troll_lair"), o.fortress = piece("fortress");
    o.encampments = piece("encampment"), o.hole = piece("hole"), o.hero = piece("hero"), o.dragon = piece("dragon");
    o.lost_tribe = r.lost_tribe;
    o.uncertain = r.confidence < engine::kLowConfidence;
    if (r.id >= static_cast<int>(board.regions.size())) board.regions.resize(r.id + 1);
    board.regions[r.id] = o;
  }
  return board;
}

engine::Result<std::unique_ptr<RefereeSession>> RefereeSession::Start(const RefereeOptions& options, const engine::Record& header) {
  using R = engine::Result<std::unique_ptr<RefereeSession>>;
  vision::ObserverOptions observer_options;
  observer_options.incremental = options.incremental;
  auto observer = vision::Observer::Load(options.setup, observer_options);
  if (!observer) return R::Error(observer.error());
  std::optional<Journal> journal;
  std::optional<ResumePoint> point;
  std::optional<SessionState> restored;
  std::string note;
  if (options.resume) {
    auto opened = Journal::Open(options.record, options.journal);
    if (!opened) return R::Error(opened.error());
    if (opened->closed()) {
      std::error_code ec;
      fs::remove(ResumePointPath(options.record), ec);  // left when the crash came after the end entry
      note = options.record + ": the game is closed (its end entry is written); there is nothing to resume";
    } else if (options.rejudge) {
      auto reopened = ReopenToRejudge(options, observer->map().size(), opened->size());
      if (!reopened) return R::Error(reopened.error());
      opened = std::move(reopened->journal);
      point = std::move(reopened->point);
      restored = std::move(reopened->state);
      note = reopened->note;
    } else {
      std::error_code ec;
      fs::remove(ResumePointPath(options.record), ec);  // a point of frames that cannot be read again: never used
      note = "continuing after journal entry " + std::to_string(opened->size() - 1) + " with a fresh view of the table";
    }
    journal.emplace(std::move(*opened));
  } else {
    std::error_code ec;
    if (fs::exists(options.record, ec)) {
      return R::Error(options.record + ": already exists; give a new file, or --resume to continue that game");
    }
    engine::Record h = header;
    h.actions.clear();
    nlohmann::json start = {{"by", "swref referee"}, {"setup", fs::absolute(options.setup).string()}};
    auto created = Journal::Create(options.record, h, start, options.journal);
    if (!created) return R::Error(created.error());
    journal.emplace(std::move(*created));
  }
  if (observer->map().key != journal->game().map().key || observer->map().size() != journal->game().map().size()) {
    return R::Error(options.setup + ": set up for map " + observer->map().key + ", but the game is played on map " +
                    journal->game().map().key);
  }
  std::unique_ptr<RefereeSession> s(
      new RefereeSession(options, std::move(*journal), std::make_unique<vision::Observer>(std::move(*observer))));
  s->resume_note_ = note;
  if (point) {
    s->resume_at_.next_frame = point->next_frame;
    s->resume_at_.events = point->events;
    for (int64_t f : {restored->still_frame, restored->pose_frame})
      if (f >= 0 && f < point->next_frame) s->resume_at_.frames.push_back(f);
    std::sort(s->resume_at_.frames.begin(), s->resume_at_.frames.end());
    s->resume_at_.frames.erase(std::unique(s->resume_at_.frames.begin(), s->resume_at_.frames.end()), s->resume_at_.frames.end());
    s->resume_at_.scene_frames = restored->scene_frames;
    s->resume_state_ = std::move(restored);
  }
  return s;
}

std::string RefereeSession::Restore(const std::map<int64_t, cv::Mat>& frames, const std::function<cv::Mat(int64_t)>& read_again) {
  if (!resume_state_) return "";
  SessionState st = std::move(*resume_state_);
  resume_state_.reset();
  auto frame_at = [&](int64_t index) -> const cv::Mat* {
    const auto it = frames.find(index);
    return it == frames.end() || it->second.empty() ? nullptr : &it->second;
  };
  const std::string where = ResumePointPath(options_.record).filename().string();
  for (int64_t f : {st.still_frame, st.pose_frame})
    if (f >= 0 && !frame_at(f))
      return where + ": frame " + std::to_string(f) + " could not be read again (resume with the frames the game was refereed from)";
  if (st.pose_frame >= 0) {
    if (std::string why = observer_->RestorePose(st.pose, *frame_at(st.pose_frame)); !why.empty())
      return where + ": frame " + std::to_string(st.pose_frame) + ": " + why;
    // The observer's still scene (incremental observation): the frames since the last one observed in full, observed
    // again in order, as the uninterrupted run observed them.
    observer_->ForgetScene();
    for (int64_t f : st.scene_frames) {
      const cv::Mat image = read_again ? read_again(f) : cv::Mat();
      const std::string again = " (resume with the frames the game was refereed from)";
      if (image.empty()) return where + ": frame " + std::to_string(f) + " could not be read again" + again;
      const int registrations = observer_->registrations();
      const vision::Observation o = observer_->Observe(image, "frame " + std::to_string(f));
      const bool first = f == st.scene_frames.front();  // observed in full, the others only where they changed
      if (o.status != vision::Status::kOk || observer_->registrations() != registrations || first != observer_->last_in_full())
        return where + ": frame " + std::to_string(f) + " does not read again as it did" + again;
    }
    observer_->RestorePossibleStacks(std::move(st.possible_stacks));
  }
  still_.Restore(st.still, st.still_frame >= 0 ? *frame_at(st.still_frame) : cv::Mat());
  still_state_ = static_cast<vision::StillWindow::State>(st.still_state);
  last_frame_ = st.last_frame, frames_seen_ = st.frames_seen, frames_observed_ = st.frames_observed, coins_told_ = st.coins_told;
  observed_frame_ = st.observed_frame, still_frame_ = st.still_frame, pose_frame_ = st.pose_frame;
  scene_frames_ = std::move(st.scene_frames);
  last_raw_ = std::move(st.last_raw), last_sha_ = std::move(st.last_sha), last_seen_ = std::move(st.last_seen);
  committed_seen_ = std::move(st.committed_seen), corrections_ = std::move(st.corrections);
  question_die_ = st.question_die, question_die_player_ = st.question_die_player;
  die_ = st.die, die_player_ = st.die_player, open_flag_ = st.open_flag, open_question_ = st.open_question, flag_region_ = st.flag_region,
  open_text_ = std::move(st.open_text);
  deferred_.assign(st.deferred.begin(), st.deferred.end());
  question_options_ = std::move(st.options);
  question_regions_ = std::move(st.question_regions);
  return "";
}

SessionState RefereeSession::SaveState() const {
  SessionState st;
  st.last_frame = last_frame_, st.frames_seen = frames_seen_, st.frames_observed = frames_observed_, st.coins_told = coins_told_;
  st.still = still_.saved();
  st.still_state = static_cast<int>(still_state_);
  st.observed_frame = observed_frame_, st.still_frame = still_frame_, st.pose_frame = pose_frame_;
  if (pose_frame_ >= 0) st.pose = observer_->last_pose(), st.possible_stacks = observer_->possible_stacks();
  if (pose_frame_ >= 0) st.scene_frames = scene_frames_;
  st.last_raw = last_raw_, st.last_sha = last_sha_, st.last_seen = last_seen_, st.committed_seen = committed_seen_,
  st.corrections = corrections_;
  st.question_die = question_die_, st.question_die_player = question_die_player_;
  st.die = die_, st.die_player = die_player_, st.open_flag = open_flag_, st.open_question = open_question_, st.flag_region = flag_region_, st.open_text = open_text_;
  st.deferred.assign(deferred_.begin(), deferred_.end());
  st.options = question_options_;
  st.question_regions = question_regions_;
  return st;
}

std::vector<Notice> RefereeSession::SaveResumePoint(int64_t next_frame, int64_t events) {
  std::vector<Notice> out;
  if (!Failure().empty()) return out;
  WritePoint(next_frame, events, &out);
  return out;
}

void RefereeSession::WritePoint(int64_t next_frame, int64_t events, std::vector<Notice>* out) {
  const fs::path file = ResumePointPath(options_.record);
  if (journal_.closed()) {  // nothing to resume
    std::error_code ec;
    fs::remove(file, ec);
    return;
  }
  if (journal_.size() == saved_entries_ && frames_observed_ == saved_observed_ && events == saved_events_) return;
  ResumePoint point;
  point.entries = journal_.size();
  point.hash = journal_.head_hash();
  point.next_frame = next_frame;
  point.events = events;
  point.session = ToJson(SaveState(), players());
  const engine::WriteOutcome written = WriteResumePoint(file, point, options_.journal.write);
  if (!written.ok()) {
    point_failure_ = written.error + " (the resume point)";
    Written(point_failure_, out);
    return;
  }
  saved_entries_ = journal_.size();
  saved_observed_ = frames_observed_;
  saved_events_ = events;
  saved_next_frame_ = next_frame;
}

RefereeSession::RefereeSession(RefereeOptions options, Journal journal, std::unique_ptr<vision::Observer> observer)
    : options_(std::move(options)), journal_(std::move(journal)), observer_(std::move(observer)), still_(options_.still) {
  committed_seen_ = engine::ObserveBoard(journal_.game().board());
  open_flag_ = journal_.OpenFlags().empty() ? -1 : journal_.OpenFlags().back();
  coins_told_ = journal_.game().scores().size();
}

engine::ExplainContext RefereeSession::Context(bool turn_ending) const {
  engine::ExplainContext ctx;
  // A die belongs to the turn of the player who rolled it: told early (while the turn before waits for its
  // board to settle), it is not that turn's.
  ctx.die = DieIsFor(game().current_player()) ? die_ : -1;
  ctx.ask_hidden_counts = options_.ask_hidden_counts;
  ctx.turn_ending = turn_ending;
  ctx.die_final = die_final_;
  return ctx;
}

const std::string& RefereeSession::Failure() const { return journal_.failure().empty() ? point_failure_ : journal_.failure(); }

void RefereeSession::MarkReplayed(bool replaying, std::vector<Notice>* out) const {
  for (Notice& n : *out) {
    if (n.seq >= 0) replaying = n.seq < journal_.recorded();
    n.replayed = replaying;
  }
}

bool RefereeSession::Written(const std::string& error, std::vector<Notice>* out) {
  if (error.empty()) return true;
  Notice n;
  n.kind = NoticeKind::kStopped;
  n.text = error + " — the referee accepts nothing more until the record can be written again (nothing committed so far is lost)";
  out->push_back(n);
  return false;
}

std::vector<Notice> RefereeSession::OnFrame(const Frame& frame) {
  std::vector<Notice> out;
  const bool replaying = journal_.replaying();
  Take(frame, &out);
  MarkReplayed(replaying, &out);
  return out;
}

void RefereeSession::Take(const Frame& frame, std::vector<Notice>* notices) {
  std::vector<Notice>& out = *notices;
  if (!Failure().empty()) return void(Written(Failure(), &out));
  if (frame.index <= last_frame_) {
    out.push_back({NoticeKind::kVision, frame.index,
                   "frame " + frame.name + " ignored: its index " + std::to_string(frame.index) + " is not after the last frame's, " +
                       std::to_string(last_frame_) + " (a duplicate, or late and out of order)"});
    return;
  }
  last_frame_ = frame.index;
  ++frames_seen_;
  if (frame.image.empty()) {
    out.push_back({NoticeKind::kVision, frame.index, "frame " + frame.name + ": " + frame.problem});
    return;
  }
  frame_time_ = Clock::now();
  still_state_ = still_.Update(frame.image);
  still_frame_ = frame.index;
  if (!still_.just_stable()) return;
  // 1-4. The still scene, observed.
  ++frames_observed_;
  observed_frame_ = frame.index;
  const int registrations = observer_->registrations();
  last_observation_ = observer_->Observe(frame.image, frame.name);
  observed_image_ = frame.name;
  // The frames the observer's still scene rests on (incremental observation): a new pose (even in a frame then found
  // to be motion) forgets the scene, and a frame observed in full starts it again.
  if (observer_->registrations() != registrations) pose_frame_ = frame.index, scene_frames_.clear();
  if (!observer_->holds_pose()) pose_frame_ = -1, scene_frames_.clear();
  if (options_.incremental && last_observation_.status == vision::Status::kOk) {
    if (observer_->last_in_full()) scene_frames_.clear();
    scene_frames_.push_back(frame.index);
  }
  if (last_observation_.status != vision::Status::kOk) {
    out.push_back({NoticeKind::kVision, frame.index,
                   frame.name + ": " + std::string(vision::ToString(last_observation_.status)) + " (" + observer_->last_reason() + ")"});
    if (last_observation_.status == vision::Status::kMotion) still_.Reset(), still_frame_ = -1;  // look again once it is still
    return;
  }
  // The record keeps the observation's digest: what was read, not how long it took (re-judging gives the same).
  nlohmann::json digest = vision::ToJson(last_observation_);
  digest.erase("ms");
  last_sha_ = ObservationSha256(digest);
  last_raw_ = ToObserved(last_observation_);
  engine::ObservedBoard seen = last_raw_;
  // A region the players corrected keeps their reading while the camera still reads it as it did then, and (observing
  // incrementally) while its pixels have not changed since the last still scene: a token hidden under a piece that
  // moved reads as before, but what lies there may not be what they said (it is read, and asked about, again). In a
  // standard game, a count they gave for a stack that the camera reads confidently but only as a lower bound is
  // kept only until the game holds it: from then on the lower bound, which the game's count meets, leaves the count
  // to the rules again (a player readying the troops at the start of a turn takes tokens off unseen; a count kept
  // reads as a redeploy). SoloPlay keeps it: its opposition attacks with what the neighbouring regions lose.
  const engine::Board& board = game().board();
  for (auto it = corrections_.begin(); it != corrections_.end();) {
    const int r = it->first;
    const RegionCorrection& c = it->second;
    const std::vector<int>& changed = observer_->changed_regions();
    const bool same = r < seen.size() && seen.regions[r] == c.raw && !std::binary_search(changed.begin(), changed.end(), r);
    const bool held = same && !game().solo() && !c.raw.tokens_certain && !c.raw.uncertain && r < static_cast<int>(board.size()) &&
                      engine::ReadsAs(board[r], c.corrected) && engine::ReadsAs(board[r], c.raw);
    if (same && !held) seen.regions[r] = c.corrected;
    it = same && !held ? std::next(it) : corrections_.erase(it);
  }
  if (last_seen_ && Changed(*last_seen_, seen).empty()) return;  // read the same as before: judged already
  last_seen_ = seen;
  Judge(seen, frame.index, frame.name, false, &out);
  ApplyDeferred(&out);
}

void RefereeSession::CommitObservation(const engine::ObservedBoard& seen, int64_t frame, const std::string& image, std::vector<Notice>* out) {
  ObservationDigest d;
  // A board judged again after the players' event (frame -1) is still the last frame observed.
  d.image = frame >= 0 ? image : observed_image_;
  d.frame = frame >= 0 ? frame : observed_frame_;
  d.sha256 = last_sha_;
  d.changed = Changed(committed_seen_, seen);
  Written(journal_.AppendObservation(d).ok() ? "" : journal_.failure().empty() ? "observation entry refused" : journal_.failure(), out);
  committed_seen_ = seen;
}

std::vector<Notice> RefereeSession::Stop(const std::string& note) {
  std::vector<Notice> out;
  if (journal_.closed()) return out;
  const bool replaying = journal_.replaying();
  auto r = journal_.AppendEnd(note);
  if (!r) Written(r.error(), &out);
  MarkReplayed(replaying, &out);
  return out;
}

std::string RefereeSession::Retry() {
  if (std::string error = journal_.Retry(); !error.empty()) return error;
  if (point_failure_.empty()) return "";
  point_failure_.clear();
  std::vector<Notice> ignored;
  saved_entries_ = -1;  // written again at once
  WritePoint(saved_next_frame_, saved_events_, &ignored);
  return point_failure_;
}

}  // namespace swref::core
