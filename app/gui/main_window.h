// The main window of swref-gui. In this version: open a game record or run the demo game, and see every
// turn's coins and every flagged action, from the same app/core calls `swref play` and `swref demo` use.
// The live camera screens arrive with issue 7.
#pragma once

#include <QMainWindow>

class QLabel;
class QTableWidget;

namespace swref::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);

  bool OpenRecord(const QString& path);  // false (and a message in the status line) for a bad record
  void RunDemo();

 private:


  QLabel* summary_;
  QTableWidget* turns_;
  QTableWidget* flags_;
};

}  // namespace swref::gui
