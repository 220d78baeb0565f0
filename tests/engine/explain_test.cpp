// Explain (engine/explain.h): each kind of move read back from the board it leaves, each kind of illegal conquest
// flagged with the rules' code and sentence, questions, pending states and hidden stacks. Games on the 2-player
// map (regions: 1 farmland, 2 forest, 3 swamp with a lost tribe, 6 inland hill with a lost tribe, 9 inland
// farmland, 10 forest with a lost tribe, 22 sea; 1-2-3 and 1-6, 2-6 touch; 10 touches 4, 9, 14, 15 only).
#include <gtest/gtest.h>

#include "engine/explain.h"
#include "engine/explain_match.h"
#include "engine/record.h"
#include "engine/table_script.h"

namespace swref::engine {
namespace {

using nlohmann::json;

// Ann and Bob on map 2p, the stacks' tops named, after `actions` (each must be accepted).
Game Play(const std::vector<std::string>& races, const std::vector<std::string>& powers, const std::string& actions) {
  json doc = {{"format", "smallworld-record/1"}, {"map", "2p"}, {"players", {"Ann", "Bob"}}, {"seed", 3},
              {"races", races}, {"powers", powers}, {"actions", json::parse(actions)}};
  auto record = ParseRecord(doc);
  EXPECT_TRUE(record.ok()) << record.error();
  auto game = StartGame(*record, ".");
  EXPECT_TRUE(game.ok()) << game.error();
  Game g = std::move(*game);
  for (const Action& a : record->actions) {
    const Verdict v = g.Apply(a);
    EXPECT_TRUE(v.ok()) << v.why << " at " << ToJson(a, {"Ann", "Bob"}).dump();
  }
  return g;
}

Action Parse(const std::string& action) {
  auto a = ParseAction(json::parse(action), {"Ann", "Bob"}, "test");
  EXPECT_TRUE(a.ok()) << a.error();
  return *a;
}

// The game after the actions, which must all be accepted.
Game After(Game g, const std::vector<std::string>& actions) {
  for (const std::string& s : actions) {
    const Verdict v = g.Apply(Parse(s));
    EXPECT_TRUE(v.ok()) << v.why << " at " << s;
  }
  return g;
}

json Actions(const Reading& r) {
  json list = json::array();
  for (const ExplainedAction& a : r.actions) list.push_back(ToJson(a.action, {"Ann", "Bob"}));
  return list;
}

// Ratmen + Merchant for Ann (10 tokens); Humans + Alchemist for Bob (9).
const std::vector<std::string> kRatmen = {"ratmen", "humans"};
const std::vector<std::string> kMerchant = {"merchant", "alchemist"};

TEST(Explain, NoChange) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Explanation e = Explain(g, ObserveBoard(g.board()));
  EXPECT_EQ(e.kind, ExplainKind::kNoChange);
  EXPECT_TRUE(e.reading.actions.empty());
}

TEST(Explain, Conquest) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 1})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 1, "tokens": 2}])"));
  EXPECT_TRUE(e.reading.exact);
  Game committed = g;
  ASSERT_TRUE(ApplyReading(&committed, e.reading).ok());
  EXPECT_EQ(StateKey(committed), StateKey(truth));
}

TEST(Explain, ConquestsOrderedSoThatEachIsLegal) {
  // 6 is inland: it can only come after 11, its edge neighbour, although its id is smaller.
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 11})", R"({"player": "Ann", "do": "conquer", "region": 6})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 11, "tokens": 3},
                                                 {"player": "Ann", "do": "conquer", "region": 6, "tokens": 3}])"));
}

// Ann holds 1 and 2 (5 tokens each) after her first turn; Bob has picked Humans and ended his turn.
Game SecondTurn() {
  return Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}, {"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 5}},
    {"player": "Ann", "do": "end_turn"}, {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "end_turn"}])");
}

TEST(Explain, Abandon) {
  const Game g = SecondTurn();
  const Game truth = After(g, {R"({"player": "Ann", "do": "abandon", "region": 1})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "abandon", "region": 1}])"));
}

TEST(Explain, Redeploy) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 4, "2": 6}})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 4, "2": 6}}])"));
}

TEST(Explain, ConquestAndRedeployInOneChange) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 2})", R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 3, "2": 7}})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 2},
                                                 {"player": "Ann", "do": "redeploy", "tokens": {"1": 3, "2": 7}}])"));
}

// Bob's Humans have taken region 2 from Ann (5 + 2 = 7 tokens) and redeployed: Ann holds 4 withdrawn tokens.
Game BobTookRegion2() {
  return Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}, {"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 5}},
    {"player": "Ann", "do": "end_turn"}, {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "conquer", "region": 2},
    {"player": "Bob", "do": "redeploy", "tokens": {"2": 9}}])");
}

TEST(Explain, DefenderWithdraws) {
  // Ann puts her 4 withdrawn tokens on region 1.
  const Game bob = BobTookRegion2();
  const Game truth = After(bob, {R"({"player": "Ann", "do": "withdraw", "tokens": {"1": 4}})"});
  const Explanation e = Explain(bob, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "withdraw", "tokens": {"1": 4}}])"));
}

TEST(Explain, DeclineSeenBeforeItIsTold) {
  const Game g = SecondTurn();
  const Game truth = After(g, {R"({"player": "Ann", "do": "decline"})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "decline"}])"));
}

TEST(Explain, ConquestWithTheDragon) {
  const Game g = Play({"ratmen"}, {"dragon_master"}, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 6, "with": "dragon"})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 6, "tokens": 1, "with": "dragon"}])"));
}

// Ann's Sorcerers hold 1; Bob's Humans hold 2 (one token) and 3.
Game SorcererTurn(int tokens_on_2) {
  return Play({"sorcerers", "humans"}, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "redeploy", "tokens": {"1": 7}}, {"player": "Ann", "do": "end_turn"},
    {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "conquer", "region": 2}, {"player": "Bob", "do": "conquer", "region": 3},
    {"player": "Bob", "do": "redeploy", "tokens": {"2": )" + std::to_string(tokens_on_2) + R"(, "3": )" + std::to_string(9 - tokens_on_2) + R"(}},
    {"player": "Bob", "do": "end_turn"}])");
}

TEST(Explain, SorcerersConversion) {
  const Game g = SorcererTurn(1);
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 2, "with": "sorcery"})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 2, "with": "sorcery"}])"));
}

TEST(Explain, InDeclineGhoulsConquer) {
  // Ann's Ghouls (Merchant, 7 tokens) hold 1 and 2, go into decline; in her third turn she picks a new race and
  // her Ghouls, all still on the board, take region 3 first.
  const Game g = Play({"ghouls", "humans", "ratmen"}, {"merchant", "alchemist", "forest"}, R"([
    {"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1}, {"player": "Ann", "do": "conquer", "region": 2},
    {"player": "Ann", "do": "redeploy", "tokens": {"1": 3, "2": 4}}, {"player": "Ann", "do": "end_turn"},
    {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "end_turn"},
    {"player": "Ann", "do": "decline"}, {"player": "Ann", "do": "end_turn"}, {"player": "Bob", "do": "end_turn"},
    {"player": "Ann", "do": "pick", "slot": 0}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 3, "with": "ghouls"})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 3, "tokens": 3, "with": "ghouls"}])"));
}

TEST(Explain, RedeployWithHeroes) {
  const Game g = Play({"ratmen"}, {"heroic"}, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 6, "2": 7}, "heroes": [1, 2]})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 6, "2": 7}, "heroes": [1, 2]}])"));
}

TEST(Explain, RedeployWithAFortress) {
  const Game g = Play({"ratmen"}, {"fortified"}, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 6}, "fortress": 2})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 6}, "fortress": 2}])"));
}

TEST(Explain, RedeployWithEncampments) {
  const Game g = Play({"ratmen"}, {"bivouacking"}, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 6, "2": 7}, "encampments": {"1": 2, "2": 3}})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading),
            json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 6, "2": 7}, "encampments": {"1": 2, "2": 3}}])"));
}

// Ratmen + Merchant: 4 on region 1, 2 on 2, 3 on 3: 1 token left in hand.
Game OneInHand() {
  return Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1, "tokens": 4},
    {"player": "Ann", "do": "conquer", "region": 2}, {"player": "Ann", "do": "conquer", "region": 3}])");
}

TEST(Explain, ReinforcementDieThatSucceeds) {
  const Game g = OneInHand();
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 6, "die": 2})"});  // 1 + 2 >= 3
  ExplainContext context;
  context.die = 2;
  const Explanation e = Explain(g, ObserveBoard(truth.board()), context);
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 6, "die": 2}])"));
  EXPECT_TRUE(e.reading.die_used);
}

TEST(Explain, ReinforcementDieThatFailsIsReadAtTheRedeploy) {
  // The failed attempt puts nothing down: no change; the redeploy then shows the token left in hand placed.
  const Game g = OneInHand();
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 6, "die": 1})",
                               R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 2, "3": 3}})"});
  ExplainContext context;
  context.die = 1;
  EXPECT_EQ(Explain(g, ObserveBoard(g.board()), context).kind, ExplainKind::kNoChange);
  const Explanation e = Explain(g, ObserveBoard(truth.board()), context);
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  // The attempt's region cannot be seen: the first region where it was legal and fails with a 1 (all give the same game).
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 5, "die": 1},
                                                 {"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 2, "3": 3}}])"));
  Game committed = g;
  ASSERT_TRUE(ApplyReading(&committed, e.reading).ok());
  EXPECT_EQ(StateKey(committed), StateKey(truth));
}

TEST(Explain, ReadyingIsPending) {
  const Game g = SecondTurn();
  Board lifted = g.board();
  lifted[1].tokens = lifted[2].tokens = 1;  // Ann took all but one token of each region in hand
  const Explanation e = Explain(g, ObserveBoard(lifted));
  EXPECT_EQ(e.kind, ExplainKind::kPending) << e.text;
  EXPECT_EQ(e.regions, (std::vector<int>{1, 2}));
}

TEST(Explain, TokensFromHandBeingPlacedArePending) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  Board placing = g.board();
  placing[1].tokens = 4;  // 3 of the 6 tokens in hand put down; the redeploy is not complete
  EXPECT_EQ(Explain(g, ObserveBoard(placing)).kind, ExplainKind::kPending);
}

// ---------------------------------------------------------------------------------------------------------------
// Illegal conquests: the board as the player left it (AttemptedBoard), the rules' code and sentence.

Explanation ExplainAttempt(const Game& g, const std::string& action, const ExplainContext& context = {}) {
  return Explain(g, ObserveBoard(AttemptedBoard(g, Parse(action))), context);
}

TEST(Explain, FlagsTooFewTokens) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 3, "tokens": 2})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kNotEnoughTokens);
  EXPECT_EQ(e.verdict().why, "region 3 needs 3 tokens: 2 + 1 lost tribe; 2 placed");
  EXPECT_EQ(e.text, e.verdict().why);
}

TEST(Explain, FlagsNotAdjacent) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 10})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kNotAdjacent);
  EXPECT_EQ(e.verdict().why, "region 10 does not touch any Ratmen region");
  EXPECT_EQ(e.reading.illegal, 0);
}

TEST(Explain, FlagsAFirstConquestInland) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 9})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kNotEdgeEntry);
  EXPECT_EQ(e.verdict().why, "the Ratmen hold no region, so this is a first conquest: region 9 neither touches the edge of the board nor a sea that does");
}

TEST(Explain, FlagsAnImmuneRegion) {
  // Bob's Halflings hold 1 with a hole; Ann's Humans attack it from 2.
  const Game g = Play({"halflings", "humans"}, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "redeploy", "tokens": {"1": 8}}, {"player": "Ann", "do": "end_turn"},
    {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "conquer", "region": 2}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Bob", "do": "conquer", "region": 1, "tokens": 3})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kImmuneRegion);
  EXPECT_EQ(e.verdict().why, "region 1 is immune: it holds a hole-in-the-ground");
}

TEST(Explain, FlagsWaterWithoutSeafaring) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 21}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 22})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kWaterNotAllowed);
  EXPECT_EQ(e.verdict().why, "region 22 is a sea: only a Seafaring race may enter it");
}

TEST(Explain, FlagsAConquestOnADeclineTurn) {
  const Game g = After(SecondTurn(), {R"({"player": "Ann", "do": "decline"})"});
  Board board = AttemptedBoard(g, Parse(R"({"player": "Ann", "do": "conquer", "region": 3})"), static_cast<int>(Race::kRatmen));
  ASSERT_EQ(board[3].race, static_cast<int>(Race::kRatmen));  // the declined race's tokens, active side up
  const Explanation e = Explain(g, ObserveBoard(board));
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kWrongPhase);
  EXPECT_EQ(e.verdict().why, "no conquest on a decline turn: it ends after scoring");
}

TEST(Explain, FlagsASecondDragonAttack) {
  const Game g = Play({"ratmen"}, {"dragon_master"}, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 6, "with": "dragon"}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 2, "with": "dragon"})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kPowerNotAvailable);
  EXPECT_EQ(e.verdict().why, "the dragon has already attacked this turn");
  EXPECT_EQ(e.reading.actions[0].action.with, With::kDragon);
}

TEST(Explain, FlagsASorcererConvertingSeveralTokens) {
  const Game g = SorcererTurn(4);
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 2, "with": "sorcery"})");
  ASSERT_EQ(e.kind, ExplainKind::kIllegal) << e.text;
  EXPECT_EQ(e.verdict().code, Code::kBadTarget);
  EXPECT_EQ(e.verdict().why,
            "Sorcerers convert a region whose only race token is another player's active token; region 2 holds 4 Humans tokens");
}

// ---------------------------------------------------------------------------------------------------------------
// Questions, hidden stacks, impossible readings.

TEST(Explain, HiddenRedeployCountsFilledByConservation) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 3, "2": 7}})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  seen.regions[2].tokens = 4, seen.regions[2].tokens_certain = false;  // a stack: at least 4
  ExplainContext ending;
  ending.turn_ending = true;  // the players said the turn ends: every token is on the board
  const Explanation e = Explain(g, seen, ending);
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 3, "2": 7}}])"));
  // Before the end of the turn the hidden tokens may as well still be in hand: nothing to commit yet.
  EXPECT_EQ(Explain(g, seen).kind, ExplainKind::kPending);
}

TEST(Explain, TwoStacksAreAQuestion) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 4, "2": 6}})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  seen.regions[1].tokens = 3, seen.regions[1].tokens_certain = false;
  seen.regions[2].tokens = 5, seen.regions[2].tokens_certain = false;
  ExplainContext ending;
  ending.turn_ending = true;
  const Explanation e = Explain(g, seen, ending);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion) << e.text;
  ASSERT_EQ(e.options.size(), 3u);  // the 2 hidden tokens: both on 1, one each, both on 2
  EXPECT_EQ(Actions(e.options[1]), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 4, "2": 6}}])"));
}

TEST(Explain, AmazonsSettingAsideUnderStacksIsAQuestion) {
  // Amazons + Merchant: 8 tokens and 4 for conquest only, all 12 put down in two conquests. At the end of the turn
  // the 4 leave the board; the players took them off region 1 (6 -> 2).
  const Game g = Play({"amazons", "humans"}, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 1, "tokens": 6}, {"player": "Ann", "do": "conquer", "region": 2, "tokens": 6}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "redeploy", "tokens": {"1": 2, "2": 6}})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  ExplainContext ending;
  ending.turn_ending = true;
  // Counted, the change is the redeploy.
  const Explanation counted = Explain(g, seen, ending);
  ASSERT_EQ(counted.kind, ExplainKind::kExplained) << counted.text;
  EXPECT_EQ(Actions(counted.reading), json::parse(R"([{"player": "Ann", "do": "redeploy", "tokens": {"1": 2, "2": 6}}])"));
  // Both seen as stacks whose lower bounds the board before the redeploy still meets: the camera cannot tell
  // which regions the 4 tokens left (the engine would take them from the fullest, leaving 1 and 2 with 4 each).
  seen.regions[1].tokens_certain = false;
  seen.regions[2].tokens = 5, seen.regions[2].tokens_certain = false;
  const Explanation hidden = Explain(g, seen, ending);
  ASSERT_EQ(hidden.kind, ExplainKind::kQuestion) << hidden.text;
  EXPECT_EQ(hidden.regions, (std::vector<int>{1, 2}));
  EXPECT_TRUE(hidden.options.empty());
  // Before the end of the turn nothing has to leave yet.
  EXPECT_EQ(Explain(g, seen).kind, ExplainKind::kNoChange);
}

TEST(Explain, AWithdrawalUnderAStackIsAQuestionWhenTheTurnEnds) {
  const Game g = BobTookRegion2();
  const Game truth = After(g, {R"({"player": "Ann", "do": "withdraw", "tokens": {"1": 4}})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  ExplainContext ending;
  ending.turn_ending = true;
  const Explanation counted = Explain(g, seen, ending);
  ASSERT_EQ(counted.kind, ExplainKind::kExplained) << counted.text;
  EXPECT_EQ(Actions(counted.reading), json::parse(R"([{"player": "Ann", "do": "withdraw", "tokens": {"1": 4}}])"));
  // Region 1 seen as a stack of at least 5: the board before the withdrawal meets it.
  seen.regions[1].tokens = 5, seen.regions[1].tokens_certain = false;
  const Explanation hidden = Explain(g, seen, ending);
  ASSERT_EQ(hidden.kind, ExplainKind::kQuestion) << hidden.text;
  EXPECT_EQ(hidden.regions, (std::vector<int>{1}));
  EXPECT_EQ(Explain(g, seen).kind, ExplainKind::kNoChange);
  // Withdrawn tokens Ann has not put down (her region read exactly) wait in her hand, as the rules engine keeps them.
  EXPECT_EQ(Explain(g, ObserveBoard(g.board()), ending).kind, ExplainKind::kNoChange);
}

TEST(Explain, ConquestOntoAStackAsksOrFillsTheCost) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 3})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  seen.regions[3].tokens = 2, seen.regions[3].tokens_certain = false;  // 3 placed, 2 seen
  const Explanation asked = Explain(g, seen);
  ASSERT_EQ(asked.kind, ExplainKind::kQuestion) << asked.text;
  ASSERT_EQ(asked.options.size(), 2u);
  EXPECT_EQ(asked.options[0].illegal, -1);
  EXPECT_EQ(asked.options[1].actions[0].verdict.code, Code::kNotEnoughTokens);
  EXPECT_EQ(asked.regions, std::vector<int>{3});
  ExplainContext fill;
  fill.ask_hidden_counts = false;
  const Explanation filled = Explain(g, seen, fill);
  ASSERT_EQ(filled.kind, ExplainKind::kExplained) << filled.text;
  EXPECT_EQ(Actions(filled.reading), json::parse(R"([{"player": "Ann", "do": "conquer", "region": 3, "tokens": 3}])"));
  EXPECT_TRUE(filled.reading.hidden_count);
}

// A conquest with more tokens than the game has in hand, while the conquering race's own region shows fewer tokens
// than the game holds there: an earlier count read too high (region 1 committed with 4 tokens where 2 lay leaves the
// hand two short ever after). Read right now, the region is no misreading the players would correct: the referee
// asks them to confirm those counts rather than flag the conquest on the game's.
TEST(Explain, AConquestShortInHandBesideAHigherCountIsAQuestion) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 1, "tokens": 4}])");  // as read: 2 lay there
  ASSERT_EQ(g.civ(Race::kRatmen).hand, 6);
  Board placed = g.board();
  placed[1].tokens = 2;                                                    // the truth, read right
  placed[2].race = static_cast<int>(Race::kRatmen), placed[2].tokens = 7;  // 7 of the 8 truly in hand, into the forest
  const ObservedBoard seen = ObserveBoard(placed);
  const Explanation e = Explain(g, seen);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion) << e.text;
  EXPECT_TRUE(e.options.empty());
  EXPECT_EQ(e.regions, (std::vector<int>{1, 2}));
  EXPECT_NE(e.text.find("region 1: the game holds 4, 2 seen"), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("7 tokens placed, but only 6 in hand"), std::string::npos) << e.text;
  // Told not to ask, the conquest is flagged on the game's counts.
  ExplainContext no_questions;
  no_questions.ask_hidden_counts = false;
  const Explanation flagged = Explain(g, seen, no_questions);
  ASSERT_EQ(flagged.kind, ExplainKind::kIllegal) << flagged.text;
  EXPECT_EQ(flagged.verdict().why, "7 tokens placed, but only 6 in hand");
}

TEST(Explain, ImpossibleReadingsAreQuestions) {
  const Game g = SecondTurn();
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[4].lost_tribe = 1;  // a lost tribe never comes back
  const Explanation e = Explain(g, seen);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{4});
  EXPECT_TRUE(e.options.empty());
  EXPECT_NE(e.text.find("lost tribes never come back"), std::string::npos) << e.text;
}

TEST(Explain, AnOpponentsRegionLosingTokensIsAQuestion) {
  const Game g = SorcererTurn(4);  // Ann's turn; Bob holds 2 (4 tokens) and 3 (5)
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[3].tokens = 3;
  const Explanation e = Explain(g, seen);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{3});
}

TEST(Explain, AnOpponentsRegionGainingTokensWithNothingToWithdrawIsAQuestion) {
  const Game g = SorcererTurn(4);  // Bob lost no region this turn: a gain is a count the camera missed, not a withdrawal
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[3].tokens = 6;
  const Explanation e = Explain(g, seen);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion) << e.text;
  EXPECT_EQ(e.regions, std::vector<int>{3});
  EXPECT_NE(e.text.find("Bob lost no region this turn"), std::string::npos) << e.text;
}

TEST(Explain, LowConfidenceReadingIsAQuestion) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Game truth = After(g, {R"({"player": "Ann", "do": "conquer", "region": 1})"});
  ObservedBoard seen = ObserveBoard(truth.board());
  seen.regions[1].uncertain = true;
  const Explanation e = Explain(g, seen);
  ASSERT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{1});
}

TEST(Explain, ARaceNoOneCanBringIsAQuestion) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  Board board = g.board();
  board[1].owner = 1, board[1].race = static_cast<int8_t>(Race::kWizards), board[1].tokens = 2;  // Bob's turn has not come
  const Explanation e = Explain(g, ObserveBoard(board));
  ASSERT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{1});
}

TEST(Explain, ThePickIsReadFromTheRaceOnTheBoard) {
  const Game g = Play(kRatmen, kMerchant, "[]");
  const Game truth = After(g, {R"({"player": "Ann", "do": "pick", "slot": 0})", R"({"player": "Ann", "do": "conquer", "region": 1})"});
  const Explanation e = Explain(g, ObserveBoard(truth.board()));
  ASSERT_EQ(e.kind, ExplainKind::kExplained) << e.text;
  EXPECT_EQ(Actions(e.reading), json::parse(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1, "tokens": 2}])"));
}

TEST(Explain, HouseRulingCommitsTheIllegalConquest) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1}])");
  const Board attempted = AttemptedBoard(g, Parse(R"({"player": "Ann", "do": "conquer", "region": 10})"));
  const Explanation e = Explain(g, ObserveBoard(attempted));
  ASSERT_EQ(e.kind, ExplainKind::kIllegal);
  Game refused = g;
  EXPECT_EQ(ApplyReading(&refused, e.reading).code, Code::kNotAdjacent);
  EXPECT_EQ(StateKey(refused), StateKey(g));  // rejected: nothing changed
  Game ruled = g;
  std::vector<Action> applied;
  ASSERT_TRUE(ApplyReading(&ruled, e.reading, true, &applied).ok());
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_TRUE(applied[0].house_ruling);
  EXPECT_EQ(ruled.board()[10].race, static_cast<int>(Race::kRatmen));
  EXPECT_EQ(ruled.board()[10].tokens, 3);
  EXPECT_EQ(ToJson(applied[0], {"Ann", "Bob"})["ruling"], "house");
}

TEST(Explain, JsonForTheApp) {
  const Game g = Play(kRatmen, kMerchant, R"([{"player": "Ann", "do": "pick", "slot": 0}])");
  const Explanation e = ExplainAttempt(g, R"({"player": "Ann", "do": "conquer", "region": 3, "tokens": 2})");
  const json j = json::parse(ToJson(e, {"Ann", "Bob"}).dump());
  EXPECT_EQ(j["kind"], "illegal");
  EXPECT_EQ(j["actions"][0]["code"], "not_enough_tokens");
  EXPECT_EQ(j["actions"][0]["region"], 3);
  EXPECT_EQ(j["actions"][0]["ok"], false);
}

TEST(Explain, RejectsAnObservationOfAnotherMap) {
  const Game g = Play(kRatmen, kMerchant, "[]");
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions.pop_back();
  EXPECT_EQ(Explain(g, seen).kind, ExplainKind::kQuestion);
}

}  // namespace
}  // namespace swref::engine
