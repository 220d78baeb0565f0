// The demo's table played frame by frame, as the GUI plays it (app/core/demo_table.h, RefereeStepper in
// referee_run.h) and the overlay the GUI draws over each frame (app/core/board_overlay.h). The table is the demo
// game photographed at a small size, made once for the suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "app/core/board_overlay.h"
#include "app/core/demo_table.h"
#include "app/core/referee_run.h"
#include "app/core/referee_state.h"
#include "app/core/truth_players.h"
#include "engine/observed.h"
#include "tests/app/journal_fixture.h"
#include "tests/app/suite_table_fixture.h"

namespace swref::core {
namespace {

namespace fs = std::filesystem;
const cv::Size kFrame = testing::kSuiteTableFrame;
constexpr uint64_t kSeed = testing::kSuiteTableSeed;

class DemoTableTest : public testing::SuiteTableTest {
 protected:
  // The demo's players answer what the referee asks about `frame` (a corrected board may ask again: 3 rounds).
  static void AnswerAsThePlayers(RefereeSession& session, int64_t frame) {
    for (int round = 0; round < 3; ++round)
      if (auto answer = table_->Answer(session, frame)) session.OnEvent(*answer);
  }
  // A session on the demo's frames (recording into `record`) with a question open before the first turn is told:
  // once the empty board is observed, the camera is shown a board from later in the game (a race in decline, which
  // no action allows yet; as if the camera were started late), so the referee asks. The question is of the test's
  // own making: it does not wait on the observer misreading something. `truth_frame` gets the frame whose truth
  // is the board really on the table (the players' answer: table_->Answer(session, *truth_frame)). Null (and the
  // test failed) otherwise.
  std::unique_ptr<RefereeSession> AtAQuestion(const std::string& record, int64_t* truth_frame) const {
    // The first frame the players tell something after (a still board) that shows a race in decline.
    const auto later = std::find_if(table_->events.begin(), table_->events.end(), [&](const TableEvent& e) {
      const auto& regions = table_->truth.at(e.after_frame).regions;
      return std::any_of(regions.begin(), regions.end(), [](const vision::RegionObservation& r) { return r.decline; });
    });
    auto session = RefereeSession::Start(Options(record), script_->record);
    auto frames = OpenImageFolder(table_->frames);
    if (!session || !frames || later == table_->events.end()) {
      ADD_FAILURE() << (!session ? session.error() : !frames ? frames.error() : "the demo has no race in decline");
      return nullptr;
    }
    core::Frame frame, shown;
    while ((*session)->last_observed_frame() < 0 && frame.index < 20 && (*frames)->Next(&frame)) (*session)->OnFrame(frame);
    if ((*session)->last_observed_frame() < 0 || !(*session)->journal().actions().empty()) {
      ADD_FAILURE() << "the demo's empty board is observed in its first frames, before any action";
      return nullptr;
    }
    *truth_frame = frame.index;
    // The same reader read on to that frame, unseen by the session, which is shown it next.
    const int64_t later_index = later->after_frame;
    while (shown.index < later_index && (*frames)->Next(&shown)) {
    }
    if (shown.index != later_index) {
      ADD_FAILURE() << "frame " << later_index << " could not be read";
      return nullptr;
    }
    for (int i = 0; i < 20 && (*session)->open_question() < 0; ++i) {
      shown.index = ++frame.index;
      (*session)->OnFrame(shown);
    }
    if ((*session)->open_question() < 0) {
      ADD_FAILURE() << "frame " << later_index << " (a race in decline) shown at the start of the game asks no question";
      return nullptr;
    }
    return std::move(*session);
  }
  // An event told as the players would, in the events file's form.
  static std::vector<Notice> Tell(RefereeSession& session, const nlohmann::json& body) {
    auto e = ParseTableEvent(body, "test");
    EXPECT_TRUE(e) << e.error();
    return e ? session.OnEvent(*e) : std::vector<Notice>{};
  }
};

TEST_F(DemoTableTest, APreparedTableReopensOnlyForItsSeedAndSize) {
  EXPECT_FALSE(table_->events.empty());
  EXPECT_FALSE(table_->truth.empty());
  auto frames = OpenImageFolder(table_->frames);
  ASSERT_TRUE(frames) << frames.error();
  EXPECT_EQ((*frames)->count(), static_cast<int64_t>(table_->truth.size()));
  auto again = OpenDemoTable(table_->dir, kSeed, kFrame);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->events.size(), table_->events.size());
  auto other = OpenDemoTable(table_->dir, kSeed + 1, kFrame);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error(), (table_->dir / "demo-ready.json").string() + ": made for another seed or frame size");
  auto missing = OpenDemoTable(dir_->path() / "nothing", kSeed, kFrame);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("nothing/demo-ready.json"), std::string::npos) << missing.error();
  auto busy = PrepareDemoTable(script_->record, table_->dir, kSeed, kFrame);
  ASSERT_FALSE(busy);
  EXPECT_NE(busy.error().find("the folder is not empty"), std::string::npos);
}

TEST_F(DemoTableTest, TheStepperGivesFramesOneByOneAndTellsTheEventsAfterThem) {
  auto session = RefereeSession::Start(Options("stepped.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  auto frames = OpenImageFolder(table_->frames);
  ASSERT_TRUE(frames) << frames.error();
  RefereeStepper stepper(**session, **frames, table_->events);
  auto overlay = OverlayMaker::Load(table_->setup);
  ASSERT_TRUE(overlay) << overlay.error();
  EXPECT_FALSE(overlay->Make((*session)->observer()).placed);  // nothing seen yet

  std::vector<Notice> notices;
  Frame frame;
  // At least 30 frames, and on until a still board was committed.
  int64_t i = 0;
  for (; i < 30 || ((*session)->journal().LastObservedFrame() < 0 && i < 150); ++i) {
    ASSERT_TRUE(stepper.Step(&notices, &frame));
    EXPECT_EQ(frame.index, i);
    // The players answer as the demo's players do; a question never stays open between frames here.
    if (auto answer = table_->Answer(**session, frame.index)) (*session)->OnEvent(*answer);
  }
  EXPECT_EQ(stepper.last_frame(), i - 1);
  int observations = 0;
  for (int k = 0; k < (*session)->journal().size(); ++k) observations += (*session)->journal().kind(k) == EntryKind::kObservation;
  EXPECT_GT(observations, 0) << "after " << i << " frames";
  EXPECT_GE((*session)->journal().LastObservedFrame(), 0);
  size_t due = 0;
  while (due < table_->events.size() && table_->events[due].after_frame <= i - 1) ++due;
  EXPECT_EQ(stepper.events_told(), due);
  EXPECT_GT((*session)->journal().actions().size(), 0u);

  // The overlay: every region of the map, inside the frame, and the tokens the observer named.
  const BoardOverlay seen = overlay->Make((*session)->observer());
  ASSERT_TRUE(seen.placed);
  EXPECT_EQ(static_cast<int>(seen.regions.size()), (*session)->game().map().size());
  for (const OverlayRegion& r : seen.regions) {
    EXPECT_GE(r.outline.size(), 3u);
    EXPECT_TRUE(cv::Rect(0, 0, kFrame.width, kFrame.height).contains(r.label)) << "region " << r.id;
  }
  EXPECT_FALSE(seen.tokens.empty());
  EXPECT_EQ(overlay->OnReference().regions.size(), seen.regions.size());

  // After a crash: the record resumes, and the frames go on after the last still board it committed.
  const size_t actions = (*session)->journal().actions().size();
  session->reset();
  RefereeOptions o = Options("stepped.json");
  o.resume = true;
  auto resumed = RefereeSession::Start(o, engine::Record{});
  ASSERT_TRUE(resumed) << resumed.error();
  EXPECT_EQ((*resumed)->journal().actions().size(), actions);
  const int64_t last = (*resumed)->journal().LastObservedFrame();
  EXPECT_GE(last, 0);
  EXPECT_LE(last, i - 1);
  auto again = OpenImageFolder(table_->frames);
  ASSERT_TRUE(again) << again.error();
  RefereeStepper continued(**resumed, **again, table_->events);
  ASSERT_TRUE(continued.SkipTo(last));
  EXPECT_LE(continued.events_told(), due);
  ASSERT_TRUE(continued.Step(&notices, &frame));
  EXPECT_EQ(frame.index, last + 1);
}

// Actions told while a question is open wait, and are told in order once it is answered (two of them used to
// pass each other in the queue forever).
TEST_F(DemoTableTest, ActionsToldDuringAQuestionAreAppliedOnceItIsAnswered) {
  int64_t truth_frame = -1;
  auto session = AtAQuestion("waiting.json", &truth_frame);
  ASSERT_TRUE(session);
  auto told = [&](const nlohmann::json& body) { return Tell(*session, body); };
  for (const char* what : {"pick", "end_turn"}) {
    nlohmann::json body = {{"player", "Ann"}, {"do", what}};
    if (std::string(what) == "pick") body["slot"] = 0;
    const auto waiting = told(body);
    ASSERT_EQ(waiting.size(), 1u);
    EXPECT_EQ(waiting[0].kind, NoticeKind::kPending);
  }
  // The question names its regions, and a resume point keeps them (the players confirm them in their answer).
  ASSERT_FALSE(session->open_regions().empty());
  StateContext context;
  context.regions = session->game().map().size();
  context.players = session->players();
  for (int k = 0; k < session->journal().size(); ++k) context.kinds.push_back(session->journal().kind(k));
  context.scores = session->game().scores().size();
  const SessionState saved = session->SaveState();
  const nlohmann::json doc = ToJson(saved, session->players());
  auto kept = ParseSessionState(doc, context, "point");
  ASSERT_TRUE(kept) << kept.error();
  EXPECT_EQ(kept->question_regions, session->open_regions());
  // ... and so the observer's possible stacks (a resumed game reads its frames as the uninterrupted one), exactly.
  ASSERT_FALSE(saved.possible_stacks.empty()) << "an early board: every race token is a possible stack";
  ASSERT_EQ(kept->possible_stacks.size(), saved.possible_stacks.size());
  for (size_t i = 0; i < saved.possible_stacks.size(); ++i) {
    EXPECT_EQ(kept->possible_stacks[i].kind, saved.possible_stacks[i].kind);
    EXPECT_EQ(kept->possible_stacks[i].centre_mm, saved.possible_stacks[i].centre_mm);
  }
  nlohmann::json bad = doc;
  bad["pose"]["possible_stacks"][0]["kind"] = "mountain";
  EXPECT_EQ(ParseSessionState(bad, context, "point").error(),
            "point.pose.possible_stacks[0].kind: expected a race token kind (\"ratmen\", \"ratmen_decline\")");
  bad = doc;
  bad["pose"]["possible_stacks"][0]["x_mm"] = "left";
  EXPECT_EQ(ParseSessionState(bad, context, "point").error(), "point.pose.possible_stacks[0].x_mm: expected a position on the board in mm");
  // ... and the frames the observer's still scene rests on (incremental observation), which a resume observes again.
  ASSERT_FALSE(saved.scene_frames.empty());
  EXPECT_LE(saved.scene_frames.size(), static_cast<size_t>(vision::ObserverOptions{}.full_every));
  EXPECT_EQ(kept->scene_frames, saved.scene_frames);
  bad = doc;
  bad["pose"]["scene_frames"] = {1, 0};
  EXPECT_EQ(ParseSessionState(bad, context, "point").error(),
            "point.pose.scene_frames[1]: expected frames in increasing order up to the last frame, " + std::to_string(saved.last_frame));
  bad["pose"].erase("scene_frames");  // a point of an older version: none
  auto no_scene = ParseSessionState(bad, context, "point");
  ASSERT_TRUE(no_scene) << no_scene.error();
  EXPECT_TRUE(no_scene->scene_frames.empty());
  // The die a SoloPlay question's readings roll (JudgeFinalDie) is kept with the question; an older point has none.
  nlohmann::json with_die = doc;
  with_die["question_die"] = 2, with_die["question_die_player"] = 0;
  auto die_kept = ParseSessionState(with_die, context, "point");
  ASSERT_TRUE(die_kept) << die_kept.error();
  EXPECT_EQ(die_kept->question_die, 2);
  EXPECT_EQ(die_kept->question_die_player, 0);
  with_die.erase("question_die"), with_die.erase("question_die_player");
  auto older = ParseSessionState(with_die, context, "point");
  ASSERT_TRUE(older) << older.error();
  EXPECT_EQ(older->question_die, -1);
  bad = doc;
  bad["question_die"] = 2, bad["open_question"] = -1;
  EXPECT_EQ(ParseSessionState(bad, context, "point").error(), "point.question_die: no question is open");
  const auto answer = table_->Answer(*session, truth_frame);
  ASSERT_TRUE(answer.has_value());
  for (int region : session->open_regions())
    EXPECT_TRUE(
        std::any_of(answer->corrections.begin(), answer->corrections.end(), [&](const nlohmann::json& c) { return c["region"] == region; }))
        << "region " << region << " is named by the question, so the players' answer confirms it";
  const std::vector<Notice> after = session->OnEvent(*answer);
  // The pick is committed; the end of turn then follows it (committed, or refused with its reason).
  int picks = 0, ends = 0;
  for (const Notice& n : after) {
    picks += n.text.find("pick") != std::string::npos;
    ends += n.text.find("end_turn") != std::string::npos;
  }
  EXPECT_EQ(picks, 1);
  EXPECT_EQ(ends, 1);
}

// While a flag is open nothing else is judged, and the players are reminded when the board moves on; once they say
// "taken back", the board as it stands is judged at once (the conquest made again legally, or the next one), as the
// camera will not read it as a change again (2p seed 9 of `swref bench referee`: an attempt on a sea made while an
// earlier flag was open was never judged).
TEST_F(DemoTableTest, TakenBackLateTheBoardAsItStandsIsJudgedAtOnce) {
  auto session = RefereeSession::Start(Options("taken-back-late.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  auto frames = OpenImageFolder(table_->frames);
  ASSERT_TRUE(frames) << frames.error();
  RefereeStepper stepper(**session, **frames, {});  // no events: the flag stays open until the test says so
  std::vector<Notice> notices;
  core::Frame frame;
  while ((*session)->open_flag() < 0 && stepper.Step(&notices, &frame)) AnswerAsThePlayers(**session, frame.index);
  ASSERT_GE((*session)->open_flag(), 0) << "the demo has illegal conquests";
  const size_t actions = (*session)->journal().actions().size();
  bool reminded = false;
  for (int i = 0; i < 12 && stepper.Step(&notices, &frame); ++i) {
    for (const Notice& n : notices)
      reminded = reminded || (n.kind == NoticeKind::kPending && n.text.rfind("the board changed while a flagged conquest is open", 0) == 0);
    notices.clear();
  }
  EXPECT_TRUE(reminded);
  EXPECT_EQ((*session)->journal().actions().size(), actions) << "nothing is committed while the flag is open";
  auto back = ParseTableEvent({{"do", "take_back"}}, "test");
  ASSERT_TRUE(back) << back.error();
  const auto after = (*session)->OnEvent(*back);
  EXPECT_LT((*session)->open_flag(), 0);
  const bool judged = std::any_of(after.begin(), after.end(), [](const Notice& n) {
    return n.kind == NoticeKind::kCommitted || n.kind == NoticeKind::kQuestion || n.kind == NoticeKind::kFlag;
  });
  EXPECT_TRUE(judged) << "the board moved on after the attempt: it is judged when the flag is taken back";
}

// A die told while actions wait (for a question here; for a flag alike) waits with them, in order: the next player's roll must
// not take the place of the one the waiting turn may still use (2p seed 5 of `swref bench referee`: Bob's die told
// while Ann's end of turn waited for a flag; her reinforced last conquest was then read without her die).
TEST_F(DemoTableTest, ADieToldWhileActionsWaitWaitsWithThem) {
  int64_t truth_frame = -1;
  auto session = AtAQuestion("die-waits.json", &truth_frame);
  ASSERT_TRUE(session);
  auto told = [&](const nlohmann::json& body) { return Tell(*session, body); };
  told({{"player", "Ann"}, {"do", "pick"}, {"slot", 0}});
  told({{"player", "Ann"}, {"do", "end_turn"}});
  const auto die = told({{"player", "Bob"}, {"do", "die"}, {"face", 2}});
  ASSERT_EQ(die.size(), 1u);
  EXPECT_EQ(die[0].kind, NoticeKind::kPending) << die[0].text;
  EXPECT_EQ(session->SaveState().die, -1) << "Bob's die is told after Ann's end of turn, which waits";
  const auto answer = table_->Answer(*session, truth_frame);
  ASSERT_TRUE(answer.has_value());
  session->OnEvent(*answer);
  EXPECT_EQ(session->SaveState().die, 2);
  EXPECT_EQ(session->SaveState().die_player, 1);
  // In the record, the die comes after Ann's end of turn, as it was told.
  const Journal& j = session->journal();
  int last_event = -1, last_action = -1;
  for (int k = 0; k < j.size(); ++k) {
    if (j.kind(k) == EntryKind::kEvent) last_event = k;
    if (j.kind(k) == EntryKind::kAction) last_action = k;
  }
  EXPECT_GT(last_event, last_action);
  // Ann's pick and end of turn were committed, before the die.
  ASSERT_GE(j.actions().size(), 2u);
  EXPECT_EQ(j.actions().back().type, engine::ActionType::kEndTurn);
  EXPECT_EQ(j.actions().back().player, 0);
  EXPECT_TRUE(std::any_of(j.actions().begin(), j.actions().end(), [](const engine::Action& a) { return a.type == engine::ActionType::kPick && a.player == 0; }));
}

// "Taken back", told by the players while the camera still shows the attempt: the attempt is not flagged again
// when the last board is judged once more (at the end of the turn that waited for the flag).
TEST_F(DemoTableTest, AConquestToldTakenBackIsNotFlaggedAgain) {
  auto session = RefereeSession::Start(Options("taken-back.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  auto frames = OpenImageFolder(table_->frames);
  ASSERT_TRUE(frames) << frames.error();
  RefereeStepper stepper(**session, **frames, table_->events);
  std::vector<Notice> notices;
  core::Frame frame;
  while ((*session)->open_flag() < 0 && stepper.Step(&notices, &frame)) AnswerAsThePlayers(**session, frame.index);
  ASSERT_GE((*session)->open_flag(), 0) << "the demo has illegal conquests";
  auto back = ParseTableEvent({{"do", "take_back"}}, "test");
  ASSERT_TRUE(back) << back.error();
  (*session)->OnEvent(*back);
  EXPECT_LT((*session)->open_flag(), 0);
  auto end = ParseTableEvent({{"player", (*session)->players()[(*session)->game().current_player()]}, {"do", "end_turn"}}, "test");
  ASSERT_TRUE(end) << end.error();
  for (const Notice& n : (*session)->OnEvent(*end)) EXPECT_NE(n.kind, NoticeKind::kFlag) << n.text;
}

// The frames of a folder, without those `lost` names (their indices kept), and none from `end` on.
class LosingFrames : public FrameSource {
 public:
  LosingFrames(std::unique_ptr<FrameSource> frames, std::function<bool(int64_t)> lost, int64_t end)
      : frames_(std::move(frames)), lost_(std::move(lost)), end_(end) {}
  bool Next(Frame* frame) override {
    while (frames_->Next(frame)) {
      if (frame->index >= end_) return false;
      if (!lost_(frame->index)) return true;
    }
    return false;
  }

 private:
  std::unique_ptr<FrameSource> frames_;
  std::function<bool(int64_t)> lost_;
  int64_t end_;
};

// In the truth: a region where a conquest is taken back and then made again with more tokens by the same race.
struct MadeAgain {
  int region = -1;
  int64_t back = -1, again = -1;  // the first frame showing it taken back, the first showing it made again
  engine::ObservedRegion attempt;
};
std::optional<MadeAgain> FindMadeAgain(const std::vector<vision::Observation>& truth) {
  std::vector<engine::ObservedBoard> boards;
  for (const vision::Observation& o : truth) boards.push_back(ToObserved(o));
  for (size_t i = 1; i + 1 < boards.size(); ++i) {
    for (int r = 0; r < boards[i].size(); ++r) {
      const engine::ObservedRegion &before = boards[i - 1].regions[r], &attempt = boards[i].regions[r];
      if (attempt == before || !attempt.race || attempt.decline) continue;
      size_t back = i + 1;
      while (back < boards.size() && boards[back].regions[r] == attempt) ++back;
      if (back == boards.size() || boards[back].regions[r] != before) continue;
      size_t again = back + 1;
      while (again < boards.size() && boards[again].regions[r] == before) ++again;
      if (again == boards.size()) continue;
      const engine::ObservedRegion& made = boards[again].regions[r];
      if (made.race == attempt.race && !made.decline && made.tokens > attempt.tokens)
        return MadeAgain{r, static_cast<int64_t>(back), static_cast<int64_t>(again), attempt};
    }
  }
  return std::nullopt;
}

// A flagged conquest taken back and made again legally while the camera never saw it leave (the frames of the
// take-back are lost): the players press "taken back" when the end of the turn waits for the flag, and the region,
// showing the conquest made again, is judged as seen (not forced back to the game's board, which hid the legal
// conquest and lost the rest of the game's tallies).
TEST_F(DemoTableTest, AConquestMadeAgainBeforeTheCameraSawItTakenBackIsCommitted) {
  const std::optional<MadeAgain> found = FindMadeAgain(table_->truth);
  ASSERT_TRUE(found) << "the demo has a conquest taken back and made again";
  auto session = RefereeSession::Start(Options("made-again.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  auto folder = OpenImageFolder(table_->frames);
  ASSERT_TRUE(folder) << folder.error();
  const int64_t end = found->again + 20;
  LosingFrames frames(std::move(*folder), [&](int64_t i) { return i >= found->back && i < found->again; }, end);
  std::vector<TableEvent> events;
  for (const TableEvent& e : table_->events)
    if (e.after_frame < end) events.push_back(e);
  TruthPlayers players(**session, table_->truth);
  int flags_here = 0;
  std::optional<engine::ObservedRegion> after_back;  // the region as judged once the players said "taken back"
  auto run = RunReferee(**session, frames, events, [&](const Notice& n) {
    players.OnNotice(n, [&](const Notice& m) {
      flags_here += m.kind == NoticeKind::kFlag && m.data.value("region", -1) == found->region;
      if (m.kind == NoticeKind::kResolved && m.text == "the flagged conquest is taken back" && !after_back)
        after_back = (*session)->last_seen()->regions[found->region];
    });
  });
  ASSERT_TRUE(run) << run.error();
  EXPECT_EQ(players.taken_back(), 1);
  EXPECT_EQ(flags_here, 1) << "region " << found->region << ": flagged once, the attempt";
  const engine::ObservedRegion made = ToObserved(table_->truth[found->again]).regions[found->region];
  ASSERT_TRUE(after_back.has_value());
  EXPECT_EQ(after_back->race, made.race) << "left as the camera read it, not as the game had it";
  EXPECT_EQ(after_back->tokens, made.tokens);
  // The game follows the table: its board is what the last board committed shows.
  const int64_t last = (*session)->journal().LastObservedFrame();
  ASSERT_GT(last, found->again);
  const engine::ObservedBoard real = ToObserved(table_->truth[last]);
  for (int r = 0; r < real.size(); ++r) EXPECT_TRUE(engine::ReadsAs((*session)->game().board()[r], real.regions[r])) << "region " << r << ", frame " << last;
}

// A count the players give for a stack (the camera sees a lower bound) is kept only until the game holds it: then
// the lower bound, which the game's count meets, stands again, and the count is the rules' (a player readying the
// troops takes tokens off a stack unseen; a count kept would read as a redeployment).
TEST_F(DemoTableTest, AStackCountCorrectedIsLeftToTheRulesOnceTheGameHoldsIt) {
  auto session = RefereeSession::Start(Options("stack-count.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  auto frames = OpenImageFolder(table_->frames);
  ASSERT_TRUE(frames) << frames.error();
  core::Frame frame;
  std::map<int64_t, cv::Mat> images;
  auto step = [&] {
    images[frame.index] = frame.image;
    (*session)->OnFrame(frame);
    AnswerAsThePlayers(**session, frame.index);
  };
  // A settled board with a stack the camera reads confidently, but only as a lower bound, which the game meets.
  int region = -1;
  while (region < 0 && (*frames)->Next(&frame)) {
    step();
    if ((*session)->open_question() >= 0 || (*session)->open_flag() >= 0 || !(*session)->last_seen()) continue;
    const engine::Board& board = (*session)->game().board();
    const engine::ObservedBoard raw = (*session)->SaveState().last_raw;
    for (int r = 0; r < raw.size() && region < 0; ++r)
      if (!raw.regions[r].tokens_certain && !raw.regions[r].uncertain && raw.regions[r].race && engine::ReadsAs(board[r], raw.regions[r])) region = r;
  }
  ASSERT_GE(region, 0) << "the demo has stacks";
  const engine::ObservedRegion raw = (*session)->SaveState().last_raw.regions[region];
  const int held = (*session)->game().board()[region].tokens;
  auto correct = ParseTableEvent({{"do", "correct"}, {"region", region}, {"tokens", held}}, "test");
  ASSERT_TRUE(correct) << correct.error();
  for (const Notice& n : (*session)->OnEvent(*correct)) EXPECT_NE(n.kind, NoticeKind::kRefused) << n.text;
  EXPECT_EQ((*session)->last_seen()->regions[region].tokens, held);
  EXPECT_TRUE((*session)->last_seen()->regions[region].tokens_certain);
  ASSERT_EQ((*session)->SaveState().corrections.count(region), 1u);
  // The same still board again, after a hand passed over it (a dark frame): the camera reads the region as before,
  // and the game holds the count, so the lower bound stands.
  const cv::Mat still = images.at((*session)->last_observed_frame());
  int64_t index = frame.index;
  (*session)->OnFrame(core::Frame{cv::Mat::zeros(still.size(), still.type()), ++index, "hand.png", ""});
  const int64_t observed = (*session)->frames_observed();
  for (int k = 0; k < 20 && (*session)->frames_observed() == observed; ++k) (*session)->OnFrame(core::Frame{still, ++index, "again.png", ""});
  const bool again = (*session)->frames_observed() > observed && (*session)->SaveState().last_raw.regions[region] == raw;
  ASSERT_TRUE(again) << "region " << region << " read as before";
  EXPECT_EQ((*session)->last_seen()->regions[region], raw);
  EXPECT_EQ((*session)->SaveState().corrections.count(region), 0u);
}

TEST_F(DemoTableTest, TheDemoPlayersCorrectOnlyWhatIsReadWrong) {
  engine::ObservedBoard real;
  real.regions.resize(4);
  real.regions[2].race = engine::Race::kRatmen;
  real.regions[2].tokens = 3;
  engine::ObservedBoard seen = real;
  EXPECT_TRUE(TruthCorrections(seen, real).empty());
  seen.regions[2].tokens = 2;
  const nlohmann::json list = TruthCorrections(seen, real);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["region"], 2);
  EXPECT_EQ(list[0]["tokens"], 3);
  EXPECT_EQ(list[0]["race"], "ratmen");
  // A region confirmed (the question names it) is listed too, but only the misread one is counted as misread.
  int misread = -1;
  const nlohmann::json confirmed = TruthCorrections(seen, real, {0, 2}, &misread);
  ASSERT_EQ(confirmed.size(), 2u);
  EXPECT_EQ(confirmed[0]["region"], 0);
  EXPECT_EQ(misread, 1);
  // No question open: nothing to answer.
  auto session = RefereeSession::Start(Options("no-question.json"), script_->record);
  ASSERT_TRUE(session) << session.error();
  EXPECT_FALSE(table_->Answer(**session, 0).has_value());
}

TEST_F(DemoTableTest, ACancelledPreparationStopsSoonAndLeavesNoFolder) {
  // Cancelled from the progress (as the GUI does from its window's thread) after a few frames.
  const fs::path dir = dir_->path() / "cancelled";
  std::atomic<bool> cancel = false;
  int steps = 0;
  int64_t total = 0;
  auto table = PrepareDemoTable(
      script_->record, dir, kSeed, kFrame,
      [&](const std::string& stage, int64_t, int64_t t) {
        EXPECT_EQ(stage, "frames");
        total = t;
        if (++steps == 3) cancel = true;
      },
      &cancel);
  ASSERT_FALSE(table);
  EXPECT_EQ(table.error(), kDemoCancelled);
  EXPECT_EQ(steps, 3);  // no step after the cancel
  EXPECT_GT(total, 100);
  EXPECT_FALSE(fs::exists(dir));
  // Cancelled before it starts: nothing is made.
  auto before = PrepareDemoTable(script_->record, dir, kSeed, kFrame, nullptr, &cancel);
  ASSERT_FALSE(before);
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace swref::core
