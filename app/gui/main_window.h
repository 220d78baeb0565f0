// The main window of swref-gui: the Play, Coins and Records screens, the setup wizard, the menus and keyboard
// shortcuts, and the session worker's thread. It routes what the screens ask to the worker and the worker's
// snapshots to the screens; the rules, the camera and the record are app/core's.
#pragma once

#include <QMainWindow>
#include <QThread>

#include "app/gui/session_worker.h"
#include "app/gui/snapshot.h"

class QLabel;
class QProgressBar;
class QTabWidget;

namespace swref::gui {

class CoinsView;
class PlayView;
class RecordsView;
class SetupWizard;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  bool OpenRecord(const QString& path);    // the Records screen; false (reason in the status line) for a bad record
  void RunDemo();                          // the built-in demo, frame by frame
  void StartGame(const GameStart& start);  // a new or resumed game
  void NewGame(bool resume);               // asks with the dialog first
  bool SaveCopy(const QString& path);      // a copy of the record being written
  void StopGame();                         // closes the record (an unfinished game as "stopped")
  void DetachGame();                       // lets go of the game, its record left open: as after a crash
  SetupWizard* OpenWizard();
  void ShowScreen(int index);  // 0 Play, 1 Coins, 2 Records
  void ShowShortcuts();

  void SetDemoFrameSize(int width, int height) { demo_width_ = width, demo_height_ = height; }
  PlayView* play() const { return play_; }
  CoinsView* coins() const { return coins_; }
  RecordsView* records() const { return records_; }
  QTabWidget* tabs() const { return tabs_; }
  SessionWorker* worker() const { return worker_; }
  SnapshotPtr last() const { return last_; }
  QString last_error() const { return last_error_; }

 signals:
  void SnapshotShown(swref::gui::SnapshotPtr snapshot);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void MakeMenus();
  void OnSnapshot(const SnapshotPtr& s);
  void OnFailed(const QString& error);
  QString DataDir(const QString& sub) const;
  void CancelPreparation();  // the demo table being prepared for the last start, if any, stops

  QThread thread_;
  SessionWorker* worker_;
  QTabWidget* tabs_;
  PlayView* play_;
  CoinsView* coins_;
  RecordsView* records_;
  SetupWizard* wizard_ = nullptr;
  QProgressBar* progress_;
  SnapshotPtr last_;
  QString last_error_;
  int demo_width_ = 1920, demo_height_ = 1080;
  std::shared_ptr<std::atomic<bool>> cancel_;  // the last start's
  bool starting_ = false;                      // a start was posted and has neither shown a game nor failed
};

}  // namespace swref::gui
