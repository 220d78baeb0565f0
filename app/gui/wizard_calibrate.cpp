// The setup wizard's first page: the table camera's lens (`swref calibrate camera`).
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QtConcurrent>


#include "app/gui/camera_feed.h"
#include "app/gui/picture.h"
#include "app/gui/qt_util.h"
#include "calibration/image_io.h"
#include "app/gui/setup_wizard.h"

namespace swref::gui {
namespace {

// The 3x3 parts of the camera's view, green where some photo's corners reach.
QPixmap CoverageGrid(const core::CalibrationCoverage& c, int side) {
  QPixmap pixmap(side * 3 / 2, side);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  const double w = pixmap.width() / 3.0, h = pixmap.height() / 3.0;
  for (int i = 0; i < 9; ++i) {
    const QRectF cell((i % 3) * w, (i / 3) * h, w - 2, h - 2);
    p.fillRect(cell, c.cells[i] ? QColor(60, 170, 90) : QColor(200, 200, 200));
  }
  return pixmap;
}

// The target's corners over the picture, joined in the order found: green when the target was found.
std::function<void(QPainter&, double)> CornersOverlay(std::vector<cv::Point2f> pts, bool found) {
  return [pts = std::move(pts), found](QPainter& p, double k) {
    p.setPen(QPen(found ? QColor(40, 220, 90) : QColor(230, 60, 50), 2));
    for (size_t i = 0; i < pts.size(); ++i) {
      const QPointF at(pts[i].x * k, pts[i].y * k);
      p.drawEllipse(at, 3.5, 3.5);
      if (i > 0) p.drawLine(QPointF(pts[i - 1].x * k, pts[i - 1].y * k), at);
    }
  };
}

}  // namespace

CalibratePage::CalibratePage(WizardState* state, QWidget* parent) : QWizardPage(parent), state_(state) {
  setTitle("1. The camera's lens");
  setSubTitle(
      "Hold the printed chessboard or ChArUco board (page 2 prints one) in front of the table camera. Its corners are drawn "
      "as they are found; take photos until every part of the view is covered, then calibrate. A camera with little "
      "distortion may skip this page.");
  feed_ = new CameraFeed(this);
  picture_ = new Picture;
  picture_->SetText("Start the camera, or add photos of the target.");
  kind_ = new QComboBox;
  kind_->addItems({"Chessboard", "ChArUco board"});
  pattern_ = new QLineEdit("9x6");
  pattern_->setToolTip("Chessboard: inner corners (9x6); ChArUco: squares (5x7)");
  square_ = new QDoubleSpinBox;
  square_->setRange(1, 500);
  square_->setValue(25);
  square_->setSuffix(" mm");
  marker_ = new QDoubleSpinBox;
  marker_->setRange(1, 500);
  marker_->setValue(26);
  marker_->setSuffix(" mm");
  marker_->setEnabled(false);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) {
    marker_->setEnabled(i == 1);
    pattern_->setText(i == 1 ? "5x7" : "9x6");
    square_->setValue(i == 1 ? 35 : 25);
  });
  auto* camera = new QSpinBox;
  camera->setRange(0, 16);
  auto* start = new QPushButton("Start the camera");
  take_ = new QPushButton("Take a photo");
  take_->setEnabled(false);
  auto* add = new QPushButton("Add photos...");
  found_ = new QLabel;
  found_->setWordWrap(true);
  hint_ = new QLabel;
  hint_->setWordWrap(true);
  hint_->setObjectName("coverageHint");
  coverage_ = new QLabel;
  photos_ = new QListWidget;
  photos_->setMaximumHeight(120);
  out_ = new QLineEdit(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("camera.json"));
  calibrate_ = new QPushButton("Calibrate");
  report_ = new QLabel;
  report_->setWordWrap(true);
  report_->setObjectName("calibrationReport");
  report_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* form = new QFormLayout;
  form->addRow("Target:", kind_);
  form->addRow("Pattern:", pattern_);
  form->addRow("Square:", square_);
  form->addRow("Marker (ChArUco):", marker_);
  auto* camera_row = new QHBoxLayout;
  camera_row->addWidget(camera);
  camera_row->addWidget(start);
  form->addRow("Camera:", camera_row);
  auto* side = new QVBoxLayout;
  side->addLayout(form);
  auto* shots = new QHBoxLayout;
  shots->addWidget(take_);
  shots->addWidget(add);
  side->addLayout(shots);
  side->addWidget(found_);
  auto* cover = new QHBoxLayout;
  cover->addWidget(coverage_);
  cover->addWidget(hint_, 1);
  side->addLayout(cover);
  side->addWidget(photos_);
  side->addWidget(new QLabel("Camera file to write:"));
  side->addWidget(out_);
  side->addWidget(calibrate_);
  side->addWidget(report_, 1);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(picture_, 3);
  layout->addLayout(side, 2);

  connect(start, &QPushButton::clicked, this, [this, camera] {
    state_->camera = QString::number(camera->value());
    feed_->Open(state_->camera);
    found_->setText("Opening camera " + state_->camera + "...");
  });
  connect(feed_, &CameraFeed::Problem, this, [this](const QString& text) { found_->setText("Camera: " + text); });
  connect(feed_, &CameraFeed::FrameReady, this, [this](const QImage& image) {
    picture_->SetImage(image);
    take_->setEnabled(true);
    if (!busy_) Detect(feed_->Latest(), -1);
  });
  connect(take_, &QPushButton::clicked, this, &CalibratePage::TakePhoto);
  connect(add, &QPushButton::clicked, this,
          [this] { AddPhotos(QFileDialog::getOpenFileNames(this, "Photos of the target", {}, "Images (*.png *.jpg *.jpeg)")); });
  connect(photos_, &QListWidget::currentRowChanged, this, &CalibratePage::ShowPhoto);
  connect(calibrate_, &QPushButton::clicked, this, [this] { Calibrate(); });
  connect(&calibration_, &QFutureWatcherBase::finished, this, [this] {
    const auto model = calibration_.result();
    calibrate_->setEnabled(true);
    if (!model) {
      report_->setText("<b>Not calibrated:</b> " + Q(model.error()).toHtmlEscaped());
      return;
    }
    QString text = QString("<b>Wrote %1</b><br>RMS %2 px over %3 of %4 photos; fx %5, fy %6, centre (%7, %8)")
                       .arg(out_->text().toHtmlEscaped())
                       .arg(model->rms, 0, 'f', 3)
                       .arg(model->used_views())
                       .arg(model->views.size())
                       .arg(model->fx(), 0, 'f', 1)
                       .arg(model->fy(), 0, 'f', 1)
                       .arg(model->cx(), 0, 'f', 1)
                       .arg(model->cy(), 0, 'f', 1);
    for (const auto& v : model->views)
      if (!v.used) text += "<br>dropped " + Q(v.file).section('/', -1).toHtmlEscaped() + ": " + Q(v.reason).toHtmlEscaped();
    report_->setText(text);
    state_->camera_json = out_->text();
  });
  ShowCoverage();
}

core::CalibrateRequest CalibratePage::Request() const {
  core::CalibrateRequest r;
  r.kind = kind_->currentIndex() == 1 ? core::CalibrateRequest::Kind::kCharuco : core::CalibrateRequest::Kind::kChessboard;
  const QStringList wh = pattern_->text().split('x');
  if (wh.size() == 2) r.pattern = cv::Size(wh[0].toInt(), wh[1].toInt());
  r.square_mm = square_->value();
  r.marker_mm = marker_->value();
  r.dictionary = "DICT_6X6_250";
  for (const QString& f : files_) r.files.push_back(S(f));
  r.out = S(out_->text());
  return r;
}

void CalibratePage::Detect(const cv::Mat& frame, int photo) {
  if (frame.empty()) return;
  busy_ = true;
  image_size_ = frame.size();
  auto* watcher = new QFutureWatcher<calibration::TargetCorners>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, photo] {
    const calibration::TargetCorners found = watcher->result();
    watcher->deleteLater();
    busy_ = false;
    if (photo >= 0) corners_[photo] = found.image;
    if (photo < 0 || photo == photos_->currentRow()) {
      live_ = found.image;
      found_->setText(found.found() ? QString("<b style='color:#1e8449'>%1 corners found</b>").arg(found.image.size())
                                    : "<b style='color:#b03a2e'>Not found:</b> " + Q(found.reason).toHtmlEscaped());
      picture_->SetOverlay(CornersOverlay(found.image, found.found()));
    }
    ShowCoverage();
  });
  watcher->setFuture(QtConcurrent::run([request = Request(), frame] { return core::FindTargetCorners(request, frame); }));
}

void CalibratePage::AddPhotos(const QStringList& files) {
  for (const QString& f : files) {
    const auto image = calibration::ReadImageFile(S(f));
    if (!image) {
      found_->setText(QString::fromStdString(image.error()).toHtmlEscaped());
      continue;
    }
    files_.push_back(f);
    photos_->addItem(QFileInfo(f).fileName());
    const int row = static_cast<int>(files_.size()) - 1;
    photos_->setCurrentRow(row);
    // Each photo is searched at full size, as the calibration will.
    auto found = core::FindTargetCorners(Request(), *image, 4096);
    corners_[row] = found.image;
    image_size_ = image->size();
  }
  ShowCoverage();
  if (!files_.empty()) ShowPhoto(photos_->currentRow());
}

void CalibratePage::ShowPhoto(int row) {
  if (row < 0 || row >= static_cast<int>(files_.size())) return;
  const QImage image(files_[row]);
  picture_->SetImage(image);
  const auto& pts = corners_[row];
  found_->setText(pts.empty()
                      ? "<b style='color:#b03a2e'>No target found in this photo</b>"
                      : QString("<b style='color:#1e8449'>%1 corners found</b> in %2").arg(pts.size()).arg(photos_->item(row)->text()));
  picture_->SetOverlay(CornersOverlay(pts, true));
}

void CalibratePage::TakePhoto() {
  const cv::Mat frame = feed_->Latest();
  if (frame.empty()) return;
  const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/calibration-photos");
  QDir().mkpath(dir.path());
  const QString file = dir.filePath(QString("target-%1.png").arg(files_.size() + 1, 2, 10, QChar('0')));
  if (auto w = calibration::WriteImageFile(S(file), frame); !w) return found_->setText(QString::fromStdString(w.error()).toHtmlEscaped());
  AddPhotos({file});
}

int CalibratePage::PhotosWithCorners() const {
  int n = 0;
  for (const auto& [row, pts] : corners_) n += !pts.empty();
  return n;
}

void CalibratePage::ShowCoverage() {
  std::vector<std::vector<cv::Point2f>> views;
  for (const auto& [row, pts] : corners_) views.push_back(pts);
  const core::CalibrationCoverage c = core::MeasureCoverage(views, image_size_);
  coverage_->setPixmap(CoverageGrid(c, 3 * fontMetrics().height()));
  hint_->setText(Q(c.hint));
  calibrate_->setEnabled(!calibration_.isRunning() && c.photos >= 3);
}

bool CalibratePage::Calibrate(bool wait) {
  QDir().mkpath(QFileInfo(out_->text()).path());
  const core::CalibrateRequest request = Request();
  if (const std::string problem = request.Check(); !problem.empty()) {
    report_->setText("<b>Not calibrated:</b> " + Q(problem).toHtmlEscaped());
    return false;
  }
  calibrate_->setEnabled(false);
  report_->setText("Calibrating...");
  calibration_.setFuture(QtConcurrent::run([request] { return core::CalibrateCamera(request); }));
  if (wait) {
    calibration_.waitForFinished();
    QCoreApplication::processEvents();
  }
  return true;
}

QString CalibratePage::Report() const { return report_->text(); }

}  // namespace swref::gui
