// The referee session on its own thread, so that the window never waits for a frame: the worker owns the frame
// source, the session (app/core/referee_session.h) and the stepper that feeds it (app/core/referee_run.h),
// plays frames on a timer, passes on what the players tell, and publishes a Snapshot after every change. Every
// call below runs on the worker's thread: the window posts them with Post().
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <QObject>
#include <QTimer>

#include "app/core/board_overlay.h"
#include "app/core/demo_table.h"
#include "app/core/frame_source.h"
#include "app/core/referee_run.h"
#include "app/core/referee_session.h"
#include "app/gui/snapshot.h"
#include "engine/record.h"

namespace swref::gui {

struct GameStart {
  enum class Source { kDemo, kCamera, kVideo, kImages };
  Source source = Source::kDemo;
  std::string path;    // the camera's number, the video file, the image folder
  std::string events;  // optional events file told along the frames (video, images)
  std::string setup;   // the setup folder (not for the demo: its table has its own)
  std::string record;  // the record to write (resume: to continue)
  bool resume = false;
  engine::Record header;  // a new game's header (ignored on resume)
  // The demo: its table is prepared once in `demo_dir` (kept between runs), the frames of `frame` size.
  uint64_t seed = 7;
  std::string demo_dir;
  int frame_width = 1920, frame_height = 1080;
  // Set from the window's thread (a game stopped, the window closed): the demo table's preparation stops at its
  // next step and its folder is removed (core::PrepareDemoTable).
  std::shared_ptr<std::atomic<bool>> cancel;
};

class SessionWorker : public QObject {
  Q_OBJECT

 public:
  explicit SessionWorker(QObject* parent = nullptr);
  ~SessionWorker() override;

  // Runs `call` on the worker's thread.
  void Post(std::function<void()> call);

  void Start(const GameStart& start);
  void SetRunning(bool running);
  void Step();                             // one frame
  void SetInterval(int ms);                // between two frames while running
  void SetAutopilot(bool on);              // demo: the table's players answer questions themselves
  void SetPauseOnAlert(bool on);           // stop playing when a flag or question comes up (default on)
  void Tell(const nlohmann::json& event);  // what the players tell (events.jsonl's form, without after_frame)
  void AnswerAsTable();                    // demo: the table's players answer the open question
  void Close(const std::string& note);     // ends the game: an unfinished one is closed as "stopped"
  void Detach();                           // lets go of the session, the record left open (resumable)

 signals:
  void Progress(const QString& stage, qint64 done, qint64 total);
  void Failed(const QString& error);
  void Updated(swref::gui::SnapshotPtr snapshot);

 private:
  void Publish(std::vector<core::Notice> notices);
  void Track(const std::vector<core::Notice>& notices);  // the regions in question, the banner
  bool Answered(std::vector<core::Notice>* notices);     // demo autopilot
  void Reset();

  GameStart start_;
  std::unique_ptr<core::FrameSource> source_;
  std::unique_ptr<core::RefereeSession> session_;
  std::unique_ptr<core::RefereeStepper> stepper_;
  std::optional<core::OverlayMaker> overlay_;
  std::optional<core::DemoTable> table_;
  QTimer* timer_ = nullptr;
  core::Frame frame_;
  QImage image_;
  double scale_ = 1;
  bool running_ = false, ended_ = false, autopilot_ = true, pause_on_alert_ = true;
  std::vector<int> highlight_;
  nlohmann::json last_options_ = nlohmann::json::array();  // the open question's options, kept between snapshots
  std::string banner_;
  nlohmann::json result_;  // the `ended` notice's data
  std::shared_ptr<const core::GameSummary> summary_;
};

}  // namespace swref::gui
