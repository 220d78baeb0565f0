// What `swref report` shows of one game record (docs/report.md): every turn's coins with their breakdown and
// every player's coins after it, the flags and how each ended, and the final ranking. Built from the record's
// replay; a journal adds its flags and their resolutions, and the proof that the record was not edited.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/core/verify.h"
#include "engine/coins.h"
#include "engine/result.h"

namespace swref::core {

struct TurnRow {
  int round = 0;
  std::string player;               // the player whose turn scored
  std::string combo;                // "Ratmen + Merchant", "Ratmen (decline turn)", or "-"
  engine::CoinBreakdown coins;      // what the turn scored
  std::vector<int> holdings;        // every player's coins after the turn, seating order
};

struct FlagRow {
  int round = 0;
  std::string player;
  int region = -1;                  // -1: not a conquest
  std::string action;               // the attempted action, e.g. "conquer 12 with 3 tokens"
  std::string code, why;            // the rules' rejection
  std::string resolution;           // "taken back", "house ruling", "unresolved", or for a record without a
                                    // journal: "rejected" (the game went on without it) / "house ruling"
  std::string note;                 // the players' note on a resolution
  int entry = -1;                   // the flag's journal entry, or -1
  int step = -1;                    // the action's index in record.actions, or -1
};

struct RankRow {
  int rank = 1;                     // 1 = best; equal coins and equal tokens on the board share a rank
  std::string player;
  int coins = 0;
  int tokens = 0;                   // race tokens on the board (the tie-break)
  bool winner = false;
};

struct GameSummary {
  std::string name;                 // the record's file name without its extension (made unique by the caller)
  std::string file;                 // the record's path as given
  Integrity integrity = Integrity::kNoChain;   // kVerified or kNoChain (a tampered record is an error)
  int entries = 0;                  // journal entries
  std::string head_hash;
  std::string map, variant;
  std::vector<std::string> players;
  int actions = 0;
  int round = 0;                    // the current round (the last one once finished)
  bool finished = false;
  std::vector<int> start_coins;     // every player's coins before the first turn
  std::vector<TurnRow> turns;
  std::vector<FlagRow> flags;
  std::vector<RankRow> ranking;     // best first
  std::vector<std::string> winners; // once finished
  int solo_score = 0;               // SoloPlay: the point differential
  std::string solo_rating;          // SoloPlay, finished: the rating; else ""
};

// Reads, verifies and replays a record. An error naming the file when it is not a readable record or when
// verification finds it tampered (with verify's line; `*tampered` is then set when given).
engine::Result<GameSummary> SummariseRecord(const std::filesystem::path& file, bool* tampered = nullptr);

}  // namespace swref::core
