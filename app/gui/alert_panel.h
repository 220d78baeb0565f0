// The referee's call to the players on the Play screen: an illegal conquest (the rule and the numbers; resolved by
// "taken back" or "accept with a note") or a question on an uncertain reading (choose a reading, correct the
// count or race, or, at the demo's table, let its players answer). Hidden while nothing is open.
#pragma once

#include <QFrame>

#include "app/gui/snapshot.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace swref::gui {

class AlertPanel : public QFrame {
  Q_OBJECT

 public:
  explicit AlertPanel(QWidget* parent = nullptr);
  void Show(const SnapshotPtr& snapshot);

 signals:
  void TakeBack();
  void Accept();  // asks for the note
  void Choose(int option);
  void Correct();  // opens the correction dialog
  void AnswerAsTable();

 private:
  QLabel* title_;
  QLabel* text_;
  QListWidget* options_;
  QPushButton *take_back_, *accept_, *choose_, *correct_, *as_table_;
};

}  // namespace swref::gui
