// Game actions (the `actions` of a game record, docs/record.md) and the stable rejection codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace swref::engine {

// kErode exists only in SoloPlay (docs/solo.md): an in-decline race loses its tokens of the round.
enum class ActionType : uint8_t { kPick, kConquer, kAbandon, kRedeploy, kWithdraw, kAlly, kDecline, kEndTurn, kErode };
inline constexpr int kActionTypeCount = 9;

// How a conquest is made: normally, with the Dragon, by Sorcerers' conversion, or by in-decline Ghouls.
// kGhouls also marks a `redeploy` of the in-decline Ghouls.
enum class With : uint8_t { kNone, kDragon, kSorcery, kGhouls };

struct Placement {
  int region = -1;
  int count = 0;
};

// SoloPlay's redeployment: `tokens` tokens go from one own region to another.
struct Move {
  int from = -1;
  int to = -1;
  int tokens = 0;
};

struct Action {
  ActionType type = ActionType::kEndTurn;
  int player = 0;                      // index into the game's players
  int slot = -1;                       // pick
  int region = -1;                     // conquer, abandon
  int tokens = -1;                     // conquer: tokens placed; -1 = the cost
  int die = -1;                        // conquer: the reinforcement face rolled; -1 = none
  With with = With::kNone;             // conquer, redeploy
  std::vector<Placement> placement;    // redeploy, withdraw: tokens per region
  std::vector<Placement> encampments;  // redeploy, withdraw: Bivouacking encampments
  bool has_encampments = false;        // `encampments` was given (an empty object clears them)
  int fortress = -1;                   // redeploy: Fortified's new fortress
  std::vector<int> heroes;             // redeploy: Heroic's regions
  int target = -1;                     // ally: player index; -2 = a name that is no player
  bool decline = false;                // end_turn: Stout's decline (SoloPlay: any race's decline)
  bool house_ruling = false;           // conquer: accepted by the players against the rules (`"ruling": "house"`)
  // SoloPlay only (docs/solo.md).
  std::vector<Placement> from;         // conquer: attacking tokens taken from own regions next to the target
  int hero = -1;                       // conquer: the region whose hero joins the attack (Heroic)
  std::vector<int> retreat;            // conquer: regions that take one retreating opposition token each
  bool has_retreat = false;            // `retreat` was given
  Move move;                           // redeploy: the one move (from = -1: none)
  std::vector<Move> hole_moves;        // redeploy: Halflings' extra moves into their holes
  std::vector<Placement> add;          // redeploy: tokens in hand added to own regions
  int race = -1;                       // erode: the in-decline race (Race as int)
  std::vector<int> regions;            // erode: the race's regions in the order they are considered
};

std::string_view ToString(ActionType type);
std::optional<ActionType> ActionTypeFromString(std::string_view s);
std::string_view ToString(With with);

// Why an action was rejected. The string forms are a stable public list (docs/record.md).
enum class Code : uint8_t {
  kOk,
  kNotYourTurn,
  kWrongPhase,
  kUnknownRegion,
  kUnknownPlayer,
  kNotAdjacent,
  kNotEdgeEntry,
  kNotEnoughTokens,
  kTooFarShort,
  kImmuneRegion,
  kWaterNotAllowed,
  kOwnRegion,
  kNoActiveRace,
  kPeaceTreaty,
  kPowerNotAvailable,
  kBadPlacement,
  kBadSlot,
  kNotEnoughCoins,
  kBadTarget,
  kGameOver,
};
inline constexpr int kCodeCount = 20;
std::string_view ToString(Code code);

// The outcome of applying an action: kOk, or a code with a sentence for people that gives the numbers.
struct Verdict {
  Code code = Code::kOk;
  std::string why;
  bool ok() const { return code == Code::kOk; }
};

}  // namespace swref::engine
