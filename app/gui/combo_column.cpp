#include "app/gui/combo_column.h"

#include "app/gui/qt_util.h"
#include "engine/components.h"

namespace swref::gui {

ComboColumn::ComboColumn(QWidget* parent) : QListWidget(parent) {
  setObjectName("comboColumn");
  setToolTip("Click a combo to pick it for the player whose turn it is (keys 1-6)");
  setSelectionMode(QAbstractItemView::NoSelection);
  connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    if (!updating_) emit Pick(row(item));
  });
}

void ComboColumn::Show(const SnapshotPtr& s) {
  updating_ = true;
  clear();
  if (s && s->game) {
    const auto& column = s->game->column();
    for (size_t i = 0; i < column.size() && i < 6; ++i) {
      const engine::Combo& c = column[i];
      QString text =
          QString("%1. %2 + %3").arg(i + 1).arg(Q(std::string(engine::Info(c.race).name)), Q(std::string(engine::Info(c.power).name)));
      QStringList notes;
      if (i > 0) notes << QString("costs %1").arg(i);
      if (c.coins > 0) notes << QString("%1 coin%2 on it").arg(c.coins).arg(c.coins == 1 ? "" : "s");
      if (!notes.isEmpty()) text += "   (" + notes.join(", ") + ")";
      addItem(text);
    }
  }
  updating_ = false;
}

}  // namespace swref::gui
