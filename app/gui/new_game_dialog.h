// Starting a game by the table (a new one, or resuming one after a crash): who plays, on which map, the setup
// folder, where the frames come from (the camera, a video, a folder of photos, with an optional events file) and
// the record. The record's header is read by the engine, so a bad field is named as `swref` names it.
#pragma once

#include <QDialog>

#include "app/gui/session_worker.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace swref::gui {

class NewGameDialog : public QDialog {
  Q_OBJECT

 public:
  NewGameDialog(bool resume, QWidget* parent = nullptr);
  // The game to start, or an error naming the field at fault.
  engine::Result<GameStart> Game() const;

 private:
  bool resume_;
  QLineEdit *players_, *setup_, *path_, *events_, *record_;
  QComboBox *map_, *source_;
  QSpinBox* seed_;
  QLabel* error_;
};

}  // namespace swref::gui
