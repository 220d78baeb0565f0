#include "app/gui/main_window.h"

#include <QAction>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "app/core/demo.h"
#include "app/core/play.h"

namespace swref::gui {
namespace {

QTableWidget* MakeTable(const QStringList& headers) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->horizontalHeader()->setStretchLastSection(true);
  table->verticalHeader()->setVisible(false);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setAlternatingRowColors(true);
  return table;
}

void AddRow(QTableWidget* table, const QStringList& cells) {
  const int row = table->rowCount();
  table->insertRow(row);
  for (int c = 0; c < cells.size(); ++c) table->setItem(row, c, new QTableWidgetItem(cells[c]));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("swref - Small World referee");
  auto* toolbar = addToolBar("Game");
  toolbar->setObjectName("gameToolbar");
  QAction* open = toolbar->addAction("Open record...");
  open->setShortcut(QKeySequence::Open);
  connect(open, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open a game record", {}, "Game records (*.json)");
    if (!path.isEmpty()) OpenRecord(path);
  });
  QAction* demo = toolbar->addAction("Run demo game");
  demo->setShortcut(QKeySequence("Ctrl+D"));
  connect(demo, &QAction::triggered, this, &MainWindow::RunDemo);

  summary_ = new QLabel("Open a game record (Ctrl+O) or run the demo game (Ctrl+D).");
  summary_->setWordWrap(true);
  turns_ = MakeTable({"Round", "Player", "Regions", "Race", "Power", "Turn total"});
  flags_ = MakeTable({"Action", "Code", "Why"});
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(turns_);
  splitter->addWidget(flags_);
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->addWidget(summary_);
  layout->addWidget(splitter);
  setCentralWidget(central);
  resize(900, 640);
}

bool MainWindow::OpenRecord(const QString& path) {
  auto replay = core::ReplayRecordFile(path.toStdString());
  if (!replay) {
    statusBar()->showMessage(QString::fromStdString(replay.error()));
    return false;
  }
  turns_->setRowCount(0);
  flags_->setRowCount(0);
  const engine::Game& game = replay->game;
  for (const engine::TurnScore& t : game.scores())
    AddRow(turns_, {QString::number(t.round), QString::fromStdString(game.players()[t.player].name), QString::number(t.coins.regions),
                    QString::number(t.coins.race), QString::number(t.coins.power), QString::number(t.coins.total())});
  for (size_t i = 0; i < replay->steps.size(); ++i) {
    const engine::Verdict& v = replay->steps[i];
    if (!v.ok()) AddRow(flags_, {QString::number(i), QString::fromStdString(std::string(engine::ToString(v.code))), QString::fromStdString(v.why)});
  }
  QStringList coins;
  for (const auto& p : game.players()) coins << QString("%1 %2").arg(QString::fromStdString(p.name)).arg(p.coins);
  const QString state = game.finished() ? QString("game over after round %1").arg(game.round())
                                        : QString("round %1, %2 to play").arg(game.round()).arg(QString::fromStdString(game.players()[game.current_player()].name));
  summary_->setText(QString("%1: %2. Coins: %3. %4 flagged actions.").arg(path, state, coins.join(", ")).arg(flags_->rowCount()));
  turns_->resizeColumnsToContents();
  flags_->resizeColumnsToContents();
  statusBar()->showMessage("Record replayed through the rules.");
  return true;
}

void MainWindow::RunDemo() {
  auto demo = core::RunDemo(7);
  if (!demo) {
    statusBar()->showMessage(QString::fromStdString(demo.error()));
    return;
  }
  turns_->setRowCount(0);
  flags_->setRowCount(0);
  for (const core::DemoTurn& t : demo->turns)
    AddRow(turns_, {QString::number(t.round), QString::fromStdString(t.player), QString::number(t.coins.regions), QString::number(t.coins.race),
                    QString::number(t.coins.power), QString::number(t.coins.total())});
  for (const core::DemoFlag& f : demo->flags)
    AddRow(flags_, {QString::number(f.step), QString::fromStdString(f.code), QString::fromStdString(f.why)});
  QStringList coins;
  for (const auto& [name, c] : demo->final_coins) coins << QString("%1 %2").arg(QString::fromStdString(name)).arg(c);
  summary_->setText(QString("Demo game on the 2-player map (seed 7). Final coins: %1.").arg(coins.join(", ")));
  turns_->resizeColumnsToContents();
  flags_->resizeColumnsToContents();
  statusBar()->showMessage("Demo game played through the rules.");
}

}  // namespace swref::gui
