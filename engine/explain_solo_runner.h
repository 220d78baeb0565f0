// The SoloPlay reading builder (explain_solo_readings.cpp): one reading of a board change built action by action in
// the turn's order on a copy of the game. Internal to the engine's Explain.
#pragma once

#include <vector>

#include "engine/explain_solo.h"

namespace swref::engine {

// Builds one reading: every action goes through the game while the game takes it; once it rejects one (a solo action
// cannot stand as a house ruling), that action and the rest are laid down as the observation shows their regions.
class SoloRunner {
 public:
  // `order`: the order of the race's conquests as indices into diff.targets (empty: greedy). `failed_choice`: which
  // of the regions where a failed attempt is legal this reading puts it on.
  SoloRunner(const Game& committed, const ObservedBoard& seen, const SoloDiff& diff, const Recipe& recipe, const ExplainContext& context,
             const std::vector<int>& order, int failed_choice)
      : seen_(seen),
        diff_(diff),
        recipe_(recipe),
        die_(context.die),
        turn_ending_(context.turn_ending),
        die_final_(context.die_final),
        order_(order),
        failed_choice_(failed_choice),
        game_(committed),
        strict_(seen.regions.size(), false) {}

  const Board& board() const { return stuck_ ? board_ : game_.board(); }
  const Game& game() const { return game_; }
  int failed_candidates() const { return failed_candidates_; }

  void Do(const Action& a);
  void Pick();
  void ConquerAll(bool ghouls);
  bool LegalNow(int i, bool ghouls, bool last);  // for ConquerTargets
  void Take(int i, bool ghouls, bool last);
  bool FailedAttempt(bool ghouls);
  bool AwaitsReturn(bool ghouls) const;
  void Redeploy(bool ghouls);
  void Balancing();
  void Erosions();
  Simulated Finish();

 private:
  int RaceOf(bool ghouls) const { return ghouls ? game_.DeclinedGhouls(0) : diff_.race; }
  int Spare(int region, int race, bool decline) const;
  Action Conquest(int index, bool ghouls, bool last);
  std::vector<Placement> Attackers(int target, int race, bool decline, int want, bool every_neighbour) const;
  void Retreat(Action* a) const;
  std::vector<int> ErosionOrder(Race race, int demand) const;
  void LayDown(const Action& a);

  const ObservedBoard& seen_;
  const SoloDiff& diff_;
  const Recipe& recipe_;
  const int die_;
  const bool turn_ending_;
  const bool die_final_;
  const std::vector<int>& order_;
  const int failed_choice_;
  Game game_;
  Board board_;
  bool stuck_ = false;
  Reading reading_;
  int illegal_ = 0;
  bool die_spent_ = false;
  int failed_candidates_ = 0;
  bool returns_agree_ = false;  // every region the failed attempt could have been on takes its tokens back in the same regions
  std::vector<bool> strict_;
};

}  // namespace swref::engine
