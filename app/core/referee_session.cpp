#include "app/core/referee_session.h"

#include <algorithm>
#include <filesystem>

#include "app/core/demo.h"
#include "app/core/resume_point.h"
#include "engine/components.h"
#include "engine/replay.h"
#include "engine/map.h"

namespace swref::core {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::vector<int> Changed(const engine::ObservedBoard& a, const engine::ObservedBoard& b) {
  std::vector<int> out;
  for (int r = 0; r < a.size() && r < b.size(); ++r)
    if (!(a.regions[r] == b.regions[r])) out.push_back(r);
  return out;
}

// The readings of a question, as the players see them: one line of actions each.
nlohmann::json OptionsJson(const engine::Explanation& e, const std::vector<std::string>& players) {
  nlohmann::json options = nlohmann::json::array();
  for (const engine::Reading& r : e.options) {
    nlohmann::json actions = nlohmann::json::array();
    for (const engine::ExplainedAction& a : r.actions) actions.push_back(engine::ToJson(a.action, players));
    options.push_back(actions);
  }
  return options;
}

// "conquered region 5", "redeployed", "eroded the Ratmen": what a flagged action did on the table.
std::string Attempted(const engine::Action& a) {
  if (a.type == engine::ActionType::kRedeploy) return "redeployed";
  if (a.type == engine::ActionType::kErode) return "eroded the " + std::string(engine::Info(static_cast<engine::Race>(a.race)).name);
  return "conquered region " + std::to_string(a.region);
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
  auto observer = vision::Observer::Load(options.setup);
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
    s->resume_state_ = std::move(restored);
  }
  return s;
}

std::string RefereeSession::Restore(const std::map<int64_t, cv::Mat>& frames) {
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
    observer_->RestorePossibleStacks(std::move(st.possible_stacks));
  }
  still_.Restore(st.still, st.still_frame >= 0 ? *frame_at(st.still_frame) : cv::Mat());
  still_state_ = static_cast<vision::StillWindow::State>(st.still_state);
  last_frame_ = st.last_frame, frames_seen_ = st.frames_seen, frames_observed_ = st.frames_observed, coins_told_ = st.coins_told;
  observed_frame_ = st.observed_frame, still_frame_ = st.still_frame, pose_frame_ = st.pose_frame;
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
  if (observer_->registrations() != registrations) pose_frame_ = frame.index;
  if (!observer_->holds_pose()) pose_frame_ = -1;
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
  // A region the players corrected keeps their reading while the camera still reads it as it did then. In a
  // standard game, a count they gave for a stack that the camera reads confidently but only as a lower bound is
  // kept only until the game holds it: from then on the lower bound, which the game's count meets, leaves the count
  // to the rules again (a player readying the troops at the start of a turn takes tokens off unseen; a count kept
  // reads as a redeploy). SoloPlay keeps it: its opposition attacks with what the neighbouring regions lose.
  const engine::Board& board = game().board();
  for (auto it = corrections_.begin(); it != corrections_.end();) {
    const int r = it->first;
    const RegionCorrection& c = it->second;
    const bool same = r < seen.size() && seen.regions[r] == c.raw;
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

bool RefereeSession::CommitAction(const engine::Action& action, int64_t frame, std::vector<Notice>* out) {
  auto commit = journal_.AppendAction(action);
  if (!commit) return Written(commit.error(), out);
  Notice n;
  n.kind = NoticeKind::kCommitted;
  n.frame = frame;
  n.seq = commit->seq;
  n.data = engine::ToJson(action, players());
  n.text = players()[action.player] + ": " + n.data.value("do", "") +
           (action.region >= 0 ? " region " + std::to_string(action.region) : "") + (commit->step.verdict.ok() ? "" : " (" + commit->step.verdict.why + ")");
  if (frame >= 0) n.ms = MsSince(frame_time_);
  out->push_back(n);
  // A die told and never used (its attempt failed and changed nothing on the board) ends with its player's turn:
  // else the next player's first conquest would be read as reinforced by it, and as that turn's last.
  if (action.type == engine::ActionType::kEndTurn && DieIsFor(action.player)) die_ = -1, die_player_ = -1;
  TellCoins(out);
  return true;
}

void RefereeSession::TellCoins(std::vector<Notice>* out) {
  const engine::Game& g = game();
  for (; coins_told_ < g.scores().size(); ++coins_told_) {
    const engine::TurnScore& t = g.scores()[coins_told_];
    Notice n;
    n.kind = NoticeKind::kCoins;
    n.data = {{"turn", coins_told_},  // the index of the turn scored: a turn amended is told again
              {"round", t.round},
              {"player", players()[t.player]},
              {"coins", {{"regions", t.coins.regions}, {"race", t.coins.race}, {"power", t.coins.power}, {"total", t.coins.total()}}},
              {"after", g.players()[t.player].coins}};
    n.text = "round " + std::to_string(t.round) + ", " + players()[t.player] + " scores " + std::to_string(t.coins.total()) + " coins";
    out->push_back(n);
  }
  if (g.finished()) {
    Notice n;
    n.kind = NoticeKind::kEnded;
    nlohmann::json coins = nlohmann::json::object();
    for (const auto& p : g.players()) coins[p.name] = p.coins;
    nlohmann::json winners = nlohmann::json::array();
    for (int w : g.Winners()) winners.push_back(players()[w]);
    n.data = {{"coins", coins}, {"winners", winners}};
    n.text = "the game is over";
    if (g.solo()) {  // the end items, the opposition's total and the rating (docs/solo.md)
      n.data["solo"] = engine::SoloResult(g);
      n.text += ": " + SoloResultLine(g);
    }
    out->push_back(n);
  }
}

namespace {

// The regions an action names, in order, each once: a conquest's (and its attackers'), a redeploy's, an erosion's.
std::vector<int> RegionsNamed(const engine::Action& a) {
  std::vector<int> out;
  auto add = [&](int r) {
    if (r >= 0 && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  add(a.region);
  for (const auto* list : {&a.from, &a.placement, &a.add, &a.encampments})
    for (const engine::Placement& p : *list) add(p.region);
  add(a.move.from), add(a.move.to);
  for (const engine::Move& m : a.hole_moves) add(m.from), add(m.to);
  for (int r : a.heroes) add(r);
  add(a.fortress);
  for (int r : a.regions) add(r);
  return out;
}

}  // namespace

std::vector<int> RefereeSession::flag_regions() const {
  const engine::Action* attempt = open_flag_ >= 0 ? journal_.FlagAttempt(open_flag_) : nullptr;
  return attempt ? RegionsNamed(*attempt) : std::vector<int>{};
}

void RefereeSession::JudgeFinalDie(int die, int player, std::vector<Notice>* out) {
  const int told = die_, told_player = die_player_;
  die_ = die, die_player_ = player, question_die_ = -1, question_die_player_ = -1;
  die_final_ = true;
  Judge(*last_seen_, -1, "", false, out);
  die_final_ = false;
  // A question that reading raised is answered with that die: its readings roll it (not the one told since).
  if (open_question_ >= 0 && die_ >= 0) question_die_ = die_, question_die_player_ = die_player_;
  die_ = told, die_player_ = told_player;
}

void RefereeSession::CommitReading(const engine::Reading& reading, size_t count, int64_t frame, std::vector<Notice>* out) {
  // The told die is spent by the committed action that rolled it (or by a flagged attempt: Judge), not by what a
  // reading holds after the actions committed.
  bool die_spent = false;
  for (size_t i = 0; i < count && i < reading.actions.size(); ++i) {
    if (!CommitAction(reading.actions[i].action, frame, out)) return;
    die_spent = die_spent || reading.actions[i].action.die >= 0;
  }
  if (die_spent) die_ = -1, die_player_ = -1;
}

bool RefereeSession::Flaggable(engine::ActionType type) const {
  return type == engine::ActionType::kConquer || (game().solo() && (type == engine::ActionType::kRedeploy || type == engine::ActionType::kErode));
}

void RefereeSession::Judge(const engine::ObservedBoard& seen, int64_t frame, const std::string& image, bool turn_ending, std::vector<Notice>* out) {
  // 5. An open flag: the players take the conquest back (the board reads as committed again) or accept it.
  if (open_flag_ >= 0) {
    // Taken back: the board reads as committed, or at least the flagged region reads as it was before the attempt
    // (then whatever else changed is judged as usual, below).
    const engine::Explanation back = engine::Explain(game(), seen, Context(false));
    const bool region_back = flag_region_ >= 0 && flag_region_ < seen.size() && flag_region_ < static_cast<int>(game().board().size()) &&
                             engine::ReadsAs(game().board()[flag_region_], seen.regions[flag_region_]);
    if (back.kind != engine::ExplainKind::kNoChange && !region_back) {
      // Nothing else is judged while a flag is open; the players are reminded when the board moves on without them.
      if (frame >= 0) out->push_back({NoticeKind::kPending, frame, "the board changed while a flagged conquest is open: nothing is judged until it is taken back or accepted (" + open_text_ + ")"});
      return;
    }
    auto r = journal_.AppendResolution(open_flag_, false, "taken back");
    if (!r) return void(Written(r.error(), out));
    out->push_back({NoticeKind::kResolved, frame, "the flagged conquest was taken back", r->seq});
    open_flag_ = -1, flag_region_ = -1, open_text_.clear();
    if (back.kind == engine::ExplainKind::kNoChange) {
      committed_seen_ = seen;
      return;
    }
  }
  engine::Explanation e = engine::Explain(game(), seen, Context(turn_ending));
  if (e.kind == engine::ExplainKind::kPending && turn_ending && !e.regions.empty()) {
    // The turn ends but the board still differs from the game: a reading to settle, never a silent pass.
    e.kind = engine::ExplainKind::kQuestion;
    e.text = "The turn ends but the board differs from the game (" + e.text + "); please check the reading or finish the redeployment";
    e.options.clear();
  }
  if (e.kind == engine::ExplainKind::kIllegal && e.reading.illegal >= 0 && !Flaggable(e.reading.actions[e.reading.illegal].action.type)) {
    // Only a conquest is flagged (a player can take it back), and in SoloPlay a redeployment or an erosion too
    // (docs/solo.md); any other action the rules refuse (a withdrawal, a standard game's redeployment) means the
    // board was misread or moved wrongly: the players must settle the reading.
    const engine::Verdict& v = e.verdict();
    e.kind = engine::ExplainKind::kQuestion;
    e.text = "The board shows what the rules do not allow (" + std::string(engine::ToString(v.code)) + ": " + v.why +
             "); please check the reading";
    e.options.clear();
  }
  if (open_question_ >= 0 && e.kind != engine::ExplainKind::kQuestion) {
    auto a = journal_.Append(EntryKind::kAnswer, {{"question", open_question_}, {"answer", {{"by", "board"}}}, {"corrected", false}});
    if (!a) return void(Written(a.error(), out));
    out->push_back({NoticeKind::kAnswered, frame, "the board settled the question", *a});
    open_question_ = -1, open_text_.clear(), question_options_.clear(), question_regions_.clear();
    question_die_ = -1, question_die_player_ = -1;  // the board moved on: that die's attempt is read no more
  }
  switch (e.kind) {
    case engine::ExplainKind::kNoChange:
      return;
    case engine::ExplainKind::kPending:
      out->push_back({NoticeKind::kPending, frame, e.text});
      return;
    case engine::ExplainKind::kExplained:
      CommitObservation(seen, frame, image, out);
      CommitReading(e.reading, e.reading.actions.size(), frame, out);
      return;
    case engine::ExplainKind::kIllegal: {
      // 6. The legal actions before the illegal conquest stand; the conquest is flagged.
      CommitObservation(seen, frame, image, out);
      CommitReading(e.reading, static_cast<size_t>(std::max(0, e.reading.illegal)), frame, out);
      const engine::Action& attempt = e.reading.actions[e.reading.illegal].action;
      if (attempt.die >= 0) die_ = -1, die_player_ = -1;  // the roll was made (given back if the flag is withdrawn)
      auto flag = journal_.AppendFlag(attempt);
      if (!flag) return void(Written(flag.error(), out));
      open_flag_ = *flag;
      flag_region_ = attempt.region;
      const engine::Verdict& v = e.verdict();
      open_text_ = std::string(engine::ToString(v.code)) + ": " + v.why;
      Notice n{NoticeKind::kFlag, frame, players()[attempt.player] + " " + Attempted(attempt) + " against the rules: " + open_text_, *flag};
      n.data = {{"region", attempt.region}, {"regions", RegionsNamed(attempt)}, {"code", engine::ToString(v.code)}, {"why", v.why},
                {"player", players()[attempt.player]}};
      if (frame >= 0) n.ms = MsSince(frame_time_);
      out->push_back(n);
      return;
    }
    case engine::ExplainKind::kQuestion: {
      if (open_question_ >= 0) return;  // still the same question
      const nlohmann::json options = OptionsJson(e, players());
      auto q = journal_.AppendQuestion(e.text + (e.regions.empty() ? "" : " (regions " + engine::IdList(e.regions) + ")"), options);
      if (!q) return void(Written(q.error(), out));
      open_question_ = *q;
      open_text_ = e.text;
      question_options_ = e.options;
      question_regions_ = e.regions;
      Notice n{NoticeKind::kQuestion, frame, e.text, *q};
      n.data = {{"options", options}, {"regions", e.regions}};
      if (frame >= 0) n.ms = MsSince(frame_time_);
      out->push_back(n);
      return;
    }
  }
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
