#include "engine/action.h"

#include <array>

namespace swref::engine {
namespace {

constexpr std::array<std::string_view, kActionTypeCount> kActionNames = {
    "pick", "conquer", "abandon", "redeploy", "withdraw", "ally", "decline", "end_turn", "erode"};

constexpr std::array<std::string_view, kCodeCount> kCodeNames = {
    "ok",           "not_your_turn",   "wrong_phase",     "unknown_region",  "unknown_player",
    "not_adjacent", "not_edge_entry",  "not_enough_tokens", "too_far_short", "immune_region",
    "water_not_allowed", "own_region", "no_active_race",  "peace_treaty",    "power_not_available",
    "bad_placement", "bad_slot",       "not_enough_coins", "bad_target",     "game_over"};

}  // namespace

std::string_view ToString(ActionType type) { return kActionNames[static_cast<int>(type)]; }

std::optional<ActionType> ActionTypeFromString(std::string_view s) {
  for (int i = 0; i < kActionTypeCount; ++i)
    if (kActionNames[i] == s) return static_cast<ActionType>(i);
  return std::nullopt;
}

std::string_view ToString(With with) {
  switch (with) {
    case With::kNone: return "";
    case With::kDragon: return "dragon";
    case With::kSorcery: return "sorcery";
    case With::kGhouls: return "ghouls";
  }
  return "";
}

std::string_view ToString(Code code) { return kCodeNames[static_cast<int>(code)]; }

}  // namespace swref::engine
