#include "app/gui/records_view.h"

#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "app/core/play.h"
#include "app/core/report.h"
#include "app/gui/qt_util.h"
#include "engine/replay.h"

namespace swref::gui {
namespace {

void AddRow(QTableWidget* t, const QStringList& cells) {
  const int row = t->rowCount();
  t->insertRow(row);
  for (int c = 0; c < cells.size(); ++c) t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QWidget* Boxed(const QString& title, QWidget* inside) {
  auto* box = new QGroupBox(title);
  auto* layout = new QVBoxLayout(box);
  layout->addWidget(inside);
  return box;
}

QString Integrity(core::Integrity i) {
  switch (i) {
    case core::Integrity::kVerified:
      return "verified: the journal proves the record unedited";
    case core::Integrity::kNoChain:
      return "no journal: replayed, but nothing proves it unedited";
    case core::Integrity::kTampered:
      return "tampered";
  }
  return "";
}

QString Join(const std::vector<std::string>& v) {
  QStringList out;
  for (const auto& s : v) out << Q(s);
  return out.join(", ");
}

}  // namespace

RecordsView::RecordsView(QWidget* parent) : QWidget(parent) {
  auto* open = new QPushButton("Open a record... (Ctrl+O)");
  export_ = new QPushButton("Export the report... (Ctrl+E)");
  export_->setObjectName("export");
  export_->setEnabled(false);
  exported_ = new QLabel;
  exported_->setOpenExternalLinks(true);
  exported_->setWordWrap(true);
  header_ = new QLabel("No record open. Open a finished game's record, or play a game: its record shows here.");
  header_->setObjectName("recordHeader");
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  solo_ = new QLabel;
  solo_->setObjectName("soloBox");
  solo_->setWordWrap(true);
  solo_->setTextFormat(Qt::RichText);
  solo_->setStyleSheet("QLabel#soloBox { background: #eef5ff; border: 1px solid #7aa7e0; border-radius: 6px; padding: 8px; }");
  solo_->hide();
  turns_ = MakeTable({"Round", "Player", "Combo", "Regions", "Race", "Power", "Turn", "Coins after"});
  flags_ = MakeTable({"Round", "Player", "Attempt", "Rule", "Why", "Ended"});
  ranking_ = MakeTable({"Rank", "Player", "Coins", "Tokens on the board"});
  turns_->setObjectName("recordTurns");
  flags_->setObjectName("recordFlags");

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(open);
  buttons->addWidget(export_);
  buttons->addWidget(exported_, 1);
  auto* top = new QHBoxLayout;
  top->addWidget(header_, 3);
  top->addWidget(solo_, 2);
  auto* lower = new QSplitter(Qt::Vertical);
  auto* upper_row = new QSplitter(Qt::Horizontal);
  upper_row->addWidget(Boxed("Turns", turns_));
  upper_row->addWidget(Boxed("Ranking", ranking_));
  upper_row->setStretchFactor(0, 3);
  upper_row->setStretchFactor(1, 1);
  lower->addWidget(upper_row);
  lower->addWidget(Boxed("Flagged conquests", flags_));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buttons);
  layout->addLayout(top);
  layout->addWidget(lower, 1);

  connect(open, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open a game record", {}, "Game records (*.json);;All files (*)");
    if (!path.isEmpty()) Open(path);
  });
  connect(export_, &QPushButton::clicked, this, &RecordsView::AskExport);
}

bool RecordsView::Open(const QString& path) {
  bool tampered = false;
  auto summary = core::SummariseRecord(S(path), &tampered);
  if (!summary) {
    header_->setText("<b>Cannot open the record.</b><br>" + Q(summary.error()).toHtmlEscaped());
    emit Message(Q(summary.error()));
    return false;
  }
  summary_ = std::make_shared<const core::GameSummary>(std::move(*summary));
  path_ = path;
  const core::GameSummary& g = *summary_;
  QString state = g.finished ? QString("finished after round %1").arg(g.round) : QString("in progress, round %1").arg(g.round);
  if (g.finished && !g.winners.empty())
    state += " &middot; winner" + QString(g.winners.size() > 1 ? "s: " : ": ") + Join(g.winners).toHtmlEscaped();
  header_->setText(QString("<b>%1</b><br>%2<br>Map %3 &middot; %4 &middot; players %5 &middot; %6 actions, %7 journal entries<br>%8")
                       .arg(Q(g.name).toHtmlEscaped(), Q(g.file).toHtmlEscaped(), Q(g.map), Q(g.variant), Join(g.players).toHtmlEscaped())
                       .arg(g.actions)
                       .arg(g.entries)
                       .arg(state + "<br>Integrity: " + Integrity(g.integrity)));
  turns_->setRowCount(0);
  for (const core::TurnRow& t : g.turns) {
    QStringList after;
    for (size_t p = 0; p < t.holdings.size() && p < g.players.size(); ++p)
      after << QString("%1 %2").arg(Q(g.players[p])).arg(t.holdings[p]);
    if (g.finished)
      AddRow(turns_, {QString::number(t.round), Q(t.player), Q(t.combo), QString::number(t.coins.regions), QString::number(t.coins.race),
                      QString::number(t.coins.power), QString::number(t.coins.total()), after.join(", ")});
    else
      AddRow(turns_, {QString::number(t.round), Q(t.player), Q(t.combo), "", "", "", "hidden", "hidden until the end (Coins screen)"});
  }
  flags_->setRowCount(0);
  for (const core::FlagRow& f : g.flags)
    AddRow(flags_, {QString::number(f.round), Q(f.player), Q(f.action), Q(f.code), Q(f.why),
                    Q(f.resolution) + (f.note.empty() ? "" : ": " + Q(f.note))});
  ranking_->setRowCount(0);
  for (const core::RankRow& r : g.ranking)
    if (g.finished)
      AddRow(ranking_,
             {QString::number(r.rank), Q(r.player) + (r.winner ? " (winner)" : ""), QString::number(r.coins), QString::number(r.tokens)});
  for (QTableWidget* t : {turns_, flags_, ranking_}) t->resizeColumnsToContents();
  ShowSolo(path);
  export_->setEnabled(true);
  exported_->clear();
  emit Opened(summary_);
  emit Message("Opened " + path + ": " + Integrity(g.integrity));
  return true;
}

void RecordsView::ShowSolo(const QString& path) {
  solo_->hide();
  solo_->clear();
  if (!summary_ || summary_->variant != "solo") return;
  auto replay = core::ReplayRecordFile(S(path));
  if (!replay || !replay->game.solo()) return;
  const nlohmann::ordered_json solo = engine::SoloDocument(replay->game);
  QString text = QString("<b>SoloPlay</b> &middot; %1<br>").arg(Q(solo.value("phase", std::string())));
  text += QString("<b>Score %1</b> (the player's coins less the opposition's)<br>").arg(solo.value("score", 0));
  const int player_coins = replay->game.players().empty() ? 0 : replay->game.players()[0].coins;
  text += QString("Player's coins: %1 &middot; opposition's score: %2<br>").arg(player_coins).arg(solo["opposition"].value("total", 0));
  QStringList races;
  for (const auto& r : solo["opposition"]["races"])
    races << QString("%1 + %2: %3")
                 .arg(KindName(r.value("race", std::string())), Q(r.value("power", std::string())))
                 .arg(r.value("total", 0));
  text += "<small>" + races.join(" &middot; ") + "</small><br>";
  if (solo["end"].is_object()) {
    text += "End items: " + SoloEndItems(solo["end"]) + "<br>";
  } else {
    text += "End items: after the last round<br>";
  }
  text +=
      solo["rating"].is_string() ? "Rating: <b>" + Q(solo["rating"].get<std::string>()) + "</b>" : QString("Rating: when the game is over");
  solo_->setText(text);
  solo_->show();
}

QString RecordsView::SoloText() const { return summary_ && summary_->variant == "solo" ? solo_->text() : QString(); }

bool RecordsView::Export(const QString& out_dir) {
  if (path_.isEmpty()) {
    emit Message("Open a record first.");
    return false;
  }
  auto written = core::WriteReports({S(path_)}, S(out_dir));
  if (!written) {
    exported_->setText(Q(written.error()).toHtmlEscaped());
    emit Message(Q(written.error()));
    return false;
  }
  QString page;
  for (const auto& f : written->files)
    if (f.extension() == ".html") page = Q(f.string());
  exported_->setText(QString("Wrote %1 files to %2. <a href=\"%3\">Open the page</a>")
                         .arg(written->files.size())
                         .arg(out_dir.toHtmlEscaped(), QUrl::fromLocalFile(page).toString()));
  emit Message(QString("Report written to %1").arg(out_dir));
  return true;
}

void RecordsView::AskExport() {
  const QString dir = QFileDialog::getExistingDirectory(this, "Export the report into a folder");
  if (!dir.isEmpty()) Export(dir);
}

}  // namespace swref::gui
