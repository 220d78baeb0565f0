// The referee session (app/core/referee_session.h) on a real table setup: the demo game photographed at a small
// size, the board set up and the tokens enrolled from those photos (as `swref demo` does, once for the suite).
// The frame-by-frame behaviour over a whole game is tested end to end by `swref demo` (cli_test.sh); here: told
// events, refusals that name the event, a full disk that stops the session without losing anything, and resume.
#include <gtest/gtest.h>

#include <filesystem>

#include "app/core/demo.h"
#include "app/core/referee_session.h"
#include "app/core/setup.h"
#include "app/core/verify.h"
#include "datasets/game_frames.h"
#include "tests/app/journal_fixture.h"

namespace swref::core {
namespace {

namespace fs = std::filesystem;

class RefereeSessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    auto demo = RunDemo(7);
    ASSERT_TRUE(demo) << demo.error();
    script_ = new DemoReport(std::move(*demo));
    datasets::GameFramesOptions fo;
    fo.out = (dir_->path() / "table").string();
    fo.frame = {960, 540};
    fo.crops_per_kind = 2;
    auto frames = datasets::WriteGameFrames(script_->record, fo);
    ASSERT_TRUE(frames) << frames.error();
    calibration::SetupRequest sr;
    sr.map = "2p";
    sr.layout = fo.out + "/layout.json";
    sr.reference = fo.out + "/reference.png";
    sr.camera = fo.out + "/camera.json";
    sr.out = (dir_->path() / "setup").string();
    auto setup = core::SetupBoard(sr);
    ASSERT_TRUE(setup) << setup.error();
    auto enrolled = EnrollFromCrops(sr.out, fo.out + "/crops");
    ASSERT_TRUE(enrolled) << enrolled.error();
  }
  static void TearDownTestSuite() {
    delete script_;
    delete dir_;
  }

  RefereeOptions Options(const std::string& record) const {
    RefereeOptions o;
    o.setup = (dir_->path() / "setup").string();
    o.record = (dir_->path() / record).string();
    o.journal.write = testing::FastReplace;
    return o;
  }
  static TableEvent Told(const nlohmann::json& body) {
    auto e = ParseTableEvent(body, "test");
    EXPECT_TRUE(e) << e.error();
    return *e;
  }
  static bool Has(const std::vector<Notice>& notices, NoticeKind kind) {
    return std::any_of(notices.begin(), notices.end(), [&](const Notice& n) { return n.kind == kind; });
  }

  static testing::TempDir* dir_;
  static DemoReport* script_;
};
testing::TempDir* RefereeSessionTest::dir_ = nullptr;
DemoReport* RefereeSessionTest::script_ = nullptr;

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

TEST_F(RefereeSessionTest, AFullDiskStopsTheSessionAndLosesNothing) {
  RefereeOptions o = Options("full.json");
  bool full = false;
  o.journal.write = [&](const fs::path& path, std::string_view content) {
    if (full) return WriteOutcome{false, path.string() + ": No space left on device"};
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

TEST_F(RefereeSessionTest, ASetupForAnotherMapIsRefused) {
  engine::Record header = script_->record;
  header.map = "3p";
  header.players = {"Ann", "Bob", "Cid"};
  header.actions.clear();
  auto s = RefereeSession::Start(Options("other-map.json"), header);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("set up for map 2p, but the game is played on map 3p"), std::string::npos) << s.error();
}

}  // namespace
}  // namespace swref::core
