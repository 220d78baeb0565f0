// The coins of one turn with their breakdown (regions, race bonus, power bonus): what every turn's scoring gives.
#pragma once

namespace swref::engine {

struct CoinBreakdown {
  int regions = 0;
  int race = 0;
  int power = 0;
  int total() const { return regions + race + power; }
};

}  // namespace swref::engine
