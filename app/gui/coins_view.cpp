#include "app/gui/coins_view.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include "app/gui/qt_util.h"

namespace swref::gui {
namespace {

QTableWidgetItem* Cell(const QString& text) { return new QTableWidgetItem(text); }
const QString kHidden = QString::fromUtf8("hidden");
constexpr int kLastTurnColumn = 2;  // of the players' table
constexpr int kComboColumn = 2;     // of the turns' table

}  // namespace

CoinsView::CoinsView(QWidget* parent) : QWidget(parent) {
  intro_ = new QLabel;
  intro_->setWordWrap(true);
  players_ = MakeTable({"Player", "Coins", "Last turn", ""});
  players_->setSelectionMode(QAbstractItemView::NoSelection);
  players_->setObjectName("coinsPlayers");
  turns_ = MakeTable({"Round", "Player", "Combo", "Regions", "Race", "Power", "Turn"});
  turns_->setSelectionMode(QAbstractItemView::NoSelection);
  turns_->setObjectName("coinsTurns");
  // Every column sized to its contents and the combo's taking what is left: the table is never narrower than all
  // its columns (FillTurns sets its least width), so that none is cut off at 1366x768 (docs/gui.md, Sizes).
  turns_->horizontalHeader()->setStretchLastSection(false);
  turns_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  turns_->horizontalHeader()->setSectionResizeMode(kComboColumn, QHeaderView::Stretch);
  players_->horizontalHeader()->setStretchLastSection(false);
  players_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  players_->horizontalHeader()->setSectionResizeMode(kLastTurnColumn, QHeaderView::Stretch);
  chart_ = new QChartView;
  chart_->setRenderHint(QPainter::Antialiasing);
  chart_->setMinimumHeight(220);
  auto* lower = new QSplitter(Qt::Horizontal);
  lower->addWidget(turns_);
  lower->addWidget(chart_);
  lower->setChildrenCollapsible(false);
  lower->setStretchFactor(0, 2);
  lower->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro_);
  layout->addWidget(players_);
  layout->addWidget(lower, 1);
  Refresh();
}

void CoinsView::Show(std::shared_ptr<const core::GameSummary> summary) {
  const std::string game = summary ? summary->file : "";
  if (game != game_) revealed_.clear();
  game_ = game;
  summary_ = std::move(summary);
  Refresh();
}

void CoinsView::Reveal(const std::string& player, bool shown) {
  shown ? (void)revealed_.insert(player) : (void)revealed_.erase(player);
  Refresh();
}

bool CoinsView::Revealed(const std::string& player) const { return (summary_ && summary_->finished) || revealed_.count(player) > 0; }

QString CoinsView::CoinsText(const std::string& player) const {
  for (int r = 0; r < players_->rowCount(); ++r)
    if (players_->item(r, 0) && players_->item(r, 0)->text() == Q(player)) return players_->item(r, 1)->text();
  return {};
}

void CoinsView::Refresh() {
  if (!summary_) {
    intro_->setText("No game yet. The coins of the game being refereed, or of a record opened, show here.");
  } else if (summary_->finished) {
    intro_->setText(QString("<b>The game is over</b>: every player's coins are shown. Winner%1: %2.")
                        .arg(summary_->winners.size() == 1 ? "" : "s")
                        .arg(Q([&] {
                          std::string w;
                          for (const auto& n : summary_->winners) w += (w.empty() ? "" : ", ") + n;
                          return w;
                        }())));
  } else {
    intro_->setText(
        "Each player's coins stay hidden from the others. A player reveals their own with <b>Show</b> (and hides them again); "
        "all are shown when the game is over.");
  }
  FillPlayers();
  FillTurns();
  FillChart();
}

void CoinsView::FillPlayers() {
  players_->setRowCount(0);
  if (!summary_) return;
  for (size_t p = 0; p < summary_->players.size(); ++p) {
    const std::string& name = summary_->players[p];
    const bool shown = Revealed(name);
    int coins = p < summary_->start_coins.size() ? summary_->start_coins[p] : 0;
    QString last = "-";
    for (const core::TurnRow& t : summary_->turns) {
      if (p < t.holdings.size()) coins = t.holdings[p];
      if (t.player == name)
        last = QString("round %1: %2 + %3 + %4 = %5")
                   .arg(t.round)
                   .arg(t.coins.regions)
                   .arg(t.coins.race)
                   .arg(t.coins.power)
                   .arg(t.coins.total());
    }
    const int row = players_->rowCount();
    players_->insertRow(row);
    auto* who = Cell(Q(name));
    who->setForeground(PlayerColour(static_cast<int>(p)));
    QFont bold = who->font();
    bold.setBold(true);
    who->setFont(bold);
    players_->setItem(row, 0, who);
    players_->setItem(row, 1, Cell(shown ? QString::number(coins) : kHidden));
    players_->setItem(row, 2, Cell(shown ? last : kHidden));
    if (!summary_->finished) {
      auto* button = new QPushButton(shown ? "Hide" : QString("Show (%1 only)").arg(Q(name)));
      button->setObjectName(Q("reveal-" + name));
      connect(button, &QPushButton::clicked, this, [this, name, shown] { Reveal(name, !shown); });
      players_->setCellWidget(row, 3, button);
    }
  }
  players_->setMaximumHeight(players_->horizontalHeader()->height() +
                             players_->rowCount() * players_->verticalHeader()->defaultSectionSize() + 6);
}

void CoinsView::FillTurns() {
  turns_->setRowCount(0);
  if (!summary_) return;
  for (const core::TurnRow& t : summary_->turns) {
    const bool shown = Revealed(t.player);
    const int row = turns_->rowCount();
    turns_->insertRow(row);
    const QStringList cells = {QString::number(t.round),
                               Q(t.player),
                               Q(t.combo),
                               shown ? QString::number(t.coins.regions) : "",
                               shown ? QString::number(t.coins.race) : "",
                               shown ? QString::number(t.coins.power) : "",
                               shown ? QString::number(t.coins.total()) : kHidden};
    for (int c = 0; c < cells.size(); ++c) turns_->setItem(row, c, Cell(cells[c]));
  }
  // The least width that shows every column whole: each column's contents (or its title), the frame and a
  // vertical scroll bar.
  QHeaderView* header = turns_->horizontalHeader();
  int width = 2 * turns_->frameWidth() + turns_->verticalScrollBar()->sizeHint().width();
  for (int c = 0; c < turns_->columnCount(); ++c)
    width += std::max(static_cast<QAbstractItemView*>(turns_)->sizeHintForColumn(c), header->sectionSizeHint(c));
  turns_->setMinimumWidth(width);
  turns_->scrollToBottom();
}

void CoinsView::FillChart() {
  auto* chart = new QChart;
  chart->setTitle("Coins after each turn");
  chart->legend()->setAlignment(Qt::AlignBottom);
  auto* x = new QValueAxis;
  x->setTitleText("turn");
  x->setLabelFormat("%d");
  auto* y = new QValueAxis;
  y->setTitleText("coins");
  y->setLabelFormat("%d");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  int top = 10, turns = 1;
  if (summary_) {
    for (size_t p = 0; p < summary_->players.size(); ++p) {
      if (!Revealed(summary_->players[p])) continue;
      auto* series = new QLineSeries;
      series->setName(Q(summary_->players[p]));
      series->setColor(PlayerColour(static_cast<int>(p)));
      if (p < summary_->start_coins.size()) series->append(0, summary_->start_coins[p]);
      for (size_t i = 0; i < summary_->turns.size(); ++i) {
        if (p >= summary_->turns[i].holdings.size()) continue;
        series->append(static_cast<double>(i + 1), summary_->turns[i].holdings[p]);
        top = std::max(top, summary_->turns[i].holdings[p]);
      }
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
    }
    turns = std::max<int>(1, static_cast<int>(summary_->turns.size()));
  }
  x->setRange(0, turns);
  x->setTickCount(std::min(turns, 10) + 1);
  y->setRange(0, top + 5 - top % 5);
  if (chart->series().isEmpty()) chart->setTitle("Coins after each turn (no player revealed)");
  QChart* old = chart_->chart();
  chart_->setChart(chart);
  delete old;
}

}  // namespace swref::gui
