#include "journal_fixture.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "engine/replay.h"

namespace swref::core::testing {
namespace {

using engine::Action;
using engine::ActionType;

bool ChangesBoard(const Action& a) {
  return a.type == ActionType::kConquer || a.type == ActionType::kAbandon || a.type == ActionType::kRedeploy ||
         a.type == ActionType::kWithdraw || a.type == ActionType::kDecline;
}

}  // namespace

engine::WriteOutcome FastReplace(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path temp = path.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary);
    out << content;
    if (!out) return {false, temp.string() + ": cannot write"};
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  return ec ? engine::WriteOutcome{false, ec.message()} : engine::WriteOutcome{true, ""};
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "swref-test-XXXXXX").string();
  path_ = ::mkdtemp(pattern.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void RefereeInjectedGame(const std::filesystem::path& path, const std::string& map_key, uint64_t seed, JournalOptions options, RefereedGame* out) {
  auto map = engine::BuiltinMap(map_key);
  ASSERT_TRUE(map.ok()) << map.error();
  auto injected = engine::PlayInjectedGame(*map, seed);
  ASSERT_TRUE(injected.ok()) << injected.error();
  out->injected = *injected;
  const engine::Record& record = injected->record;
  engine::Record header = record;
  header.actions.clear();
  auto journal = Journal::Create(path, header, {{"referee", "journal_fixture"}, {"seed", seed}}, options);
  ASSERT_TRUE(journal.ok()) << journal.error();
  RefereeInto(*journal, record, out);
}

void RefereeInto(Journal& j, const engine::Record& record, RefereedGame* out) {
  int conquests = 0, accepted_conquests = 0;
  for (const Action& a : record.actions) {
    const std::string player = record.players[a.player];
    if (a.type == ActionType::kConquer && a.die >= 0) {
      ASSERT_TRUE(j.AppendEvent({{"player", player}, {"do", "die"}, {"face", a.die}}).ok());
    }
    if (a.type == ActionType::kPick || a.type == ActionType::kDecline || a.type == ActionType::kAlly || a.type == ActionType::kEndTurn) {
      ASSERT_TRUE(j.AppendEvent(engine::ToJson(a, record.players)).ok());
    }
    if (a.type == ActionType::kConquer && ++conquests % 7 == 0) {
      auto q = j.AppendQuestion("region " + std::to_string(a.region) + ": a stack seen from above; how many tokens?", {2, 3, 4});
      ASSERT_TRUE(q.ok()) << q.error();
      ASSERT_TRUE(j.AppendAnswer(*q, 3, conquests % 2 == 0).ok());
      ++out->questions;
    }
    if (a.type == ActionType::kConquer && j.game().Check(a) != engine::Code::kOk) {
      auto flag = j.AppendFlag(a);
      ASSERT_TRUE(flag.ok()) << flag.error();
      ASSERT_TRUE(j.AppendResolution(*flag, false, "taken back after the flag").ok());
      ++out->flags;
      continue;
    }
    if (a.type == ActionType::kConquer && ++accepted_conquests % 9 == 0) {
      ASSERT_TRUE(j.AppendAction(a).ok());
      ASSERT_TRUE(j.AppendUndo("the count was misread").ok());
      ++out->undos;
    }
    auto c = j.AppendAction(a);
    ASSERT_TRUE(c.ok()) << c.error();
    ASSERT_TRUE(c->step.applied()) << c->step.verdict.why;
    if (ChangesBoard(a)) {
      const nlohmann::json board = engine::RegionsDocument(j.game());
      auto o = j.AppendObservation({"frame-" + std::to_string(j.size()) + ".jpg", j.size(), ObservationSha256(board), {a.region >= 0 ? a.region : 0}});
      ASSERT_TRUE(o.ok()) << o.error();
      if (++out->observations % 13 == 0) {
        ASSERT_TRUE(j.AppendCorrection(*o, "the players recounted a stack", {{"region", a.region}}).ok());
        ++out->corrections;
      }
    }
  }
  ASSERT_TRUE(j.closed()) << "the game did not finish";
}

}  // namespace swref::core::testing
