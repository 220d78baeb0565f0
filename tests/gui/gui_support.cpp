#include "tests/gui/gui_support.h"

#include <algorithm>

#include <QAbstractItemView>
#include <QDir>
#include <QHeaderView>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "engine/components.h"

namespace swref::gui_test {

QString CacheDir(const QString& sub) { return QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(sub); }

void Screenshot(QWidget* widget, const QString& name, bool small_too) {
  const QString dir = qEnvironmentVariable("SWREF_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  QTest::qWait(300);
  QVERIFY(widget->grab().save(QDir(dir).filePath(name + ".png")));
  if (!small_too) return;
  const QSize size = widget->size();
  widget->resize(1366, 768);
  QTest::qWait(400);
  QVERIFY(widget->grab().save(QDir(dir).filePath(name + "-1366.png")));
  widget->resize(size);
  QTest::qWait(200);
}

QStringList CutColumns(const QTableWidget* table) {
  QStringList cut;
  const QHeaderView* header = table->horizontalHeader();
  const int width = table->viewport()->width();
  for (int c = 0; c < table->columnCount(); ++c) {
    const int left = header->sectionViewportPosition(c), size = header->sectionSize(c);
    const int least = std::max(static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(c), header->sectionSizeHint(c));
    if (header->isSectionHidden(c) || left < 0 || left + size > width || size < least)
      cut << QString("%1 (at %2, %3 px wide, needs %4; the viewport is %5 px)")
                 .arg(table->horizontalHeaderItem(c)->text())
                 .arg(left)
                 .arg(size)
                 .arg(least)
                 .arg(width);
  }
  if (table->horizontalScrollBar()->isVisible()) cut << "a sideways scroll bar";
  return cut;
}

// A finished 5-player game whose every turn was played with the longest race and power names there are (the
// Coins screen's widest turns table), numbers of two digits.
std::shared_ptr<swref::core::GameSummary> WidestSummary() {
  std::string race, power;
  for (int r = 0; r < swref::engine::kRaceCount; ++r) {
    const std::string name(swref::engine::Info(static_cast<swref::engine::Race>(r)).name);
    if (name.size() > race.size()) race = name;
  }
  for (int p = 0; p < swref::engine::kPowerCount; ++p) {
    const std::string name(swref::engine::Info(static_cast<swref::engine::Power>(p)).name);
    if (name.size() > power.size()) power = name;
  }
  auto s = std::make_shared<swref::core::GameSummary>();
  s->file = "widest.json";
  s->finished = true;
  s->players = {"Annabelle", "Bartholomew", "Christabel", "Demetrius", "Evangeline"};
  s->winners = {"Bartholomew"};
  s->start_coins.assign(5, 5);
  for (int round = 1; round <= 10; ++round)
    for (const std::string& player : s->players) {
      swref::core::TurnRow t;
      t.round = round;
      t.player = player;
      t.combo = race + " + " + power;
      t.coins.regions = 12, t.coins.race = 10, t.coins.power = 10;
      for (int p = 0; p < 5; ++p) t.holdings.push_back(10 * round + 3 * p);
      s->turns.push_back(t);
    }
  return s;
}

}  // namespace swref::gui_test
