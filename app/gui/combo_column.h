// The combo column on the Play screen: the six race + power combos on offer, top first, each with the coins
// lying on it and what it costs (SoloPlay: the player's five combos, each with its price); a click picks it for
// the player whose turn it is.
#pragma once

#include <QListWidget>

#include "app/gui/snapshot.h"

namespace swref::gui {

class ComboColumn : public QListWidget {
  Q_OBJECT

 public:
  explicit ComboColumn(QWidget* parent = nullptr);
  void Show(const SnapshotPtr& snapshot);

 signals:
  void Pick(int slot);

 private:
  bool updating_ = false;
};

}  // namespace swref::gui
