#include "app/gui/new_game_dialog.h"

#include <filesystem>
#include <functional>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "app/gui/qt_util.h"
#include "engine/map.h"

namespace swref::gui {
namespace {

QWidget* WithBrowse(QLineEdit* edit, std::function<QString()> browse) {
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* button = new QPushButton("Choose...");
  layout->addWidget(edit, 1);
  layout->addWidget(button);
  QObject::connect(button, &QPushButton::clicked, edit, [edit, browse] {
    const QString path = browse();
    if (!path.isEmpty()) edit->setText(path);
  });
  return row;
}

}  // namespace

NewGameDialog::NewGameDialog(bool resume, QWidget* parent) : QDialog(parent), resume_(resume) {
  setWindowTitle(resume ? "Resume a game" : "New game");
  players_ = new QLineEdit("Ann, Bob");
  map_ = new QComboBox;
  for (const std::string& key : engine::BuiltinMapKeys()) map_->addItem(Q(key));
  seed_ = new QSpinBox;
  seed_->setRange(0, 1 << 30);
  seed_->setValue(1);
  seed_->setToolTip("Shuffles the race and power stacks (or write them in the record)");
  setup_ = new QLineEdit;
  source_ = new QComboBox;
  source_->addItems({"Camera", "Video file", "Folder of photos"});
  path_ = new QLineEdit("0");
  events_ = new QLineEdit;
  events_->setPlaceholderText("optional: events.jsonl told along the frames");
  record_ = new QLineEdit;
  error_ = new QLabel;
  error_->setWordWrap(true);
  error_->setStyleSheet("color: #b03a2e");
  auto* form = new QFormLayout(this);
  if (!resume) {
    form->addRow("Players (in seating order):", players_);
    form->addRow("Map:", map_);
    form->addRow("Seed:", seed_);
  }
  form->addRow("Setup folder:", WithBrowse(setup_, [this] { return QFileDialog::getExistingDirectory(this, "The table's setup folder"); }));
  form->addRow("Frames from:", source_);
  form->addRow("Camera number, video or folder:", WithBrowse(path_, [this] {
                 return source_->currentIndex() == 2 ? QFileDialog::getExistingDirectory(this, "The folder of photos")
                                                     : QFileDialog::getOpenFileName(this, "The video");
               }));
  form->addRow("Events file:",
               WithBrowse(events_, [this] { return QFileDialog::getOpenFileName(this, "Events", {}, "Events (*.jsonl)"); }));
  form->addRow(resume ? "Record to continue:" : "Record to write:", WithBrowse(record_, [this, resume] {
                 return resume ? QFileDialog::getOpenFileName(this, "The record", {}, "Records (*.json)")
                               : QFileDialog::getSaveFileName(this, "The new record", "game.json", "Records (*.json)");
               }));
  form->addRow(error_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(resume ? "Resume" : "Start");
  form->addRow(buttons);
  connect(source_, &QComboBox::currentIndexChanged, this, [this](int i) { path_->setText(i == 0 ? "0" : ""); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    auto game = Game();
    if (!game) return error_->setText(Q(game.error()));
    accept();
  });
}

engine::Result<GameStart> NewGameDialog::Game() const {
  using R = engine::Result<GameStart>;
  GameStart g;
  g.source = source_->currentIndex() == 0   ? GameStart::Source::kCamera
             : source_->currentIndex() == 1 ? GameStart::Source::kVideo
                                            : GameStart::Source::kImages;
  g.path = S(path_->text().trimmed());
  g.events = S(events_->text().trimmed());
  g.setup = S(setup_->text().trimmed());
  g.record = S(record_->text().trimmed());
  g.resume = resume_;
  if (g.setup.empty()) return R::Error("Setup folder: give the table's setup folder (Table > Set up the table makes one)");
  if (g.path.empty()) return R::Error("Frames: give the camera's number, the video file or the folder of photos");
  if (g.record.empty()) return R::Error("Record: give the record file");
  std::error_code ec;
  if (resume_) return std::filesystem::exists(g.record, ec) ? R(g) : R::Error(g.record + ": no such record");
  nlohmann::json players = nlohmann::json::array();
  for (const QString& p : players_->text().split(',', Qt::SkipEmptyParts)) players.push_back(S(p.trimmed()));
  const nlohmann::json doc = {{"format", engine::kRecordFormat},
                              {"map", S(map_->currentText())},
                              {"players", players},
                              {"seed", seed_->value()},
                              {"actions", nlohmann::json::array()}};
  auto header = engine::ParseRecord(doc);
  if (!header) return R::Error(header.error());
  g.header = std::move(*header);
  return g;
}

}  // namespace swref::gui
