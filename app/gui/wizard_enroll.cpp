// The setup wizard's last page: the players' own tokens (`swref enroll`), and a live preview of what the camera
// recognises with the model just made.
#include <memory>
#include <optional>

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>


#include "app/core/board_overlay.h"
#include "app/gui/board_view.h"
#include "app/gui/camera_feed.h"
#include "app/gui/qt_util.h"
#include "calibration/image_io.h"
#include "app/gui/setup_wizard.h"

namespace swref::gui {

EnrollPage::EnrollPage(WizardState* state, QWidget* parent) : QWizardPage(parent), state_(state) {
  setTitle("4. The tokens");
  setSubTitle(
      "Show the referee your tokens: a folder of crops (one folder per token kind), or photos of the enrollment mat "
      "(page 2 prints it) with the tokens face up, then turned over. Then check what the camera recognises.");
  feed_ = new CameraFeed(this);
  setup_ = new QLineEdit;
  crops_ = new QLineEdit;
  front_ = new QLineEdit;
  flipped_ = new QLineEdit;
  paper_ = new QComboBox;
  paper_->addItems({"a4", "letter"});
  auto* browse_crops = new QPushButton("Choose...");
  auto* enroll = new QPushButton("Enroll");
  result_ = new QLabel;
  result_->setWordWrap(true);
  result_->setObjectName("enrollResult");
  kinds_ = new QTableWidget(0, 4);
  kinds_->setHorizontalHeaderLabels({"Token kind", "Photos", "Quality", "Most confused with"});
  kinds_->horizontalHeader()->setStretchLastSection(true);
  kinds_->verticalHeader()->setVisible(false);
  kinds_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  preview_ = new BoardView;
  preview_->SetPlaceholder("After enrolling: preview a photo of the board with tokens on it, or the live camera.");
  seen_ = new QLabel;
  seen_->setWordWrap(true);
  auto* photo = new QPushButton("Preview a photo...");
  auto* live = new QPushButton("Live camera");

  auto* form = new QFormLayout;
  form->addRow("Setup folder:", setup_);
  auto* crops_row = new QHBoxLayout;
  crops_row->addWidget(crops_);
  crops_row->addWidget(browse_crops);
  form->addRow("Crops folder:", crops_row);
  form->addRow("or mat photos, face up:", front_);
  form->addRow("turned over:", flipped_);
  form->addRow("Mat paper:", paper_);
  auto* side = new QVBoxLayout;
  side->addLayout(form);
  side->addWidget(enroll);
  side->addWidget(result_);
  side->addWidget(kinds_, 1);
  auto* right = new QVBoxLayout;
  right->addWidget(preview_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(photo);
  buttons->addWidget(live);
  right->addLayout(buttons);
  right->addWidget(seen_);
  auto* layout = new QHBoxLayout(this);
  layout->addLayout(side, 2);
  layout->addLayout(right, 3);

  connect(browse_crops, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, "The crops folder (one folder per token kind)");
    if (!dir.isEmpty()) SetCrops(dir);
  });
  connect(enroll, &QPushButton::clicked, this, [this] { Enroll(); });
  connect(photo, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "A photo of the board with tokens", {}, "Images (*.png *.jpg *.jpeg)");
    if (!path.isEmpty()) PreviewPhoto(path);
  });
  connect(live, &QPushButton::clicked, this, [this] { feed_->Open(state_->camera); });
  connect(feed_, &CameraFeed::Problem, this, [this](const QString& text) { seen_->setText("Camera: " + text); });
  connect(feed_, &CameraFeed::FrameReady, this, [this] { Preview(feed_->Latest()); });
  connect(&enroll_, &QFutureWatcherBase::finished, this, [this] {
    const auto report = enroll_.result();
    if (!report) {
      result_->setText("<b style='color:#b03a2e'>Not enrolled:</b> " + Q(report.error()).toHtmlEscaped());
      return;
    }
    ShowReport(*report);
  });
}

void EnrollPage::initializePage() {
  if (setup_->text().isEmpty()) setup_->setText(state_->setup_dir);
}

void EnrollPage::SetCrops(const QString& dir) { crops_->setText(dir); }

bool EnrollPage::Enroll(bool wait) {
  const std::string setup = S(setup_->text()), crops = S(crops_->text());
  if (setup.empty()) {
    result_->setText("Give the setup folder (page 3 makes it).");
    return false;
  }
  result_->setText("Enrolling...");
  if (!crops.empty()) {
    enroll_.setFuture(QtConcurrent::run([setup, crops] { return core::EnrollFromCrops(setup, crops); }));
  } else {
    std::vector<std::string> front, flipped;
    for (const QString& f : front_->text().split(';', Qt::SkipEmptyParts)) front.push_back(S(f.trimmed()));
    for (const QString& f : flipped_->text().split(';', Qt::SkipEmptyParts)) flipped.push_back(S(f.trimmed()));
    const std::string paper = S(paper_->currentText());
    enroll_.setFuture(QtConcurrent::run([setup, front, flipped, paper] { return core::EnrollFromMat(setup, front, flipped, paper); }));
  }
  if (wait) {
    enroll_.waitForFinished();
    QCoreApplication::processEvents();
  }
  return true;
}

void EnrollPage::ShowReport(const core::EnrollReport& report) {
  QString text = QString("<b style='color:#1e8449'>Enrolled %1 photos of %2 token kinds</b> into %3.")
                     .arg(report.samples)
                     .arg(report.kinds.size())
                     .arg(Q(report.model_path).toHtmlEscaped());
  if (!report.look_alikes.empty()) {
    QStringList pairs;
    for (const auto& [a, b] : report.look_alikes) pairs << KindName(a) + " / " + KindName(b);
    text += "<br>Look-alikes to check under the game's light: " + pairs.join(", ");
  }
  const std::string off_centre = core::OffCentreAdvice(report, [](const std::string& kind) { return S(KindName(kind)); }, ", ");
  if (!off_centre.empty()) text += "<br>" + Q(off_centre).toHtmlEscaped();
  const std::string other_side = core::OtherSideAdvice(report, [](const std::string& kind) { return S(KindName(kind)); }, ", ");
  if (!other_side.empty()) text += "<br>" + Q(other_side).toHtmlEscaped();
  if (!report.missing_kinds.empty())
    text += QString("<br>%1 kinds have no photo: the camera will not name them.").arg(report.missing_kinds.size());
  result_->setText(text);
  kinds_->setRowCount(0);
  for (const calibration::KindQuality& k : report.kinds) {
    const int row = kinds_->rowCount();
    kinds_->insertRow(row);
    kinds_->setItem(row, 0, new QTableWidgetItem(KindName(k.kind)));
    kinds_->setItem(row, 1, new QTableWidgetItem(QString::number(k.samples)));
    // A kind with a single photo (a race side on the mat) has nothing to be compared with: no quality.
    auto* quality = new QTableWidgetItem(k.compared ? QString("%1 %").arg(100 * k.loo_accuracy, 0, 'f', 0) : QString("-"));
    if (k.compared && k.loo_accuracy < 0.8) quality->setForeground(QColor(180, 30, 30));
    kinds_->setItem(row, 2, quality);
    kinds_->setItem(row, 3, new QTableWidgetItem(KindName(k.most_confused_with)));
  }
  kinds_->resizeColumnsToContents();
}

bool EnrollPage::PreviewPhoto(const QString& path) {
  const auto frame = calibration::ReadImageFile(S(path));
  if (!frame) {
    seen_->setText(QString::fromStdString(frame.error()).toHtmlEscaped());
    return false;
  }
  Preview(*frame);
  return true;
}

namespace {

struct Sighting {
  std::string error;
  vision::Observation observation;
  core::BoardOverlay overlay;
};

// The observer of the setup just made, on one frame (loaded once per setup folder; one frame at a time).
Sighting Observe(const std::string& setup, const cv::Mat& frame) {
  static std::string loaded;
  static std::unique_ptr<vision::Observer> observer;
  static std::optional<core::OverlayMaker> overlay;
  Sighting seen;
  if (loaded != setup || !observer) {
    auto o = vision::Observer::Load(setup);
    auto m = core::OverlayMaker::Load(setup);
    if (!o || !m) return {!o ? o.error() : m.error(), {}, {}};
    observer = std::make_unique<vision::Observer>(std::move(*o));
    overlay = std::move(*m);
    loaded = setup;
  }
  seen.observation = observer->Observe(frame, "preview");
  seen.overlay = overlay->Make(*observer);
  return seen;
}

}  // namespace

void EnrollPage::Preview(const cv::Mat& frame) {
  if (previewing_ || frame.empty()) return;  // the camera's next frame waits for this one
  previewing_ = true;
  auto* watcher = new QFutureWatcher<Sighting>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, frame] {
    const Sighting seen = watcher->result();
    watcher->deleteLater();
    previewing_ = false;
    if (!seen.error.empty()) return seen_->setText(Q(seen.error).toHtmlEscaped());
    auto s = std::make_shared<Snapshot>();
    s->frame = ToImage(frame);
    s->overlay = seen.overlay;
    preview_->Show(s);
    QStringList regions;
    for (const vision::RegionObservation& r : seen.observation.regions) {
      if (!r.race && r.lost_tribe == 0) continue;
      const QString what =
          r.race ? KindName(*r.race + (r.decline ? "_decline" : "")) + QString(" x%1").arg(r.tokens) + (r.tokens_certain ? "" : "+")
                 : QString("lost tribe");
      regions << QString("%1: %2").arg(r.id).arg(what);
    }
    seen_->setText(QString("<b>%1</b>: %2 tokens named%3")
                       .arg(Q(vision::ToString(seen.observation.status)))
                       .arg(seen.overlay.tokens.size())
                       .arg(regions.isEmpty() ? "" : "<br>" + regions.join(" &middot; ")));
    emit PreviewShown();
  });
  watcher->setFuture(QtConcurrent::run([setup = S(setup_->text()), frame] { return Observe(setup, frame); }));
}

QString EnrollPage::Result() const { return result_->text(); }
QString EnrollPage::Seen() const { return seen_->text(); }

SetupWizard::SetupWizard(QWidget* parent) : QWizard(parent) {
  setWindowTitle("Set up the table");
  setWizardStyle(QWizard::ClassicStyle);
  setOption(QWizard::NoCancelButton, false);
  calibrate_ = new CalibratePage(&state_);
  print_ = new PrintPage;
  board_ = new BoardPage(&state_);
  enroll_ = new EnrollPage(&state_);
  addPage(calibrate_);
  addPage(print_);
  addPage(board_);
  addPage(enroll_);
  resize(1200, 760);
}

}  // namespace swref::gui
