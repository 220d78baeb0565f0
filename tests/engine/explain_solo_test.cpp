// Explain in a SoloPlay game (engine/explain.h, docs/solo.md "Refereeing a solo game"): each kind of solo move read
// back from the board it leaves, the illegal ones flagged with the rules' code and sentence, and the readings no
// solo action can make asked about. The game is examples/solo-2p.json, cut after some of its actions.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/explain.h"
#include "engine/explain_match.h"
#include "engine/record.h"
#include "engine/table_script.h"

namespace swref::engine {
namespace {

using nlohmann::json;

json Example() {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/examples/solo-2p.json");
  return json::parse(in);
}

// The example game after its first `n` actions (each must be accepted).
Game SoloAfter(size_t n) {
  json doc = Example();
  doc["actions"] = json(std::vector<json>(doc["actions"].begin(), doc["actions"].begin() + static_cast<long>(n)));
  auto record = ParseRecord(doc);
  EXPECT_TRUE(record.ok()) << record.error();
  auto game = StartGame(*record, ".");
  EXPECT_TRUE(game.ok()) << game.error();
  Game g = std::move(*game);
  for (const Action& a : record->actions) {
    const Verdict v = g.Apply(a);
    EXPECT_TRUE(v.ok()) << v.why << " at " << ToJson(a, {"Ann"}).dump();
  }
  return g;
}

int OppositionRegion(const Game& g) {
  for (int i = 0; i < g.map().size(); ++i)
    if (g.board()[i].HasRace() && g.board()[i].owner == kOpposition && g.board()[i].tokens > 1) return i;
  return -1;
}

// Opposition regions have owner 1 while the game has one player: their owner is named, never read out of range.
TEST(ExplainSolo, AnOppositionRegionLosingTokensIsAQuestionNamingTheOpposition) {
  const Game g = SoloAfter(23);  // round 2 has begun
  const int region = OppositionRegion(g);
  ASSERT_GE(region, 0);
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[region].tokens -= 1;
  const Explanation e = Explain(g, seen);
  EXPECT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{region});
  EXPECT_NE(e.text.find("the opposition"), std::string::npos) << e.text;
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

Action ExampleAction(size_t k) {
  auto record = ParseRecord(Example());
  EXPECT_TRUE(record.ok());
  return record->actions[k];
}

// The board after the example's action `k`, read back from the game before it (the die told, when it has one): the
// reading applies, and leaves the game the record leaves.
Explanation ReadBack(size_t k) {
  Game g = SoloAfter(k);
  Game truth = g;
  const Action next = ExampleAction(k);
  EXPECT_TRUE(truth.Apply(next).ok());
  ExplainContext context;
  context.die = next.die;
  const Explanation e = Explain(g, ObserveBoard(truth.board()), context);
  EXPECT_EQ(e.kind, ExplainKind::kExplained) << "action " << k << ": " << e.text;
  EXPECT_TRUE(ApplyReading(&g, e.reading).ok());
  EXPECT_EQ(StateKey(g), StateKey(truth)) << "action " << k << ": " << e.text;
  return e;
}

TEST(ExplainSolo, SetupConquestsFromHand) {
  const Explanation e = ReadBack(0);
  ASSERT_EQ(e.reading.actions.size(), 1u);
  EXPECT_EQ(e.reading.actions[0].action.type, ActionType::kConquer);
  EXPECT_EQ(e.reading.actions[0].action.region, 20);
  ReadBack(5);
}

TEST(ExplainSolo, SetupReinforcementWithTheToldDie) {
  const Explanation e = ReadBack(3);
  EXPECT_TRUE(e.reading.die_used);
}

TEST(ExplainSolo, SetupBalancingAndHeroes) {
  ReadBack(9);
  const Explanation e = ReadBack(15);
  ASSERT_EQ(e.reading.actions.size(), 1u);
  EXPECT_EQ(e.reading.actions[0].action.heroes.size(), 2u);
}

TEST(ExplainSolo, FirstTurnConquestsFromHand) { ReadBack(18), ReadBack(21); }

TEST(ExplainSolo, AttacksFromNeighbouringRegions) {
  const Explanation e = ReadBack(23);
  ASSERT_EQ(e.reading.actions.size(), 1u);
  const Action& a = e.reading.actions[0].action;
  EXPECT_EQ(a.region, 5);
  int attackers = 0;
  for (const Placement& p : a.from) attackers += p.count;
  EXPECT_EQ(attackers, 4);
  ReadBack(24), ReadBack(25), ReadBack(35), ReadBack(39);
}

TEST(ExplainSolo, ReinforcedAttackAndTheMove) {
  EXPECT_TRUE(ReadBack(26).reading.die_used);
  const Explanation e = ReadBack(27);
  ASSERT_EQ(e.reading.actions.size(), 1u);
  EXPECT_EQ(e.reading.actions[0].action.move.from, 11);
  EXPECT_EQ(e.reading.actions[0].action.move.to, 6);
  ReadBack(36), ReadBack(41), ReadBack(51);
}

TEST(ExplainSolo, Erosions) {
  const Explanation e = ReadBack(33);
  ASSERT_EQ(e.reading.actions.size(), 1u);
  EXPECT_EQ(e.reading.actions[0].action.type, ActionType::kErode);
  ReadBack(47), ReadBack(48), ReadBack(53), ReadBack(58);
}

// A failed attack lifts its attackers: pending until they come back next to the failed region, then read as the
// failed attempt and the tokens added.
TEST(ExplainSolo, FailedAttackIsReadWhenItsTokensComeBack) {
  Game g = SoloAfter(55);
  Game truth = g;
  ASSERT_TRUE(truth.Apply(ExampleAction(55)).ok());
  ExplainContext context;
  context.die = 0;
  const Explanation lifted = Explain(g, ObserveBoard(truth.board()), context);
  EXPECT_EQ(lifted.kind, ExplainKind::kPending) << lifted.text;
  ASSERT_TRUE(truth.Apply(ExampleAction(56)).ok());
  const Explanation back = Explain(g, ObserveBoard(truth.board()), context);
  ASSERT_EQ(back.kind, ExplainKind::kExplained) << back.text;
  EXPECT_TRUE(back.reading.die_used);
  ASSERT_EQ(back.reading.actions.size(), 2u);
  EXPECT_EQ(back.reading.actions[0].action.die, 0);
  EXPECT_FALSE(back.reading.actions[1].action.add.empty());
  ASSERT_TRUE(ApplyReading(&g, back.reading).ok());
  EXPECT_EQ(StateKey(g), StateKey(truth));
}

// A stack in decline read from above at its lower bound (2 tokens seen as "1+") while the next race conquers is no
// erosion: erosions come after the redeployment, so read as one it was flagged against the rules (wrong_phase) at
// every conquest of that turn (the referee bench's solo 4p seed 3, 4 false flags). The conquest is read; the region
// fits loosely.
TEST(ExplainSolo, AStackInDeclineReadAtItsLowerBoundIsNoErosion) {
  auto record = ParseRecord(Example());
  ASSERT_TRUE(record.ok());
  bool tried = false;
  for (size_t k = 1; k < record->actions.size() && !tried; ++k) {
    const Action& next = record->actions[k];
    if (next.type != ActionType::kConquer || next.die >= 0) continue;
    const Game g = SoloAfter(k);
    if (g.turn().conquests_over) continue;
    int stack = -1;
    for (int i = 0; i < g.map().size() && stack < 0; ++i) {
      const RegionState& r = g.board()[i];
      if (r.HasRace() && r.decline && r.owner == 0 && r.tokens >= 2 && i != next.region) stack = i;
    }
    if (stack < 0) continue;
    Game truth = g;
    ASSERT_TRUE(truth.Apply(next).ok());
    if (truth.board()[stack].tokens != g.board()[stack].tokens) continue;
    tried = true;
    ObservedBoard seen = ObserveBoard(truth.board());
    seen.regions[stack].tokens = 1, seen.regions[stack].tokens_certain = false;
    const Explanation e = Explain(g, seen);
    EXPECT_NE(e.kind, ExplainKind::kIllegal) << "action " << k << ", region " << stack << ": " << e.text;
    for (const ExplainedAction& a : e.reading.actions) EXPECT_NE(a.action.type, ActionType::kErode) << "action " << k << ": " << e.text;
  }
  EXPECT_TRUE(tried) << "the example has a conquest while a race in decline holds a region of 2 tokens";
}

// A setup race's region read from above at its lower bound (a stack of two seen as "1+") beside its next conquest is
// no balancing: it still holds tokens in hand, so read as one it was flagged against the rules (wrong_phase; the
// referee bench's solo 5p seed 4, frame 51). The conquest is read; the region keeps its count.
TEST(ExplainSolo, ASetupRegionReadAtItsLowerBoundIsNoBalancing) {
  auto record = ParseRecord(Example());
  ASSERT_TRUE(record.ok());
  int tried = 0;
  for (size_t k = 1; k < record->actions.size(); ++k) {
    const Action& next = record->actions[k];
    if (next.type != ActionType::kConquer || next.die >= 0) continue;
    const Game g = SoloAfter(k);
    if (g.solo()->phase != SoloPhase::kSetup) continue;
    Game truth = g;
    ASSERT_TRUE(truth.Apply(next).ok());
    const int race = truth.board()[next.region].race;
    for (int stack = 0; stack < g.map().size(); ++stack) {
      const RegionState& r = g.board()[stack];
      if (stack == next.region || r.race != race || r.tokens < 2) continue;
      ++tried;
      ObservedBoard seen = ObserveBoard(truth.board());
      seen.regions[stack].tokens = 1, seen.regions[stack].tokens_certain = false;
      const Explanation e = Explain(g, seen);
      EXPECT_NE(e.kind, ExplainKind::kIllegal) << "action " << k << ", region " << stack << ": " << e.text;
      for (const ExplainedAction& a : e.reading.actions)
        EXPECT_NE(a.action.type, ActionType::kRedeploy) << "action " << k << ", region " << stack << ": " << e.text;
    }
  }
  EXPECT_GT(tried, 0) << "the example has a setup conquest while the race holds a region of 2 tokens";
}

// The end of a setup race's placement told while its regions read as unchanged only because a count is a lower
// bound below what the game holds (a stack seen from above): whether the balancing moved tokens is asked, naming
// that region. Read as nothing moved, the game balanced on its own and the table's balancing could never be read
// after (the referee bench's solo 3p seed 6 stalled in its setup).
TEST(ExplainSolo, APlacementEndingOverAHiddenCountAsksAboutTheBalancing) {
  const Game g = SoloAfter(4);  // the first setup race has conquered; the end of its placement is the next action
  ASSERT_EQ(g.solo()->phase, SoloPhase::kSetup);
  const int race = g.SoloRace();
  int stack = -1;
  for (int i = 0; i < g.map().size() && stack < 0; ++i)
    if (g.board()[i].race == race && g.board()[i].tokens >= 2) stack = i;
  ASSERT_GE(stack, 0);
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[stack].tokens -= 1, seen.regions[stack].tokens_certain = false;
  ExplainContext ending;
  ending.turn_ending = true;
  const Explanation e = Explain(g, seen, ending);
  EXPECT_EQ(e.kind, ExplainKind::kQuestion) << e.text;
  EXPECT_EQ(e.regions, std::vector<int>{stack}) << e.text;
  EXPECT_NE(e.text.find("balancing"), std::string::npos) << e.text;
  // Before the end is told the lower bound is no change; read exactly, nothing is asked at the end either.
  EXPECT_NE(Explain(g, seen).kind, ExplainKind::kQuestion);
  EXPECT_NE(Explain(g, ObserveBoard(g.board()), ending).kind, ExplainKind::kQuestion);
}

// The combo's race seen conquering before the pick is told: the pick (its cost) and the conquest.
TEST(ExplainSolo, ThePickIsReadFromTheBoard) {
  Game g = SoloAfter(29);
  Game truth = g;
  ASSERT_TRUE(truth.Apply(ExampleAction(29)).ok());
  ASSERT_TRUE(truth.Apply(ExampleAction(30)).ok());
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  ASSERT_EQ(e.reading.actions.size(), 2u);
  EXPECT_EQ(e.reading.actions[0].action.type, ActionType::kPick);
  ASSERT_TRUE(ApplyReading(&g, e.reading).ok());
  EXPECT_EQ(StateKey(g), StateKey(truth));
}

// Tokens turned to their decline side before the end of the turn is told: pending; nothing to judge when it is.
TEST(ExplainSolo, DeclineSeenBeforeItIsTold) {
  const Game g = SoloAfter(28);
  Game truth = g;
  ASSERT_TRUE(truth.Apply(ExampleAction(28)).ok());
  const ObservedBoard seen = ObserveBoard(truth.board());
  const Explanation early = Explain(g, seen);
  EXPECT_EQ(early.kind, ExplainKind::kPending) << early.text;
  EXPECT_NE(early.text.find("decline"), std::string::npos);
  ExplainContext ending;
  ending.turn_ending = true;
  EXPECT_EQ(Explain(g, seen, ending).kind, ExplainKind::kNoChange);
}

// Tokens lifted for an attack and not yet put down: pending.
TEST(ExplainSolo, LiftedTokensArePending) {
  const Game g = SoloAfter(35);
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[20].tokens -= 2;
  EXPECT_EQ(Explain(g, seen).kind, ExplainKind::kPending);
}

Explanation Attempt(const Game& g, const Action& bad) {
  const Explanation e = Explain(g, ObserveBoard(SoloAttemptedBoard(g, bad)));
  EXPECT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  return e;
}

TEST(ExplainSolo, FlagsAnAttackFromARegionThatDoesNotNeighbourTheTarget) {
  int tried = 0;
  for (size_t k = 0; k < Example()["actions"].size(); ++k) {  // each attack of the example, from a far region instead
    const Action next = ExampleAction(k);
    if (next.from.empty()) continue;
    const Game g = SoloAfter(k);
    const int race = g.players()[0].active;
    for (int far = 0; far < g.map().size(); ++far) {
      if (g.board()[far].race != race || g.board()[far].tokens < 2 || g.SoloNeighbours(static_cast<Race>(race), far, next.region)) continue;
      Action bad = next;
      bad.die = -1;
      bad.from = {{far, g.board()[far].tokens - 1}};
      const Explanation e = Attempt(g, bad);
      EXPECT_EQ(e.verdict().code, Code::kNotAdjacent) << "action " << k << ": " << e.text;
      ++tried;
      break;
    }
  }
  EXPECT_GT(tried, 0);
}

TEST(ExplainSolo, FlagsASecondMove) {
  const Game g = SoloAfter(37);  // the move 19 -> 20 is done
  Action second;
  second.type = ActionType::kRedeploy;
  second.move = {20, 18, 2};
  const Explanation e = Attempt(g, second);
  EXPECT_EQ(e.verdict().code, Code::kWrongPhase) << e.text;
}

TEST(ExplainSolo, FlagsAnErosionThatStopsShort) {
  const Game g = SoloAfter(58);  // the Ratmen lose 2: regions 11 then 6
  Action bad = ExampleAction(58);
  bad.regions = {11};
  if (g.board()[11].tokens >= 2) GTEST_SKIP() << "region 11 meets the demand alone";
  const Explanation e = Attempt(g, bad);
  EXPECT_EQ(e.verdict().code, Code::kBadPlacement) << e.text;
}

// The referee bench's SoloPlay game 3p seed 2 (tests/engine/data/solo-3p-seed-2.json, its script with the illegal
// moves slipped in): its actions up to `n`, those the rules refuse (taken back at the table) left out.
Game Ghouls3pAfter(size_t n, std::vector<Action>* actions) {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/tests/engine/data/solo-3p-seed-2.json");
  auto record = ParseRecord(json::parse(in));
  EXPECT_TRUE(record.ok()) << record.error();
  auto game = StartGame(*record, ".");
  EXPECT_TRUE(game.ok()) << game.error();
  Game g = std::move(*game);
  for (size_t i = 0; i < n && i < record->actions.size(); ++i) (void)g.Apply(record->actions[i]);
  *actions = record->actions;
  return g;
}

// The in-decline Ghouls' reinforced attack fails (their token goes to hand), then the active Halflings conquer on:
// pending until the Ghoul comes back, never read as the Halflings' roll and an erosion of the Ghouls' region (which
// would end the conquests, and flag the next one). Told another die, the first is the Ghouls'.
TEST(ExplainSolo, TheGhoulsFailedAttackWaitsWhileTheActiveRaceConquers) {
  std::vector<Action> actions;
  const Game g = Ghouls3pAfter(64, &actions);
  ASSERT_EQ(actions[64].with, With::kGhouls);
  ASSERT_EQ(actions[64].die, 1);
  Game truth = g;
  ExplainContext context;
  context.die = 1;
  for (size_t i = 64; i < 68; ++i) {
    ASSERT_TRUE(truth.Apply(actions[i]).ok()) << i;
    if (i == 64) continue;
    const Explanation e = Explain(g, ObserveBoard(truth.board()), context);
    EXPECT_EQ(e.kind, ExplainKind::kPending) << "after action " << i << ": " << e.text;
  }
  context.die_final = true;
  const Explanation e = Explain(g, ObserveBoard(truth.board()), context);
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  ASSERT_EQ(e.reading.actions.size(), 4u) << e.text;
  EXPECT_EQ(e.reading.actions[0].action.with, With::kGhouls) << e.text;
  EXPECT_EQ(e.reading.actions[0].action.die, 1) << e.text;
  for (size_t k = 1; k < 4; ++k) EXPECT_EQ(e.reading.actions[k].action.region, actions[64 + k].region) << e.text;
  Game read = g;
  ASSERT_TRUE(ApplyReading(&read, e.reading).ok());
  EXPECT_FALSE(read.turn().conquests_over);  // the second die's attempt may follow
}

TEST(ExplainSolo, FlagsASetupRaceAttackingAnotherOne) {
  const Game g = SoloAfter(5);  // the Elves are being placed; the Trolls hold 20, 21, 19, 15
  Action bad;
  bad.type = ActionType::kConquer;
  bad.region = 20;
  bad.tokens = 5;
  const Explanation e = Attempt(g, bad);
  EXPECT_EQ(e.verdict().code, Code::kBadTarget) << e.text;
}

}  // namespace
}  // namespace swref::engine
