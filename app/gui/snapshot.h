// What the session worker hands the window after every frame or event: a copy of everything the screens show,
// so that the window never touches the session, which lives on the worker's thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QImage>
#include <QMetaType>

#include "app/core/board_overlay.h"
#include "app/core/referee_session.h"
#include "app/core/report_data.h"
#include "engine/game.h"

namespace swref::gui {

struct Snapshot {
  QImage frame;                              // the last frame, scaled down for the screen
  double scale = 1;                          // screen image pixels per frame pixel
  core::BoardOverlay overlay;                // in frame pixels
  std::shared_ptr<const engine::Game> game;  // the committed game
  std::vector<std::string> players;
  std::vector<core::Notice> notices;                 // new since the last snapshot
  int open_flag = -1, open_question = -1;            // journal entries, -1: none
  std::string open_text;                             // the open flag's or question's sentence
  nlohmann::json options = nlohmann::json::array();  // the open question's readings (each a list of actions)
  std::vector<int> highlight;                        // the region(s) in question
  int64_t frame_index = -1, frame_count = -1;
  std::string still;                                 // "moving", "settling", "still"
  std::string banner;                                // a lost camera, a stopped record: shown across the board
  bool running = false;                              // frames are being played
  bool ended = false;                                // no frame left, or the game is over
  bool demo = false;                                 // the built-in demo's table
  bool autopilot = false;                            // demo: its players answer the questions
  std::string record;                                // the record being written
  std::string source;                                // where the frames come from, for the title
  std::shared_ptr<const core::GameSummary> summary;  // the record's turns and coins (after each tally)
  // The session's `ended` notice's data once the game is over ({coins, winners}, and `solo` for a SoloPlay game:
  // its end items, the opposition's total, the score and the rating); null before.
  nlohmann::json result;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace swref::gui

Q_DECLARE_METATYPE(swref::gui::SnapshotPtr)
