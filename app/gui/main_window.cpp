#include "app/gui/main_window.h"

#include <filesystem>

#include <QAction>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>

#include "app/gui/board_view.h"
#include "app/gui/coins_view.h"
#include "app/gui/new_game_dialog.h"
#include "app/gui/play_view.h"
#include "app/gui/qt_util.h"
#include "app/gui/records_view.h"
#include "app/gui/setup_wizard.h"

namespace swref::gui {
namespace {

struct Shortcut {
  const char* keys;
  const char* what;
};
// Every shortcut, as the help lists them (the actions below carry the same keys).
const Shortcut kShortcuts[] = {
    {"Ctrl+D", "play the demo game"},
    {"Ctrl+N", "new game"},
    {"Ctrl+R", "resume a game"},
    {"Ctrl+O", "open a record"},
    {"Ctrl+S", "save a copy of the record"},
    {"Ctrl+E", "export the report"},
    {"Ctrl+Shift+S", "set up the table"},
    {"Ctrl+W", "stop the game (close its record)"},
    {"Ctrl+1 / 2 / 3", "Play / Coins / Records"},
    {"Space", "play or pause the frames"},
    {". or Right", "one frame"},
    {"1 ... 6", "pick that combo"},
    {"D", "decline"},
    {"R", "die roll"},
    {"E", "end of turn"},
    {"T", "the flagged conquest is taken back"},
    {"A", "accept the flagged conquest with a note"},
    {"C", "correct the reading"},
    {"Ctrl+Z", "undo the last action (with a reason)"},
    {"F1", "this list"},
};

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  qRegisterMetaType<SnapshotPtr>();
  setWindowTitle("swref - Small World referee");
  worker_ = new SessionWorker;
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_.start();

  play_ = new PlayView(worker_);
  coins_ = new CoinsView;
  records_ = new RecordsView;
  tabs_ = new QTabWidget;
  tabs_->addTab(play_, "Play");
  tabs_->addTab(coins_, "Coins");
  tabs_->addTab(records_, "Records");
  setCentralWidget(tabs_);
  progress_ = new QProgressBar;
  progress_->setMaximumWidth(260);
  progress_->hide();
  statusBar()->addPermanentWidget(progress_);

  connect(worker_, &SessionWorker::Updated, this, &MainWindow::OnSnapshot);
  connect(worker_, &SessionWorker::Failed, this, &MainWindow::OnFailed);
  connect(worker_, &SessionWorker::Progress, this, [this](const QString& stage, qint64 done, qint64 total) {
    progress_->show();
    progress_->setRange(0, static_cast<int>(std::max<qint64>(total, 1)));
    progress_->setValue(static_cast<int>(done));
    const QString what = stage == "frames" ? "photographing the demo game" : stage == "setup" ? "setting the table up" : stage;
    progress_->setFormat(what + " %v/%m");
    play_->board()->SetPlaceholder(QString("Preparing the demo table (once): %1, %2 of %3...").arg(what).arg(done).arg(total));
  });
  connect(play_, &PlayView::Message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  connect(records_, &RecordsView::Message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  connect(records_, &RecordsView::Opened, coins_, &CoinsView::Show);
  MakeMenus();
  resize(1280, 800);
  statusBar()->showMessage("Ctrl+D plays the demo game; F1 lists the shortcuts.");
}

MainWindow::~MainWindow() {
  // The worker lets go of the session (its record stays open: a game can be resumed) and the thread ends; a demo
  // table being prepared is cancelled first (the worker's thread would be busy with it for minutes).
  CancelPreparation();
  QMetaObject::invokeMethod(
      worker_, [w = worker_] { w->Detach(); }, Qt::BlockingQueuedConnection);
  thread_.quit();
  thread_.wait();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  CancelPreparation();
  if (wizard_) wizard_->close();
  event->accept();
}

void MainWindow::CancelPreparation() {
  if (cancel_) *cancel_ = true;
}

QString MainWindow::DataDir(const QString& sub) const {
  const QString dir = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(sub);
  QDir().mkpath(dir);
  return dir;
}

void MainWindow::MakeMenus() {
  auto add = [this](QMenu* menu, const QString& text, const QKeySequence& keys, std::function<void()> call) {
    QAction* a = menu ? menu->addAction(text) : new QAction(text, this);
    a->setShortcut(keys);
    a->setShortcutContext(Qt::WindowShortcut);
    if (!menu) addAction(a);
    connect(a, &QAction::triggered, this, std::move(call));
    return a;
  };
  QMenu* game = menuBar()->addMenu("&Game");
  add(game, "Play the &demo game", QKeySequence("Ctrl+D"), [this] { RunDemo(); });
  add(game, "&New game...", QKeySequence::New, [this] { NewGame(false); });
  add(game, "&Resume a game...", QKeySequence("Ctrl+R"), [this] { NewGame(true); });
  game->addSeparator();
  add(game, "&Open a record...", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open a game record", {}, "Game records (*.json);;All files (*)");
    if (!path.isEmpty()) OpenRecord(path);
  });
  add(game, "&Save a copy of the record...", QKeySequence::Save, [this] {
    const QString path = QFileDialog::getSaveFileName(this, "Save a copy of the record", "game.json", "Game records (*.json)");
    if (!path.isEmpty()) SaveCopy(path);
  });
  add(game, "&Export the report...", QKeySequence("Ctrl+E"), [this] { records_->AskExport(); });
  add(game, "S&top the game", QKeySequence("Ctrl+W"), [this] { StopGame(); });
  game->addSeparator();
  add(game, "&Quit", QKeySequence::Quit, [this] { close(); });
  QMenu* table = menuBar()->addMenu("&Table");
  add(table, "&Set up the table...", QKeySequence("Ctrl+Shift+S"), [this] { OpenWizard(); });
  QMenu* view = menuBar()->addMenu("&View");
  add(view, "&Play", QKeySequence("Ctrl+1"), [this] { ShowScreen(0); });
  add(view, "&Coins", QKeySequence("Ctrl+2"), [this] { ShowScreen(1); });
  add(view, "&Records", QKeySequence("Ctrl+3"), [this] { ShowScreen(2); });
  QMenu* turn = menuBar()->addMenu("T&urn");
  add(turn, "Play / pause", QKeySequence(Qt::Key_Space), [this] { play_->TogglePlay(); });
  add(turn, "One frame", QKeySequence(Qt::Key_Period), [this] { play_->StepFrame(); });
  add(nullptr, "One frame", QKeySequence(Qt::Key_Right), [this] { play_->StepFrame(); });
  turn->addSeparator();
  for (int slot = 0; slot < 6; ++slot)
    add(nullptr, QString("Pick combo %1").arg(slot + 1), QKeySequence(Qt::Key_1 + slot), [this, slot] { play_->PickCombo(slot); });
  add(turn, "Decline", QKeySequence(Qt::Key_D), [this] { play_->Decline(); });
  add(turn, "Die roll...", QKeySequence(Qt::Key_R), [this] { play_->AskDie(); });
  add(turn, "End of turn", QKeySequence(Qt::Key_E), [this] { play_->EndTurn(); });
  turn->addSeparator();
  add(turn, "Taken back", QKeySequence(Qt::Key_T), [this] { play_->TakeBack(); });
  add(turn, "Accept with a note...", QKeySequence(Qt::Key_A), [this] { play_->AskAccept(); });
  add(turn, "Correct the reading...", QKeySequence(Qt::Key_C), [this] { play_->AskCorrection(); });
  add(turn, "Undo the last action...", QKeySequence::Undo, [this] { play_->AskUndo(); });
  QMenu* help = menuBar()->addMenu("&Help");
  add(help, "&Keyboard shortcuts", QKeySequence::HelpContents, [this] { ShowShortcuts(); });
}

void MainWindow::ShowShortcuts() {
  QString text = "<table>";
  for (const Shortcut& s : kShortcuts) text += QString("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(s.keys, s.what);
  text += "</table>";
  auto* box = new QMessageBox(QMessageBox::Information, "Keyboard shortcuts", text, QMessageBox::Close, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::ShowScreen(int index) { tabs_->setCurrentIndex(index); }

SetupWizard* MainWindow::OpenWizard() {
  if (!wizard_) wizard_ = new SetupWizard(this);
  wizard_->show();
  wizard_->raise();
  return wizard_;
}

bool MainWindow::OpenRecord(const QString& path) {
  const bool ok = records_->Open(path);
  if (ok)
    ShowScreen(2);
  else
    last_error_ = "cannot open " + path;
  return ok;
}

void MainWindow::RunDemo() {
  GameStart start;
  start.source = GameStart::Source::kDemo;
  start.frame_width = demo_width_;
  start.frame_height = demo_height_;
  start.demo_dir = S(QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                         .filePath(QString("demo-%1-%2x%3").arg(start.seed).arg(demo_width_).arg(demo_height_)));
  start.record = S(QDir(DataDir("records")).filePath("demo-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss-zzz") + ".json"));
  StartGame(start);
}

void MainWindow::StartGame(const GameStart& given) {
  // A preparation still under way for an earlier start is not wanted any more.
  CancelPreparation();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  GameStart start = given;
  start.cancel = cancel_;
  last_error_.clear();
  starting_ = true;
  ShowScreen(0);
  play_->board()->SetPlaceholder(start.source == GameStart::Source::kDemo ? "Starting the demo..." : "Starting the game...");
  worker_->Post([w = worker_, start] { w->Start(start); });
}

void MainWindow::NewGame(bool resume) {
  NewGameDialog dialog(resume, this);
  if (dialog.exec() != QDialog::Accepted) return;
  auto game = dialog.Game();
  if (game) StartGame(*game);
}

bool MainWindow::SaveCopy(const QString& path) {
  if (!last_ || last_->record.empty()) {
    statusBar()->showMessage("No game is being recorded: nothing to save.");
    return false;
  }
  // The record is on disk after every entry; this is a copy of it (the game goes on in the original).
  std::error_code ec;
  std::filesystem::copy_file(last_->record, S(path), std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) {
    last_error_ = path + ": cannot write the copy: " + Q(ec.message());
    statusBar()->showMessage(last_error_);
    return false;
  }
  statusBar()->showMessage("Saved a copy of the record to " + path, 8000);
  return true;
}

void MainWindow::StopGame() {
  CancelPreparation();
  worker_->Post([w = worker_] { w->Close("stopped by the players"); });
}

void MainWindow::DetachGame() {
  CancelPreparation();
  worker_->Post([w = worker_] { w->Detach(); });
}

void MainWindow::OnSnapshot(const SnapshotPtr& s) {
  const bool summary_changed = !last_ || last_->summary != s->summary;
  last_ = s;
  starting_ = false;
  progress_->hide();
  play_->Show(s);
  if (summary_changed && s->summary) {
    coins_->Show(s->summary);
    if (records_->path().isEmpty() || records_->path() == Q(s->record)) records_->Open(Q(s->record));
  }
  if (!s->game) play_->board()->SetPlaceholder("No game. Ctrl+D plays the demo; Ctrl+N starts a new game; Ctrl+R resumes one.");
  setWindowTitle(s->game ? QString("swref - %1").arg(Q(std::filesystem::path(s->record).filename().string()))
                         : "swref - Small World referee");
  emit SnapshotShown(s);
}

void MainWindow::OnFailed(const QString& error) {
  last_error_ = error;
  progress_->hide();
  statusBar()->showMessage(error);
  // Only a start that failed is said on the board; any other refusal (a key pressed with no game) is in the
  // status bar alone.
  if (starting_ && (!last_ || !last_->game)) play_->board()->SetPlaceholder("Could not start: " + error);
  starting_ = false;
}

}  // namespace swref::gui
