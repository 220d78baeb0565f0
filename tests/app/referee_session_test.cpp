// The referee session (app/core/referee_session.h) on a real table setup: the demo game photographed at a small
// size, the board set up and the tokens enrolled from those photos (PrepareDemoTable, as `swref demo` does, once
// for the suite).
// The frame-by-frame behaviour over a whole game is tested end to end by `swref demo` (cli_test.sh); here: told
// events, refusals that name the event, a full disk that stops the session without losing anything, and resume.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/core/demo.h"
#include "app/core/demo_table.h"
#include "app/core/referee_run.h"
#include "app/core/referee_session.h"
#include "app/core/resume_point.h"
#include "app/core/verify.h"
#include "tests/app/journal_fixture.h"
#include "tests/app/suite_table_fixture.h"

namespace swref::core {
namespace {

namespace fs = std::filesystem;

class RefereeSessionTest : public testing::SuiteTableTest {
 protected:
  static TableEvent Told(const nlohmann::json& body) {
    auto e = ParseTableEvent(body, "test");
    EXPECT_TRUE(e) << e.error();
    return *e;
  }
  // A folder with the table's first `n` frames (made once per n).
  static std::string FirstFrames(int n) {
    const fs::path dir = dir_->path() / ("first" + std::to_string(n));
    if (!fs::exists(dir)) {
      fs::create_directories(dir);
      std::vector<fs::path> all;
      for (const auto& e : fs::directory_iterator(table_->frames)) all.push_back(e.path());
      std::sort(all.begin(), all.end());
      for (int i = 0; i < n && i < static_cast<int>(all.size()); ++i) fs::copy_file(all[i], dir / all[i].filename());
    }
    return dir.string();
  }
  static std::vector<TableEvent> Events() { return table_->events; }
  static std::string ReadAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static bool Has(const std::vector<Notice>& notices, NoticeKind kind) {
    return std::any_of(notices.begin(), notices.end(), [&](const Notice& n) { return n.kind == kind; });
  }
};

TEST_F(RefereeSessionTest, ToldActionsAreCommittedAndRefusalsNameTheEvent) {
  auto s = RefereeSession::Start(Options("told.json"), script_->record);
  ASSERT_TRUE(s) << s.error();
  auto picked = (*s)->OnEvent(Told({{"after_frame", 1}, {"player", "Ann"}, {"do", "pick"}, {"slot", 3}}));
  ASSERT_TRUE(Has(picked, NoticeKind::kCommitted));
  EXPECT_EQ((*s)->journal().actions().size(), 1u);
  auto wrong = (*s)->OnEvent(Told({{"after_frame", 2}, {"player", "Bob"}, {"do", "end_turn"}}));
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].kind, NoticeKind::kRefused);
  EXPECT_EQ(wrong[0].text.rfind("Bob's end_turn (after frame 2) refused: ", 0), 0u) << wrong[0].text;
  auto no_question = (*s)->OnEvent(Told({{"do", "answer"}, {"option", 0}}));
  ASSERT_EQ(no_question.size(), 1u);
  EXPECT_EQ(no_question[0].text, "answer refused: there is no open question to answer");
  auto no_board = (*s)->OnEvent(Told({{"do", "correct"}, {"region", 3}, {"tokens", 2}}));
  EXPECT_EQ(no_board[0].text, "correct refused: nothing has been observed yet to correct");
}

TEST_F(RefereeSessionTest, ADieNotUsedEndsWithItsPlayersTurn) {
  // Ann rolls for a last attempt that fails (nothing changes on the board) and ends her turn: Bob's first conquest
  // must not be read as reinforced by her die (that would end his conquests there). A die Bob tells before Ann's
  // end of turn is committed (it waited for the board) is his, and stays.
  auto s = RefereeSession::Start(Options("die.json"), script_->record);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Ann"}, {"do", "pick"}, {"slot", 3}})), NoticeKind::kCommitted));
  (*s)->OnEvent(Told({{"player", "Ann"}, {"do", "die"}, {"face", 0}}));
  EXPECT_EQ((*s)->SaveState().die, 0);
  EXPECT_EQ((*s)->SaveState().die_player, 0);
  ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Ann"}, {"do", "end_turn"}})), NoticeKind::kCommitted));
  EXPECT_EQ((*s)->SaveState().die, -1);
  ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Bob"}, {"do", "pick"}, {"slot", 0}})), NoticeKind::kCommitted));
  (*s)->OnEvent(Told({{"player", "Ann"}, {"do", "die"}, {"face", 2}}));  // told early: Ann's next turn
  ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Bob"}, {"do", "end_turn"}})), NoticeKind::kCommitted));
  EXPECT_EQ((*s)->SaveState().die, 2);
  EXPECT_EQ((*s)->SaveState().die_player, 0);
  // Someone who is not playing cannot roll for the game.
  const auto stranger = (*s)->OnEvent(Told({{"player", "Carl"}, {"do", "die"}, {"face", 3}}));
  ASSERT_TRUE(Has(stranger, NoticeKind::kRefused));
  EXPECT_EQ((*s)->SaveState().die, 2);
}

TEST_F(RefereeSessionTest, AFullDiskStopsTheSessionAndLosesNothing) {
  RefereeOptions o = Options("full.json");
  bool full = false;
  o.journal.write = [&](const fs::path& path, std::string_view content) {
    if (full) return engine::WriteOutcome{false, path.string() + ": No space left on device"};
    return testing::FastReplace(path, content);
  };
  auto s = RefereeSession::Start(o, script_->record);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Ann"}, {"do", "pick"}, {"slot", 3}})), NoticeKind::kCommitted));
  const int entries = (*s)->journal().size();
  full = true;
  auto stopped = (*s)->OnEvent(Told({{"player", "Ann"}, {"do", "decline"}}));
  ASSERT_TRUE(Has(stopped, NoticeKind::kStopped));
  EXPECT_NE(stopped.back().text.find("No space left on device"), std::string::npos) << stopped.back().text;
  // Everything after is refused with the reason, until the disk has room again.
  EXPECT_TRUE(Has((*s)->OnEvent(Told({{"player", "Ann"}, {"do", "end_turn"}})), NoticeKind::kStopped));
  full = false;
  EXPECT_EQ((*s)->Retry(), "");
  // The record on disk holds everything committed before the failure, and verifies.
  auto verified = VerifyRecordFile(o.record);
  ASSERT_TRUE(verified) << verified.error();
  EXPECT_EQ(verified->integrity, Integrity::kVerified) << verified->problem;
  EXPECT_GE((*s)->journal().size(), entries);
}

TEST_F(RefereeSessionTest, ResumeContinuesTheRecord) {
  RefereeOptions o = Options("resume.json");
  {
    auto s = RefereeSession::Start(o, script_->record);
    ASSERT_TRUE(s) << s.error();
    ASSERT_TRUE(Has((*s)->OnEvent(Told({{"player", "Ann"}, {"do", "pick"}, {"slot", 3}})), NoticeKind::kCommitted));
  }
  // A new game on an existing record is refused; --resume continues it.
  auto again = RefereeSession::Start(o, script_->record);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().find("already exists"), std::string::npos);
  o.resume = true;
  auto resumed = RefereeSession::Start(o, engine::Record{});
  ASSERT_TRUE(resumed) << resumed.error();
  EXPECT_EQ((*resumed)->journal().actions().size(), 1u);
  EXPECT_EQ((*resumed)->players(), (std::vector<std::string>{"Ann", "Bob"}));
}

// A crash at any write (the record's or the resume point's; the journal's with its temporary file left, as when
// the process dies between the durable write and the rename), then `--resume` with the same frames and events:
// the record ends byte for byte as the uninterrupted run's (the clock is fixed), and the resume point is gone once
// the record is closed. The crash is an exception out of the writer: nothing after it runs, as when killed.
TEST_F(RefereeSessionTest, AResumeAfterACrashAtAnyWriteGivesTheUninterruptedRecord) {
  struct Crash {};
  const std::string frames = FirstFrames(40);
  const std::vector<TableEvent> events = Events();
  int writes = 0, crash_at = -1;
  std::string note;
  auto run = [&](RefereeOptions o) {
    o.journal.clock = [] { return std::string("2025-01-01T00:00:00.000Z"); };
    o.journal.write = [&](const fs::path& path, std::string_view content) {
      if (++writes == crash_at) {
        std::string left = ".";  // the temporary file a crash leaves (built by appends: GCC 12 warns falsely on "." + s)
        left += path.filename().string();
        left += ".tmp.Crash1";
        std::ofstream(path.parent_path() / left, std::ios::binary) << content;
        throw Crash{};
      }
      return testing::FastReplace(path, content);
    };
    auto s = RefereeSession::Start(o, script_->record);
    ASSERT_TRUE(s) << s.error();
    note = (*s)->resume_note();
    auto source = OpenImageFolder(frames);
    EXPECT_TRUE(source) << source.error();
    auto summary = RunReferee(**s, **source, events, nullptr);
    EXPECT_TRUE(summary) << summary.error();
    EXPECT_FALSE(summary->stopped);
  };
  run(Options("whole.json"));
  const std::string whole = ReadAll(dir_->path() / "whole.json");
  // (16 writes: the game waits on an early question that nobody answers here; the events told after it wait with
  // it, a die too, and are kept in the resume points.)
  const int total = writes;
  ASSERT_GT(total, 12);
  EXPECT_FALSE(fs::exists(ResumePointPath(dir_->path() / "whole.json")));
  for (int at : {2, total / 3, total / 2, total - 3}) {
    SCOPED_TRACE("crash at write " + std::to_string(at) + " of " + std::to_string(total));
    RefereeOptions o = Options("crash" + std::to_string(at) + ".json");
    writes = 0, crash_at = at;
    EXPECT_THROW(run(o), Crash);
    crash_at = -1;
    o.resume = o.rejudge = true;
    const bool spoil = at == total / 2;  // a resume point that does not fit the game: every frame judged again
    if (spoil) {
      auto point = nlohmann::json::parse(ReadAll(ResumePointPath(o.record)));
      point["session"]["die"] = 9;
      std::ofstream(ResumePointPath(o.record)) << point.dump();
    }
    run(o);
    if (spoil) {
      EXPECT_NE(note.find("re-judging every frame from the first (no usable resume point: "), std::string::npos) << note;
      EXPECT_NE(note.find(".resume.session.die: expected an integer from -1 to 3"), std::string::npos) << note;
    } else {
      EXPECT_TRUE(note.rfind("resuming from frame ", 0) == 0 ||
                  note.find("none (a crash before the first was written)") != std::string::npos)
          << note;
    }
    EXPECT_EQ(ReadAll(o.record), whole);
    EXPECT_FALSE(fs::exists(ResumePointPath(o.record)));
    for (const auto& e : fs::directory_iterator(dir_->path()))
      EXPECT_EQ(e.path().filename().string().find(".crash"), std::string::npos) << e.path();
  }
}

// Frames come in order: a duplicate, or a frame that arrives late and out of order, is ignored with a notice and
// changes nothing; a gap is no error.
TEST_F(RefereeSessionTest, DuplicateAndOutOfOrderFramesAreIgnoredWithANotice) {
  auto s = RefereeSession::Start(Options("order.json"), script_->record);
  ASSERT_TRUE(s) << s.error();
  auto source = OpenImageFolder(FirstFrames(40));
  ASSERT_TRUE(source);
  std::vector<Frame> frames(4);
  for (Frame& f : frames) ASSERT_TRUE((*source)->Next(&f));
  for (int i : {0, 1}) (*s)->OnFrame(frames[i]);
  const int entries = (*s)->journal().size();
  for (int i : {1, 0}) {
    auto n = (*s)->OnFrame(frames[i]);
    ASSERT_EQ(n.size(), 1u);
    EXPECT_EQ(n[0].kind, NoticeKind::kVision);
    EXPECT_EQ(n[0].text, "frame " + frames[i].name + " ignored: its index " + std::to_string(i) +
                             " is not after the last frame's, 1 (a duplicate, or late and out of order)");
  }
  EXPECT_EQ((*s)->frames_seen(), 2);
  Frame later = frames[3];
  later.index = 9;  // frames 2 to 8 dropped
  for (const Notice& n : (*s)->OnFrame(later)) EXPECT_EQ(n.text.find("ignored"), std::string::npos) << n.text;
  EXPECT_EQ((*s)->last_frame(), 9);
  EXPECT_EQ((*s)->frames_seen(), 3);
  EXPECT_GE((*s)->journal().size(), entries);
}

// The camera is unplugged for a while and comes back: the frames it could not give are problem frames (a vision
// notice each), it is opened again, and the game goes on from the frames after: the same actions are committed as
// from the same frames without the loss.
TEST_F(RefereeSessionTest, ACameraLostAndBackKeepsTheGameGoing) {
  class FlakyCamera : public CameraDevice {
   public:
    explicit FlakyCamera(std::unique_ptr<FrameSource> frames) : frames_(std::move(frames)) {}
    bool Open() override { return ++opens_ >= 2; }  // unplugged: the first attempt to open it fails, the second finds it
    bool Read(cv::Mat* image) override {
      if (++reads_ == 12) return opens_ = 0, false;  // unplugged at its 12th frame
      Frame f;
      if (!frames_->Next(&f)) return false;
      *image = f.image;
      return true;
    }
    void Close() override {}

   private:
    std::unique_ptr<FrameSource> frames_;
    int reads_ = 0, opens_ = 0;
  };
  auto folder = OpenImageFolder(FirstFrames(30));
  ASSERT_TRUE(folder);
  auto camera = CameraSource(std::make_unique<FlakyCamera>(std::move(*folder)), "camera 0", CameraRetry{5, std::chrono::milliseconds(0)});
  auto s = RefereeSession::Start(Options("camera.json"), script_->record);
  ASSERT_TRUE(s) << s.error();
  std::vector<std::string> problems;
  auto run = RunReferee(**s, *camera, {}, [&](const Notice& n) {
    if (n.kind == NoticeKind::kVision && n.text.find("no frame") != std::string::npos) problems.push_back(n.text);
  });
  ASSERT_TRUE(run) << run.error();
  ASSERT_EQ(problems.size(), 2u + 5u);  // unplugged (2 attempts), then at the end of the frames gone (5 attempts)
  EXPECT_EQ(problems[0], "frame camera 0 #11: camera 0: no frame (lost; reconnecting, attempt 1 of 5)");
  EXPECT_EQ(problems[1], "frame camera 0 #12: camera 0: no frame (lost; reconnecting, attempt 2 of 5)");
  EXPECT_EQ(problems[6], "frame camera 0 #36: camera 0: no frame (lost; reconnecting, attempt 5 of 5)");
  EXPECT_EQ(run->frames, 30 + 2 + 5);
  // The same frames from the folder, no loss: the same game.
  auto again = RefereeSession::Start(Options("folder.json"), script_->record);
  ASSERT_TRUE(again);
  auto source = OpenImageFolder(FirstFrames(30));
  ASSERT_TRUE(RunReferee(**again, **source, {}, nullptr));
  auto forms = [](const RefereeSession& r) {
    nlohmann::json list = nlohmann::json::array();
    for (const engine::Action& a : r.journal().actions()) list.push_back(engine::ToJson(a, r.players()));
    return list;
  };
  EXPECT_EQ(forms(**s), forms(**again));
  EXPECT_EQ((*s)->frames_observed(), (*again)->frames_observed()) << "the frames after the camera came back were judged";
  EXPECT_GT((*s)->frames_observed(), 2);
}

TEST_F(RefereeSessionTest, ASetupForAnotherMapIsRefused) {
  engine::Record header = script_->record;
  header.map = "3p";
  header.players = {"Ann", "Bob", "Cid"};
  header.actions.clear();
  auto s = RefereeSession::Start(Options("other-map.json"), header);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("set up for map 2p, but the game is played on map 3p"), std::string::npos) << s.error();
}

// A flag names every region its attempt names, each once: a SoloPlay conquest's attackers, the hero joining it and
// the regions the opposition retreats into too (the players are asked to look at all of them).
TEST(RegionsNamed, AConquestNamesItsAttackersHeroAndRetreat) {
  engine::Action a;
  a.type = engine::ActionType::kConquer;
  a.region = 7;
  a.from = {{3, 2}, {7, 1}};
  a.hero = 4;
  a.retreat = {9, 3};
  EXPECT_EQ(RegionsNamed(a), (std::vector<int>{7, 3, 4, 9}));
  engine::Action r;
  r.type = engine::ActionType::kRedeploy;
  r.placement = {{1, 2}, {2, 1}};
  r.move = {2, 5, 1};
  r.heroes = {1, 6};
  EXPECT_EQ(RegionsNamed(r), (std::vector<int>{1, 2, 5, 6}));
}

}  // namespace
}  // namespace swref::core
