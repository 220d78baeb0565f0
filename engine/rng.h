// A small deterministic random generator (xoshiro256**, seeded through splitmix64; Blackman & Vigna 2018).
// The standard library's engines are portable but its distributions and std::shuffle are not: the same seed
// must give the same game on every compiler, so bounded draws and shuffles are defined here.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace swref::engine {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { Seed(seed); }
  void Seed(uint64_t seed) {
    for (uint64_t& s : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      s = z ^ (z >> 31);
    }
  }
  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }
  // Uniform in [0, n); n > 0. Lemire's multiply-shift with rejection, so no modulo bias.
  uint32_t Below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
    if (static_cast<uint32_t>(m) < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (static_cast<uint32_t>(m) < threshold) m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
    }
    return static_cast<uint32_t>(m >> 32);
  }
  template <typename T>
  void Shuffle(std::vector<T>& v) {  // Fisher-Yates
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[Below(static_cast<uint32_t>(i))]);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

}  // namespace swref::engine
