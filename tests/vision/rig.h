// The vision tests' synthetic table (tests/vision/*_test.cpp).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "datasets/dataset.h"
#include "engine/board.h"
#include "vision/observer.h"

namespace swref::vision::test {

// A synthetic table (2-player map, table seed `seed`), its setup (registered on a clean reference photo) and an
// observer with a model enrolled from the table's crops.
struct Rig {
  std::unique_ptr<datasets::SyntheticTable> table;
  std::optional<Observer> observer;
};
Rig MakeRig(uint64_t seed, const ObserverOptions& options = {});

// The land regions without pieces or a lost tribe on `board`, largest first.
std::vector<int> LargestPlainLand(const datasets::SyntheticTable& table, const engine::Board& board);

// The board after every `every`-th action of a random game, from the `first`-th on.
std::vector<engine::Board> BoardsOfAGame(const std::shared_ptr<const engine::Map>& map, uint64_t seed, int every, int first);

}  // namespace swref::vision::test
