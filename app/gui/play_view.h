// The Play screen: the camera's picture with the overlay (board_view.h), the game's state (round, turn, phase),
// the frames' transport (play, pause, one frame), the combo column (combo_column.h), the players' buttons
// (decline, die roll, end of turn, undo with a reason), the referee's alerts and questions (alert_panel.h) and the
// event log. Everything the players tell goes to the session worker as an event; nothing is decided here.
#pragma once

#include <QWidget>

#include "app/gui/snapshot.h"

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace swref::gui {

class AlertPanel;
class BoardView;
class ComboColumn;
class SessionWorker;

class PlayView : public QWidget {
  Q_OBJECT

 public:
  PlayView(SessionWorker* worker, QWidget* parent = nullptr);
  void Show(const SnapshotPtr& snapshot);
  BoardView* board() const { return board_; }

  // The players' actions (the buttons and keys call these; the dialogs ask first).
  void TogglePlay();
  void StepFrame();
  void PickCombo(int slot);
  void Decline();
  void RollDie(int face);
  void EndTurn();
  void TakeBack();
  void AcceptFlag(const QString& note);
  void ChooseOption(int option);
  void CorrectRegion(int region, const QString& race, bool decline, int tokens);
  void Undo(const QString& reason);
  void AnswerAsTable();

  // The same with their dialogs.
  void AskDie();
  void AskAccept();
  void AskCorrection();
  void AskUndo();

 signals:
  void Message(const QString& text);  // for the status bar
  void Told(const QString& event);    // every event told to the session, as JSON (for tests: a key and its button)

 private:
  void Tell(const nlohmann::json& event);
  void Log(const core::Notice& notice);
  QString Status(const Snapshot& s) const;
  std::string CurrentPlayer() const;

  SessionWorker* worker_;
  SnapshotPtr snapshot_;
  BoardView* board_;
  AlertPanel* alert_;
  ComboColumn* column_;
  QLabel* status_;
  QListWidget* log_;
  QPushButton *play_, *step_, *decline_, *die_, *end_turn_, *undo_;
  QCheckBox* autopilot_;
  int clicked_region_ = -1;
};

}  // namespace swref::gui
