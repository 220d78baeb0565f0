// What the players tell the referee (docs/referee.md, "Events"): the facts the camera cannot see, and their
// answers to the referee. The GUI makes them from buttons; `swref referee --events FILE` reads them from a JSON
// lines file, one event a line, each placed after a frame:
//
//   {"after_frame": 14, "player": "Ann", "do": "pick", "slot": 2}     a game action told: pick, decline, ally,
//   {"after_frame": 40, "player": "Ann", "do": "end_turn"}             end_turn (the record's action fields)
//   {"after_frame": 21, "player": "Ann", "do": "die", "face": 2}       the reinforcement die, before its conquest
//   {"after_frame": 30, "do": "accept", "note": "we allow it"}         the open flag stands as a house ruling
//   {"after_frame": 30, "do": "take_back"}                             the open flag is withdrawn (the board shows
//                                                                      it too, when the tokens are taken back)
//   {"after_frame": 52, "do": "answer", "option": 1}                   the open question: its option 1
//   {"after_frame": 52, "do": "correct", "region": 5, "tokens": 3}     a reading corrected: region 5 holds 3
//                                                                      (also "race", "decline", "pieces", "lost_tribe")
//   {"after_frame": 52, "do": "correct", "regions": [{"region": 5, "tokens": 3}, {"region": 9, "race": null}]}
//                                                                      several regions corrected at once, judged once
//   {"after_frame": 60, "do": "undo", "reason": "wrong region"}        the last committed action taken out
//
// `after_frame` is the index of the last frame seen before the event (-1: before the first frame). The dataset
// demo's events.jsonl is such a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace swref::core {

inline constexpr size_t kMaxEvents = 100000;            // lines in an events file
inline constexpr uintmax_t kMaxEventsFileBytes = 16 << 20;

enum class EventType { kAction, kDie, kAccept, kTakeBack, kAnswer, kCorrect, kUndo };

struct TableEvent {
  int64_t after_frame = -1;
  EventType type = EventType::kAction;
  std::string player;              // kAction, kDie (may be empty for the others)
  nlohmann::json body;             // the event as written, without after_frame (for the record's `event` entry)
  int face = -1;                   // kDie
  int option = -1;                 // kAnswer
  std::string note;                // kAccept, kUndo (the reason)
  std::vector<nlohmann::json> corrections;  // kCorrect: one object a region, {"region": id, fields...}
};

// One event (a line's object). `where` names it in errors ("events.jsonl:7").
engine::Result<TableEvent> ParseTableEvent(const nlohmann::json& doc, const std::string& where);
// A whole file; events must come in order of after_frame. Errors name the file and line.
engine::Result<std::vector<TableEvent>> ReadEventsFile(const std::string& path);

}  // namespace swref::core
