// swref verify (app/core/verify.h): verified records, records without a journal, each message, the replay against
// `swref play`, and the tamper measure: 1,000 random single edits, deletions, insertions and reorderings of a
// finished refereed record, each detected at the position of the first bad entry.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "app/core/journal_entry.h"
#include "app/core/play.h"
#include "app/core/verify.h"
#include "journal_fixture.h"

namespace swref::core {
namespace {

using nlohmann::json;
using Part = BadPlace::Part;

// One finished refereed record (3-player map), built once for the whole file.
class VerifyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    JournalOptions fast;
    fast.write = testing::FastReplace;
    game_ = new testing::RefereedGame;
    testing::RefereeInjectedGame(*dir_ / "game.json", "3p", 11, fast, game_);
    std::ifstream in(*dir_ / "game.json");
    doc_ = new json(json::parse(in));
  }
  static void TearDownTestSuite() {
    delete doc_;
    delete game_;
    delete dir_;
  }
  static Verification Verify(const json& doc) {
    auto v = VerifyRecordDocument(doc, dir_->path());
    EXPECT_TRUE(v.ok()) << v.error();
    return v.ok() ? std::move(*v) : Verification{};
  }
  static testing::TempDir* dir_;
  static testing::RefereedGame* game_;
  static json* doc_;
};
testing::TempDir* VerifyTest::dir_ = nullptr;
testing::RefereedGame* VerifyTest::game_ = nullptr;
json* VerifyTest::doc_ = nullptr;

TEST_F(VerifyTest, TheFixtureHasEveryKindOfEntry) {
  std::map<std::string, int> kinds;
  for (const json& e : (*doc_)["journal"]) ++kinds[e["kind"].get<std::string>()];
  for (int k = 0; k < kEntryKindCount; ++k) {
    const std::string kind(ToString(static_cast<EntryKind>(k)));
    if (kind != "resolution" || game_->flags > 0) {
      EXPECT_GT(kinds[kind], 0) << kind;
    }
  }
  EXPECT_GT(game_->flags, 5);
}

TEST_F(VerifyTest, Nominal) {
  const Verification v = Verify(*doc_);
  EXPECT_EQ(v.integrity, Integrity::kVerified) << v.problem;
  EXPECT_EQ(v.entries, static_cast<int>((*doc_)["journal"].size()));
  EXPECT_EQ(v.head_hash, (*doc_)["head"]["hash"]);
  ASSERT_TRUE(v.replay.has_value());
  EXPECT_TRUE(v.replay->game.finished());
}

// The verified record's replay gives the same final scores as `swref play` of the same file, and as the game played.
TEST_F(VerifyTest, SameScoresAsPlay) {
  auto v = VerifyRecordFile(*dir_ / "game.json");
  ASSERT_TRUE(v.ok()) << v.error();
  auto play = ReplayRecordFile(*dir_ / "game.json");
  ASSERT_TRUE(play.ok()) << play.error();
  EXPECT_EQ(engine::PlayDocument(*v->replay)["final"], engine::PlayDocument(*play)["final"]);
  auto original = engine::Replay(game_->injected.record, ".");
  ASSERT_TRUE(original.ok());
  EXPECT_EQ(engine::PlayDocument(*v->replay)["final"]["coins"], engine::PlayDocument(*original)["final"]["coins"]);
}

TEST(Verify, ARecordWithoutAJournalReplaysButProvesNothing) {
  auto v = VerifyRecordFile(std::string(SWREF_SOURCE_DIR) + "/examples/first-game.json");
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->integrity, Integrity::kNoChain);
  ASSERT_TRUE(v->replay.has_value());
  EXPECT_EQ(v->replay->game.players()[0].coins, 25);
  EXPECT_EQ(v->replay->game.players()[1].coins, 12);
}

TEST(Verify, RejectsWhatIsNoRecord) {
  testing::TempDir dir;
  std::ofstream(dir / "x.json") << "{not json";
  auto v = VerifyRecordFile(dir / "x.json");
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(VerifyRecordFile(dir / "missing.json").ok());
  EXPECT_FALSE(VerifyRecordDocument(json::array(), ".").ok());
}

// Every message of the chain, once each.
TEST_F(VerifyTest, NamesTheFirstBadEntry) {
  auto problem = [&](const json& doc) { return Verify(doc).problem; };
  json d = *doc_;
  d["journal"][17]["data"]["extra"] = 1;
  EXPECT_EQ(problem(d), "record.journal[17]: hash does not match its content (edited)");
  d = *doc_;
  d["journal"].erase(17);
  EXPECT_EQ(problem(d), "record.journal[17]: prev does not match entry 16 (deleted, inserted or reordered)");
  d = *doc_;
  std::swap(d["journal"][17], d["journal"][18]);
  EXPECT_EQ(problem(d), "record.journal[17]: prev does not match entry 16; it names entry 18 (reordered)");
  d = *doc_;
  json forged = d["journal"][17];
  forged["data"] = {{"do", "pick"}, {"player", "P1"}, {"slot", 0}}, forged["kind"] = "event";
  forged["hash"] = EntryHash(forged);
  d["journal"].insert(d["journal"].begin() + 17, forged);
  EXPECT_EQ(problem(d), "record.journal[17]: not in the chain: entry 18's prev names entry 16 (inserted)");
  d = *doc_;
  d["journal"].erase(d["journal"].size() - 1);
  const size_t n = d["journal"].size();
  EXPECT_EQ(problem(d), "record.journal[" + std::to_string(n) + "]: missing: the head names " + std::to_string(n + 1) + " entries, the journal has " +
                            std::to_string(n) + " (deleted at the end)");
  d = *doc_;
  d["seed"] = 12;
  EXPECT_EQ(problem(d), "record header: its hash does not match journal[0].prev (a header field was edited)");
  d = *doc_;
  d["actions"][5]["player"] = "P3";
  int j5 = -1;
  for (int k = 0, seen = 0; k < static_cast<int>(d["journal"].size()); ++k)
    if (d["journal"][k]["kind"] == "action" && d["journal"][k]["data"]["index"] == 5 && seen++ == 0) j5 = k;
  // The fixture commits, undoes and recommits some conquests: the standing entry for index 5 is the last one.
  for (int k = 0; k < static_cast<int>(d["journal"].size()); ++k)
    if (d["journal"][k]["kind"] == "action" && d["journal"][k]["data"]["index"] == 5) j5 = k;
  EXPECT_EQ(problem(d), "record.actions[5] differs from journal[" + std::to_string(j5) + "]");
}

// Step 5: a record whose chain was recomputed after an edit (the hashes prove nothing then) still has to replay
// to what the journal says.
TEST_F(VerifyTest, AForgedChainStillMeetsTheReplay) {
  json d = *doc_;
  int k = 0;
  while (!(d["journal"][k]["kind"] == "coins")) ++k;
  d["journal"][k]["data"]["coins"]["total"] = 99;
  for (size_t i = k; i < d["journal"].size(); ++i) {  // the forger recomputes every hash from there on
    d["journal"][i]["prev"] = d["journal"][i - 1]["hash"];
    d["journal"][i]["hash"] = EntryHash(d["journal"][i]);
  }
  d["head"]["hash"] = d["journal"].back()["hash"];
  const Verification v = Verify(d);
  EXPECT_EQ(v.integrity, Integrity::kTampered);
  EXPECT_EQ(v.problem, "record.journal[" + std::to_string(k) + "]: the coins recorded differ from the replay's");
}

// ---- The tamper measure ----------------------------------------------------------------------------------------

// A key as a JSON pointer token (RFC 6901).
std::string Escape(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

// Every leaf (a value that is not a non-empty object or array) under `v`, as JSON pointers.
void Leaves(const json& v, const std::string& at, std::vector<std::string>* out) {
  if (v.is_object() && !v.empty()) {
    for (auto it = v.begin(); it != v.end(); ++it) Leaves(it.value(), at + "/" + Escape(it.key()), out);
  } else if (v.is_array() && !v.empty()) {
    for (size_t i = 0; i < v.size(); ++i) Leaves(v[i], at + "/" + std::to_string(i), out);
  } else {
    out->push_back(at);
  }
}

// A different value of the same kind: numbers move by 1..3, strings gain or change a character, booleans flip.
json Changed(const json& v, std::mt19937& rng) {
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_number_integer()) return v.get<int64_t>() + (rng() % 2 ? 1 : -1) * static_cast<int64_t>(1 + rng() % 3);
  if (v.is_number_float()) return v.get<double>() + 0.5;
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.empty() || rng() % 2) return s + static_cast<char>('a' + rng() % 26);
    const size_t i = rng() % s.size();
    s[i] = s[i] == '0' ? '1' : '0';
    return s;
  }
  return 0;  // null, {} or []
}

// Edits one random leaf of doc[where]; true when it changed something.
void EditLeaf(json* doc, const std::string& where, std::mt19937& rng) {
  std::vector<std::string> leaves;
  Leaves((*doc)[json::json_pointer(where)], where, &leaves);
  const json::json_pointer p(leaves[rng() % leaves.size()]);
  (*doc)[p] = Changed((*doc)[p], rng);
}

size_t FirstDifference(const json& a, const json& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

struct Mutation {
  std::string kind;       // edit, delete, insert, reorder
  json doc;
  BadPlace expected;
};

Mutation Mutate(const json& original, int index, std::mt19937& rng) {
  static const char* kKinds[] = {"edit", "delete", "insert", "reorder"};
  Mutation m{kKinds[index % 4], original, {}};
  json& journal = m.doc["journal"];
  json& actions = m.doc["actions"];
  const int n = static_cast<int>(journal.size()), a = static_cast<int>(actions.size());
  const int target = rng() % 10;  // 0..6 the journal, 7..8 the actions, 9 the header (edits only; else the journal)
  const bool on_actions = target == 7 || target == 8;
  if (m.kind == "edit") {
    if (target == 9) {
      static const char* kHeader[] = {"/map", "/players", "/seed", "/races", "/powers", "/variant", "/format"};
      EditLeaf(&m.doc, kHeader[rng() % 7], rng);
      m.expected = {Part::kHeader, -1};
    } else if (on_actions) {
      const int i = rng() % a;
      EditLeaf(&m.doc, "/actions/" + std::to_string(i), rng);
      m.expected = {Part::kActions, i};
    } else {
      const int k = rng() % n;
      EditLeaf(&m.doc, "/journal/" + std::to_string(k), rng);
      m.expected = {Part::kJournal, k};
    }
  } else if (m.kind == "delete") {
    if (on_actions) {
      actions.erase(rng() % a);
      m.expected = {Part::kActions, static_cast<int>(FirstDifference(actions, original["actions"]))};
    } else {
      const int k = rng() % n;
      journal.erase(k);
      m.expected = {Part::kJournal, k};
    }
  } else if (m.kind == "insert") {
    if (on_actions) {
      const int i = rng() % (a + 1);
      actions.insert(actions.begin() + i, original["actions"][rng() % a]);
      m.expected = {Part::kActions, static_cast<int>(FirstDifference(actions, original["actions"]))};
    } else {  // a forged entry with a plausible hash of its own, linked to the entry before it
      const int k = rng() % (n + 1);
      json forged = original["journal"][rng() % n];
      EditLeaf(&forged, "/data", rng);
      forged["seq"] = k;
      forged["prev"] = k == 0 ? json(CanonicalHash(RecordHeader(original))) : original["journal"][k - 1]["hash"];
      forged["hash"] = EntryHash(forged);
      journal.insert(journal.begin() + k, forged);
      m.expected = {Part::kJournal, k};
    }
  } else {
    json& list = on_actions ? actions : journal;
    int i = 0, j = 0;
    do {
      i = rng() % list.size(), j = rng() % list.size();
    } while (i == j || list[i] == list[j]);
    std::swap(list[i], list[j]);
    m.expected = {on_actions ? Part::kActions : Part::kJournal, std::min(i, j)};
  }
  return m;
}

const char* PartName(Part p) {
  switch (p) {
    case Part::kHeader: return "header";
    case Part::kJournal: return "journal";
    case Part::kHead: return "head";
    case Part::kActions: return "actions";
    default: return "none";
  }
}

TEST_F(VerifyTest, TamperMeasureThousandSingleChanges) {
  std::mt19937 rng(20240601);
  std::map<std::string, std::array<int, 3>> counts;  // kind -> {made, detected, at the expected place}
  std::map<std::string, int> by_part;
  int shown = 0;
  for (int i = 0; i < 1000; ++i) {
    const Mutation m = Mutate(*doc_, i, rng);
    auto& c = counts[m.kind];
    ++c[0];
    ++by_part[PartName(m.expected.part)];
    auto v = VerifyRecordDocument(m.doc, dir_->path());
    const bool detected = v.ok() && v->integrity == Integrity::kTampered;
    c[1] += detected;
    const bool placed = detected && v->bad == m.expected;
    c[2] += placed;
    if (!placed && shown++ < 5)
      ADD_FAILURE() << m.kind << " #" << i << " expected at " << PartName(m.expected.part) << "[" << m.expected.index << "], got "
                    << (v.ok() ? (v->problem.empty() ? "verified" : v->problem) : "error: " + v.error());
  }
  int total = 0, placed = 0;
  for (const auto& [kind, c] : counts) {
    std::printf("[ measure  ] %-8s %4d made, %4d detected, %4d at the first bad entry\n", kind.c_str(), c[0], c[1], c[2]);
    total += c[0], placed += c[2];
  }
  std::printf("[ measure  ] targets: journal %d, actions %d, header %d; record of %zu entries, %zu actions\n", by_part["journal"], by_part["actions"],
              by_part["header"], (*doc_)["journal"].size(), (*doc_)["actions"].size());
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(placed, 1000);
}

}  // namespace
}  // namespace swref::core
