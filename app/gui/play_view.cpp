#include "app/gui/play_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include "app/gui/alert_panel.h"
#include "app/gui/board_view.h"
#include "app/gui/combo_column.h"
#include "app/gui/qt_util.h"
#include "app/gui/session_worker.h"
#include "engine/components.h"
#include "engine/replay.h"

namespace swref::gui {
namespace {

QString Phase(const engine::Game& g) {
  if (g.finished()) return "game over";
  if (g.solo() && g.solo()->phase == engine::SoloPhase::kSetup) {  // SoloPlay's setup: the opposition is placed first
    const engine::OppositionRace& o = g.solo()->opposition[g.solo()->placing];
    return QString("setup: placing the opposition's %1 + %2")
        .arg(Q(std::string(engine::Info(o.race).name)), Q(std::string(engine::Info(o.power).name)));
  }
  const engine::TurnState& t = g.turn();
  if (t.declined) return "declining";
  if (g.players()[g.current_player()].active < 0) return "picking a combo";
  if (t.redeployed) return "redeployed: end of turn next";
  if (t.conquests_over) return "redeploying";
  if (t.active_conquered) return "conquering";
  return t.picked ? "picked: conquering next" : "start of turn";
}

QString NoticeIcon(core::NoticeKind kind) {
  switch (kind) {
    case core::NoticeKind::kFlag:
      return "FLAG";
    case core::NoticeKind::kQuestion:
      return "ASK";
    case core::NoticeKind::kRefused:
      return "NO";
    case core::NoticeKind::kCoins:
      return "COINS";
    case core::NoticeKind::kStopped:
      return "STOP";
    case core::NoticeKind::kEnded:
      return "END";
    default:
      return Q(core::ToString(kind));
  }
}

QPushButton* Button(const QString& text, const QString& name, const QString& tip) {
  auto* b = new QPushButton(text);
  b->setObjectName(name);
  b->setToolTip(tip);
  return b;
}

}  // namespace

PlayView::PlayView(SessionWorker* worker, QWidget* parent) : QWidget(parent), worker_(worker) {
  board_ = new BoardView;
  alert_ = new AlertPanel;
  column_ = new ComboColumn;
  status_ = new QLabel;
  status_->setObjectName("playStatus");
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::RichText);
  log_ = new QListWidget;
  log_->setObjectName("eventLog");
  log_->setWordWrap(true);
  play_ = Button("Play", "play", "Play or pause the frames (Space)");
  step_ = Button("One frame", "step", "Read one more frame (. or Right)");
  autopilot_ = new QCheckBox("Demo players answer questions");
  autopilot_->setObjectName("autopilot");
  autopilot_->setChecked(true);
  autopilot_->setToolTip("At the demo's table, its players correct what the camera read wrong; untick to answer yourself");
  decline_ = Button("Decline", "decline", "The player puts the active race in decline (D)");
  die_ = Button("Die roll...", "die", "The reinforcement die was rolled (R)");
  end_turn_ = Button("End of turn", "endTurn", "The player ends the turn; the coins are tallied (E)");
  undo_ = Button("Undo...", "undo", "Take the last committed action back, with a reason (Ctrl+Z)");

  auto* transport = new QHBoxLayout;
  transport->addWidget(play_);
  transport->addWidget(step_);
  transport->addStretch();
  auto* turn = new QGridLayout;
  turn->addWidget(decline_, 0, 0);
  turn->addWidget(die_, 0, 1);
  turn->addWidget(end_turn_, 1, 0);
  turn->addWidget(undo_, 1, 1);
  auto* combos = new QGroupBox("Combo column (click to pick)");
  auto* combos_layout = new QVBoxLayout(combos);
  combos_layout->addWidget(column_);
  column_->setMinimumHeight(6 * column_->fontMetrics().height() + 24);
  auto* log_box = new QGroupBox("Event log");
  auto* log_layout = new QVBoxLayout(log_box);
  log_layout->addWidget(log_);

  auto* side = new QWidget;
  auto* side_layout = new QVBoxLayout(side);
  side_layout->addWidget(status_);
  side_layout->addLayout(transport);
  side_layout->addWidget(autopilot_);
  side_layout->addWidget(combos);
  side_layout->addLayout(turn);
  side_layout->addWidget(log_box, 1);
  side->setMinimumWidth(340);
  side->setMaximumWidth(520);

  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 0, 0);
  left_layout->addWidget(board_, 1);
  left_layout->addWidget(alert_);
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(side);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 0);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);

  connect(play_, &QPushButton::clicked, this, &PlayView::TogglePlay);
  connect(step_, &QPushButton::clicked, this, &PlayView::StepFrame);
  connect(autopilot_, &QCheckBox::toggled, this, [this](bool on) { worker_->Post([w = worker_, on] { w->SetAutopilot(on); }); });
  connect(decline_, &QPushButton::clicked, this, &PlayView::Decline);
  connect(die_, &QPushButton::clicked, this, &PlayView::AskDie);
  connect(end_turn_, &QPushButton::clicked, this, &PlayView::EndTurn);
  connect(undo_, &QPushButton::clicked, this, &PlayView::AskUndo);
  connect(column_, &ComboColumn::Pick, this, &PlayView::PickCombo);
  connect(alert_, &AlertPanel::TakeBack, this, &PlayView::TakeBack);
  connect(alert_, &AlertPanel::Accept, this, &PlayView::AskAccept);
  connect(alert_, &AlertPanel::Choose, this, &PlayView::ChooseOption);
  connect(alert_, &AlertPanel::Correct, this, &PlayView::AskCorrection);
  connect(alert_, &AlertPanel::AnswerAsTable, this, &PlayView::AnswerAsTable);
  connect(board_, &BoardView::RegionClicked, this, [this](int region) {
    clicked_region_ = region;
    emit Message(QString("Region %1 chosen (for a correction: C)").arg(region));
  });
  Show(nullptr);
}

namespace {

// The game's result once it is over, from the session's `ended` notice ({coins, winners}, and `solo` for a
// SoloPlay game); a game that was over when its record was resumed has had no such notice, and its result is
// made from the game itself in the same form. Every player's coins are shown now (docs/gui.md, Coins).
nlohmann::json Result(const Snapshot& s) {
  if (s.result.is_object() || !s.game || !s.game->finished()) return s.result;
  const engine::Game& g = *s.game;
  nlohmann::json result = {{"coins", nlohmann::json::object()}, {"winners", nlohmann::json::array()}};
  for (const auto& p : g.players()) result["coins"][p.name] = p.coins;
  for (int w : g.Winners()) result["winners"].push_back(g.players()[w].name);
  if (g.solo()) result["solo"] = engine::SoloResult(g);
  return result;
}

QString ResultText(const nlohmann::json& r) {
  if (!r.is_object()) return {};
  if (r.contains("solo") && r.at("solo").is_object()) {
    const nlohmann::json& solo = r.at("solo");
    QString text = QString("<b>Game over: solo score %1</b> (the player's coins less the opposition's %2)")
                       .arg(solo.value("score", 0))
                       .arg(solo.value("opposition", 0));
    const nlohmann::json rating = solo.value("rating", nlohmann::json()), end = solo.value("end", nlohmann::json());
    if (rating.is_string()) text += QString(" &middot; rating <b>%1</b>").arg(Q(rating.get<std::string>()));
    if (end.is_object()) text += "<br>End items: " + SoloEndItems(end);
    return text;
  }
  QStringList winners, coins;
  for (const auto& w : r.value("winners", nlohmann::json::array())) winners << Q(w.get<std::string>()).toHtmlEscaped();
  const nlohmann::json held = r.value("coins", nlohmann::json::object());  // kept: items() refers to it
  for (const auto& [name, c] : held.items()) coins << QString("%1 %2").arg(Q(name).toHtmlEscaped()).arg(c.get<int>());
  const QString who = winners.size() == 1 ? winners[0] + " wins" : winners.join(" and ") + " share the win";
  return QString("<b>Game over: %1</b> &middot; coins: %2").arg(who, coins.join(", "));
}

}  // namespace

QString PlayView::Status(const Snapshot& s) const {
  if (!s.game) return "<b>No game.</b> Ctrl+D plays the demo; Ctrl+N starts a game; Ctrl+R resumes one.";
  const engine::Game& g = *s.game;
  const QString player = Q(g.players()[g.current_player()].name);
  // SoloPlay counts its own rounds; its opposition's score is public (the player's coins stay on the Coins screen).
  const int rounds = g.solo() ? g.solo()->rounds : g.map().turns;
  QString text = QString("%1<b>Round %2 of %3</b> &middot; <b style='color:%4'>%5</b>'s turn &middot; %6")
                     .arg(g.solo() ? QString("<b>SoloPlay</b> &middot; ") : QString())
                     .arg(g.round())
                     .arg(rounds)
                     .arg(PlayerColour(g.current_player()).name(), player.toHtmlEscaped(), Phase(g));
  if (g.solo() && !g.finished()) text += QString("<br>The opposition's score so far: %1").arg(g.solo()->OppositionTotal());
  if (const QString result = ResultText(Result(s)); !result.isEmpty()) text += "<br>" + result;
  QString frames = s.frame_index < 0 ? QString("no frame yet") : QString("frame %1").arg(s.frame_index + 1);
  if (s.frame_count > 0) frames += QString(" of %1").arg(s.frame_count);
  if (!s.still.empty() && s.frame_index >= 0) frames += " &middot; " + Q(s.still);
  text += "<br>" + frames + (s.running ? " &middot; playing" : s.ended ? " &middot; ended" : " &middot; paused");
  text += "<br><small>Record: " + Q(s.record).toHtmlEscaped() + "</small>";
  return text;
}

void PlayView::Show(const SnapshotPtr& s) {
  snapshot_ = s;
  board_->Show(s);
  alert_->Show(s);
  column_->Show(s);
  status_->setText(s ? Status(*s) : Status(Snapshot()));
  if (s)
    for (const core::Notice& n : s->notices) Log(n);
  const bool live = s && s->game && !s->ended;
  const bool open = s && (s->open_flag >= 0 || s->open_question >= 0);
  play_->setText(s && s->running ? "Pause" : "Play");
  play_->setEnabled(live);
  step_->setEnabled(live && !(s && s->running));
  autopilot_->setVisible(s && s->demo);
  for (QPushButton* b : {decline_, die_, end_turn_}) b->setEnabled(live && !open);
  undo_->setEnabled(s && s->game && !open);
  column_->setEnabled(live && !open);
}

void PlayView::Log(const core::Notice& n) {
  if (n.kind == core::NoticeKind::kVision || n.kind == core::NoticeKind::kPending) return;  // every few frames: the status says it
  QString text = Q(n.text);
  if (n.kind == core::NoticeKind::kCoins)  // the tally itself is for the player alone (Coins screen)
    text =
        QString("round %1: %2's turn tallied (coins hidden)").arg(n.data.value("round", 0)).arg(Q(n.data.value("player", std::string())));
  const QString where = n.frame >= 0 ? QString("frame %1").arg(n.frame + 1) : QString("told");
  auto* item = new QListWidgetItem(QString("[%1] %2: %3").arg(where, NoticeIcon(n.kind), text));
  if (n.kind == core::NoticeKind::kFlag || n.kind == core::NoticeKind::kStopped) item->setForeground(QColor(180, 30, 30));
  if (n.kind == core::NoticeKind::kQuestion) item->setForeground(QColor(170, 100, 0));
  if (n.kind == core::NoticeKind::kRefused) item->setForeground(QColor(120, 120, 120));
  log_->addItem(item);
  log_->scrollToBottom();
}

std::string PlayView::CurrentPlayer() const {
  if (!snapshot_ || !snapshot_->game) return "";
  return snapshot_->game->players()[snapshot_->game->current_player()].name;
}

void PlayView::Tell(const nlohmann::json& event) {
  worker_->Post([w = worker_, event] { w->Tell(event); });
  emit Told(Q(event.dump()));
}

void PlayView::TogglePlay() {
  const bool run = !(snapshot_ && snapshot_->running);
  worker_->Post([w = worker_, run] { w->SetRunning(run); });
}

void PlayView::StepFrame() {
  worker_->Post([w = worker_] { w->Step(); });
}

void PlayView::PickCombo(int slot) { Tell({{"player", CurrentPlayer()}, {"do", "pick"}, {"slot", slot}}); }
void PlayView::Decline() { Tell({{"player", CurrentPlayer()}, {"do", "decline"}}); }
void PlayView::RollDie(int face) { Tell({{"player", CurrentPlayer()}, {"do", "die"}, {"face", face}}); }
void PlayView::EndTurn() { Tell({{"player", CurrentPlayer()}, {"do", "end_turn"}}); }
void PlayView::TakeBack() { Tell({{"do", "take_back"}}); }
void PlayView::AcceptFlag(const QString& note) { Tell({{"do", "accept"}, {"note", S(note)}}); }
void PlayView::ChooseOption(int option) { Tell({{"do", "answer"}, {"option", option}}); }
void PlayView::Undo(const QString& reason) { Tell({{"do", "undo"}, {"reason", S(reason)}}); }
void PlayView::AnswerAsTable() {
  worker_->Post([w = worker_] { w->AnswerAsTable(); });
}

void PlayView::CorrectRegion(int region, const QString& race, bool decline, int tokens) {
  nlohmann::json e = {{"do", "correct"}, {"region", region}, {"tokens", tokens}, {"decline", decline}};
  e["race"] = race.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(S(race));
  Tell(e);
}

void PlayView::AskDie() {
  bool ok = false;
  const QStringList faces = {"0 (blank)", "1", "2", "3"};
  const QString face = QInputDialog::getItem(this, "Reinforcement die", "The face rolled:", faces, 0, false, &ok);
  if (ok) RollDie(static_cast<int>(faces.indexOf(face)));
}

void PlayView::AskAccept() {
  bool ok = false;
  const QString note = QInputDialog::getText(this, "Accept the conquest", "The players' note (kept in the record):", QLineEdit::Normal,
                                             "accepted as a house ruling", &ok);
  if (ok) AcceptFlag(note);
}

void PlayView::AskUndo() {
  bool ok = false;
  const QString reason = QInputDialog::getText(this, "Undo the last action", "Why (kept in the record):", QLineEdit::Normal, "", &ok);
  if (!ok) return;
  if (reason.trimmed().isEmpty()) return emit Message("An undo needs a reason; nothing was undone.");
  Undo(reason.trimmed());
}

void PlayView::AskCorrection() {
  QDialog dialog(this);
  dialog.setWindowTitle("Correct the reading");
  auto* region = new QSpinBox;
  const int regions = snapshot_ && snapshot_->game ? snapshot_->game->map().size() : 100;
  region->setRange(0, regions - 1);
  int start = clicked_region_;
  if (start < 0 && snapshot_ && !snapshot_->highlight.empty()) start = snapshot_->highlight.front();
  region->setValue(std::max(0, start));
  auto* race = new QComboBox;
  race->addItem("(no race)", QString());
  for (int r = 0; r < engine::kRaceCount; ++r) {
    const auto& info = engine::Info(static_cast<engine::Race>(r));
    race->addItem(Q(std::string(info.name)), Q(std::string(info.id)));
  }
  auto* decline = new QCheckBox("decline side up");
  auto* tokens = new QSpinBox;
  tokens->setRange(0, 30);
  // Start from what the board holds in the game.
  auto fill = [&](int id) {
    if (!snapshot_ || !snapshot_->game || id >= static_cast<int>(snapshot_->game->board().size())) return;
    const engine::RegionState& st = snapshot_->game->board()[id];
    race->setCurrentIndex(st.HasRace() ? st.race + 1 : 0);
    decline->setChecked(st.decline);
    tokens->setValue(st.tokens);
  };
  fill(region->value());
  connect(region, &QSpinBox::valueChanged, &dialog, fill);
  auto* form = new QFormLayout(&dialog);
  form->addRow("Region (or click it on the board first):", region);
  form->addRow("Race:", race);
  form->addRow("", decline);
  form->addRow("Tokens:", tokens);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  if (dialog.exec() == QDialog::Accepted)
    CorrectRegion(region->value(), race->currentData().toString(), decline->isChecked(), tokens->value());
}

}  // namespace swref::gui
