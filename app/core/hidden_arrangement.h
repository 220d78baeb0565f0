// Counts the camera got wrong and the referee committed, amended where they were made after the players' correction
// (docs/referee.md, "Arrangements the camera could not see" and "Counts the camera misread").
//
// A stack read as a certain single token (a silent count error of the camera) can hide a player's redeployment:
// the board then reads as the game has it, the turn ends with the old arrangement, and the game goes on. When the
// players later correct the reading, the board shows the same race on the same regions with the same number of
// tokens, only shared differently: no action of the turn being played makes that (another player's regions change
// only by a conquest or a withdrawal), and the question could never be settled. Or the player whose turn it is has
// just attacked one of those regions: then its count before the attack is not seen, and it is what the other
// regions' gains leave (the attack flagged for too few tokens against the defenders the game had, where the table
// had fewer).
//
// FindHiddenArrangement finds the turn it came from: the owner's last turn is taken back to before its end (and
// its redeployment, if it had one, with the defenders' withdrawals and the in-decline Ghouls' placement that came
// after it), a redeployment placing the tokens as the board shows them is made there, and the actions after it are
// made again. It is an amendment only when every one of them is legal again, none stood as a house ruling, and the
// board then reads as seen on the race's regions without any other region reading worse.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/game_timeline.h"
#include "engine/action.h"
#include "engine/game.h"
#include "engine/observed.h"

namespace swref::core {

struct Amendment {
  int owner = -1;                    // the player whose turn is amended
  int race = -1;                     // the race whose tokens are shared anew (Race as int)
  int round = 0;                     // the round of that turn
  int undo = 0;                      // actions taken back, the last first
  std::vector<engine::Action> redo;  // then made: the amended redeployment and every action taken back after it
  std::vector<int> regions;          // the regions whose counts change, sorted
  std::optional<engine::Game> after; // the game once amended
  std::string text;                  // for people: "P4's Ratmen at the end of round 4: 2 in region 22, 1 in region 24"
};

// The amendment that makes `seen` read as the game on one race's regions, or none. Standard games only (a
// SoloPlay redeployment is a single move, docs/solo.md); never the current player's active race (its own
// redeployment is read as the turn goes); at most `max_undo` actions taken back before the turn's redeployment
// (which is taken back too).
std::optional<Amendment> FindHiddenArrangement(const GameTimeline& timeline, const engine::ObservedBoard& seen, int max_undo = 48);

// A count the camera misread and the referee committed: a conquest read with more (or fewer) tokens than were placed,
// the same race and side seen since. When the players' correction confirms another count on such a region
// (`confirmed`: the regions their correction names), the game is taken back to the action that last set the count
// there (the conquest's `tokens`, or the turn's redeployment there: its player's, made with neither the die nor
// another race's power), that action is made with the count changed by the difference, and every action taken
// back is made again. An amendment only when each of them is legal again, none stood as a house ruling, and the
// confirmed regions then read as seen without any other region reading worse. Standard games only; one player's
// active race at a time (the first whose counts differ on confirmed regions and can be amended). A region of
// another player's race that gained tokens may instead show a withdrawal the camera saw only after the attacker's
// turn had ended: that withdrawal is made before that end of turn, on the same conditions; so may a region of a
// race in decline that keeps its tokens (Ghouls), whose counts are otherwise not amended.
std::optional<Amendment> FindMiscount(const GameTimeline& timeline, const engine::ObservedBoard& seen, const std::vector<int>& confirmed,
                                      int max_undo = 48);

}  // namespace swref::core
