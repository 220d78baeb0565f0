// The Coins screen: every player's tally, hidden until that player asks to see it (a player reveals their own,
// then hides it again) and shown for all once the game is over; each turn's breakdown (regions, race, power) for
// the players revealed; and the chart of every revealed player's coins turn by turn (Qt Charts). Fed with the
// record's summary (app/core/report_data.h), for the game being refereed or a record opened.
#pragma once

#include <memory>
#include <set>
#include <string>

#include <QWidget>

#include "app/core/report_data.h"

class QChartView;
class QGridLayout;
class QLabel;
class QTableWidget;

namespace swref::gui {

class CoinsView : public QWidget {
  Q_OBJECT

 public:
  explicit CoinsView(QWidget* parent = nullptr);
  void Show(std::shared_ptr<const core::GameSummary> summary);
  void Reveal(const std::string& player, bool shown);
  bool Revealed(const std::string& player) const;
  // The cell of the players' table that shows `player`'s coins (for tests).
  QString CoinsText(const std::string& player) const;

 private:
  void Refresh();
  void FillPlayers();
  void FillTurns();
  void FillChart();

  std::shared_ptr<const core::GameSummary> summary_;
  std::string game_;  // the record shown (reveals are kept per game)
  std::set<std::string> revealed_;
  QLabel* intro_;
  QTableWidget* players_;
  QTableWidget* turns_;
  QChartView* chart_;
};

}  // namespace swref::gui
