// The final board a hand-computed scenario expects (tests/engine/scenarios/, standard and solo): the part of its
// "expect" that the two scenario tests check alike.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

namespace swref::engine::testing {

// `expect`'s coins, hands, regions (each listed key), empty regions, round, finished and winners against `final`,
// the "final" object of the `swref play` document.
inline void ExpectFinalState(const nlohmann::json& expect, const nlohmann::json& final) {
  using nlohmann::json;
  for (const char* what : {"coins", "hands"}) {
    const json listed = expect.value(what, json::object());  // a copy: items() of a temporary would dangle
    for (auto& [name, n] : listed.items()) {
      EXPECT_EQ(final[what][name], n) << "final " << what << " of " << name;
    }
  }
  std::map<int, json> board;
  for (const json& r : final["regions"]) board[r["id"].get<int>()] = r;
  const json regions = expect.value("regions", json::array()), empty = expect.value("empty", json::array());
  for (const json& r : regions) {
    const int id = r.at("id");
    ASSERT_TRUE(board.count(id)) << "region " << id << " is empty, expected " << r.dump();
    for (auto& [key, value] : r.items()) {
      EXPECT_EQ(board[id][key], value) << "region " << id << "." << key << ": " << board[id].dump();
    }
  }
  for (const json& id : empty) {
    EXPECT_FALSE(board.count(id.get<int>())) << "region " << id << " should be empty: " << board[id.get<int>()].dump();
  }
  for (const char* what : {"round", "finished", "winners"}) {
    if (expect.contains(what)) {
      EXPECT_EQ(final[what], expect[what]) << "final " << what;
    }
  }
}

}  // namespace swref::engine::testing
