#include "app/gui/combo_column.h"

#include "app/gui/qt_util.h"
#include "engine/components.h"

namespace swref::gui {

ComboColumn::ComboColumn(QWidget* parent) : QListWidget(parent) {
  setObjectName("comboColumn");
  setToolTip("Click a combo to pick it for the player whose turn it is (keys 1-6)");
  setSelectionMode(QAbstractItemView::NoSelection);
  // A long line (a SoloPlay price with its fee) wraps in the side panel rather than scrolling sideways.
  setWordWrap(true);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    if (!updating_) emit Pick(row(item));
  });
}

namespace {

QString ComboName(engine::Race race, engine::Power power) {
  return QString("%1 + %2").arg(Q(std::string(engine::Info(race).name)), Q(std::string(engine::Info(power).name)));
}

}  // namespace

void ComboColumn::Show(const SnapshotPtr& s) {
  updating_ = true;
  clear();
  if (s && s->game && s->game->solo()) {
    // SoloPlay: the player's five combos, each at its price (the slot, and 5 more for the 4th and the 5th pick).
    const engine::Game& g = *s->game;
    const auto& combos = g.solo()->combos;
    for (size_t i = 0; i < combos.size(); ++i) {
      const int cost = g.SoloPickCost(static_cast<int>(i));
      QString price = cost == 0 ? QString("free") : QString("%1 coin%2").arg(cost).arg(cost == 1 ? "" : "s");
      if (cost > static_cast<int>(i))
        price += QString(" incl. %1 for the %2 combo").arg(engine::kSoloLateComboFee).arg(g.solo()->picks == 3 ? "4th" : "5th");
      addItem(QString("%1. %2   (%3)").arg(i + 1).arg(ComboName(combos[i].race, combos[i].power), price));
    }
  } else if (s && s->game) {
    const auto& column = s->game->column();
    for (size_t i = 0; i < column.size() && i < 6; ++i) {
      const engine::Combo& c = column[i];
      QString text = QString("%1. %2").arg(i + 1).arg(ComboName(c.race, c.power));
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
