// The facts of the published game (2009 base box) that the rulebook's pictures carry: races with their banner
// value and tokens in the box, special powers with their badge value, pieces, the reinforcement die.
// Source: shared rules/COMPONENTS.md. Ids are the stable identifiers used in every file format.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace swref::engine {

enum class Race : uint8_t {
  kAmazons, kDwarves, kElves, kGhouls, kGiants, kHalflings, kHumans,
  kOrcs, kRatmen, kSkeletons, kSorcerers, kTritons, kTrolls, kWizards,
};
inline constexpr int kRaceCount = 14;

enum class Power : uint8_t {
  kAlchemist, kBerserk, kBivouacking, kCommando, kDiplomat, kDragonMaster, kFlying, kForest, kFortified,
  kHeroic, kHill, kMerchant, kMounted, kPillaging, kSeafaring, kSpirit, kStout, kSwamp, kUnderworld, kWealthy,
};
inline constexpr int kPowerCount = 20;

// Pieces other than race tokens. kLostTribe is a token but is counted here with the pieces of the box.
enum class Piece : uint8_t {
  kMountain, kTrollLair, kFortress, kEncampment, kHole, kHero, kDragon, kLostTribe,
};
inline constexpr int kPieceCount = 8;

struct RaceInfo {
  std::string_view id;
  std::string_view name;
  int banner;         // tokens the banner gives (Amazons: without their 4 conquest-only tokens)
  int box_tokens;     // tokens of this race in the box; a race never has more
};

struct PowerInfo {
  std::string_view id;
  std::string_view name;
  int badge;          // tokens the badge adds
};

struct PieceInfo {
  std::string_view id;
  int in_box;
};

const RaceInfo& Info(Race race);
const PowerInfo& Info(Power power);
const PieceInfo& Info(Piece piece);

std::optional<Race> RaceFromId(std::string_view id);
std::optional<Power> PowerFromId(std::string_view id);
std::optional<Piece> PieceFromId(std::string_view id);

// A token kind's name split into its race side's base and whether it is the in-decline side: "ratmen_decline" ->
// {"ratmen", true}, "ratmen" -> {"ratmen", false}, "fortress" -> {"fortress", false} (the base is a race only if
// RaceFromId says so).
inline constexpr std::string_view kDeclineSuffix = "_decline";
inline std::pair<std::string_view, bool> SplitDecline(std::string_view kind) {
  if (kind.size() > kDeclineSuffix.size() && kind.ends_with(kDeclineSuffix)) return {kind.substr(0, kind.size() - kDeclineSuffix.size()), true};
  return {kind, false};
}

inline constexpr int kAmazonConquestOnlyTokens = 4;
inline constexpr int kStartingCoins = 5;
inline constexpr int kVisibleCombos = 6;
inline constexpr int kMaxDieShortfall = 3;          // a reinforcement attempt may be at most 3 tokens short
inline constexpr std::array<int, 6> kDieFaces = {0, 0, 0, 1, 2, 3};

// Tokens a freshly picked combo brings: banner + badge (+4 conquest-only tokens for Amazons).
int StartingTokens(Race race, Power power);

}  // namespace swref::engine
