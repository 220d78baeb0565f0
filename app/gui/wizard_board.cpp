// The setup wizard's third page: the board (`swref setup board`): the empty board's photo, its regions from a
// layout file or from one click inside each region (the assist), the adjacency check against the map.
#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <fstream>

#include "app/core/board_overlay.h"
#include "app/gui/picture.h"
#include "app/gui/qt_util.h"
#include "app/gui/setup_wizard.h"
#include "engine/map.h"

namespace swref::gui {
namespace {

// The regions' outlines over the reference photo, each with its id.
void DrawRegions(QPainter& p, double k, const core::BoardOverlay& overlay) {
  for (const core::OverlayRegion& r : overlay.regions) {
    QPolygonF poly;
    for (const cv::Point2f& q : r.outline) poly << QPointF(q.x * k, q.y * k);
    p.setPen(QPen(QColor(255, 230, 0), 2));
    p.setBrush(QColor(255, 230, 0, 40));
    p.drawPolygon(poly);
    p.setPen(Qt::black);
    p.drawText(QRectF(r.label.x * k - 20, r.label.y * k - 10, 40, 20), Qt::AlignCenter, QString::number(r.id));
  }
}

}  // namespace

BoardPage::BoardPage(WizardState* state, QWidget* parent) : QWizardPage(parent), state_(state) {
  setTitle("3. The board");
  setSubTitle(
      "Photograph the empty board with the table camera, then give its regions: a layout file, or one click inside each "
      "region in the order asked. The regions' borders must touch as the map's do; every mismatch is named.");
  map_ = new QComboBox;
  for (const std::string& key : engine::BuiltinMapKeys()) map_->addItem(Q(key));
  reference_ = new QLineEdit;
  auto* browse_reference = new QPushButton("Choose...");
  use_layout_ = new QRadioButton("A layout file:");
  use_clicks_ = new QRadioButton("One click inside each region");
  use_clicks_->setChecked(true);
  layout_ = new QLineEdit;
  auto* browse_layout = new QPushButton("Choose...");
  width_mm_ = new QSpinBox;
  width_mm_->setRange(100, 2000);
  width_mm_->setValue(600);
  width_mm_->setSuffix(" mm");
  height_mm_ = new QSpinBox;
  height_mm_->setRange(100, 2000);
  height_mm_->setValue(400);
  height_mm_->setSuffix(" mm");
  out_ = new QLineEdit(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("table-setup"));
  picture_ = new Picture;
  picture_->SetText("Choose the photo of the empty board.");
  prompt_ = new QLabel;
  prompt_->setWordWrap(true);
  prompt_->setObjectName("assistPrompt");
  result_ = new QLabel;
  result_->setWordWrap(true);
  result_->setObjectName("setupResult");
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* undo = new QPushButton("Undo the last click");
  auto* set_up = new QPushButton("Set up the board");

  auto* form = new QFormLayout;
  form->addRow("Map:", map_);
  auto* ref_row = new QHBoxLayout;
  ref_row->addWidget(reference_);
  ref_row->addWidget(browse_reference);
  form->addRow("Empty board photo:", ref_row);
  form->addRow(use_clicks_);
  auto* size_row = new QHBoxLayout;
  size_row->addWidget(width_mm_);
  size_row->addWidget(new QLabel("x"));
  size_row->addWidget(height_mm_);
  form->addRow("Board size:", size_row);
  auto* layout_row = new QHBoxLayout;
  layout_row->addWidget(layout_);
  layout_row->addWidget(browse_layout);
  form->addRow(use_layout_, layout_row);
  form->addRow("Setup folder:", out_);
  auto* side = new QVBoxLayout;
  side->addLayout(form);
  side->addWidget(prompt_);
  side->addWidget(undo);
  side->addWidget(set_up);
  side->addWidget(result_, 1);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(picture_, 3);
  layout->addLayout(side, 2);

  connect(browse_reference, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "The empty board", {}, "Images (*.png *.jpg *.jpeg)");
    if (!path.isEmpty()) LoadReference(path);
  });
  connect(browse_layout, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "A layout file", {}, "Layouts (*.json)");
    if (!path.isEmpty()) SetLayoutFile(path);
  });
  connect(picture_, &Picture::Clicked, this, &BoardPage::ClickRegion);
  connect(undo, &QPushButton::clicked, this, [this] {
    if (!clicks_.empty()) clicks_.pop_back();
    Prompt();
  });
  connect(map_, &QComboBox::currentIndexChanged, this, [this] {
    clicks_.clear();
    Prompt();
  });
  connect(use_clicks_, &QRadioButton::toggled, this, &BoardPage::Prompt);
  connect(set_up, &QPushButton::clicked, this, [this] { SetUp(); });
  connect(&setup_, &QFutureWatcherBase::finished, this, [this] {
    const auto setup = setup_.result();
    if (!setup) {
      result_->setText("<b style='color:#b03a2e'>Not set up:</b> " + Q(setup.error()).toHtmlEscaped().replace("; ", ";<br>"));
      return;
    }
    QString mode = Q(calibration::ToString(setup->pose.mode));
    if (setup->pose.mode == calibration::Registration::kMarkers)
      mode += QString(" (%1 of 4 found, residual %2 px)").arg(setup->pose.markers_found.size()).arg(setup->pose.residual_px, 0, 'f', 2);
    result_->setText(QString("<b style='color:#1e8449'>Set up in %1.</b><br>Registration: %2.<br>%3 regions; their borders match map %4's.")
                         .arg(out_->text().toHtmlEscaped(), mode)
                         .arg(setup->layout.regions.size())
                         .arg(map_->currentText()));
    state_->setup_dir = out_->text();
    ShowRegions(out_->text());
  });
  Prompt();
}

bool BoardPage::LoadReference(const QString& path) {
  const QImage image(path);
  if (image.isNull()) {
    result_->setText(path.toHtmlEscaped() + ": not an image that can be read");
    return false;
  }
  reference_->setText(path);
  picture_->SetImage(image);
  clicks_.clear();
  Prompt();
  return true;
}

void BoardPage::SetLayoutFile(const QString& path) {
  layout_->setText(path);
  use_layout_->setChecked(true);
  Prompt();
}

void BoardPage::SetOut(const QString& dir) { out_->setText(dir); }

void BoardPage::ClickRegion(QPointF at) {
  if (!use_clicks_->isChecked()) return;
  auto map = engine::BuiltinMap(S(map_->currentText()));
  if (!map || static_cast<int>(clicks_.size()) >= (*map)->size()) return;
  clicks_.push_back(at);
  Prompt();
}

void BoardPage::Prompt() {
  auto map = engine::BuiltinMap(S(map_->currentText()));
  if (!map) return;
  const int n = (*map)->size(), next = static_cast<int>(clicks_.size());
  if (!use_clicks_->isChecked())
    prompt_->setText("The layout file gives every region's outline.");
  else if (picture_->image().isNull())
    prompt_->setText("Choose the photo first.");
  else if (next < n)
    prompt_->setText(QString("<b>Click inside region %1</b> (%2) &middot; %3 of %4 done")
                         .arg(next)
                         .arg(Q(std::string(engine::ToString((*map)->regions[next].terrain))))
                         .arg(next)
                         .arg(n));
  else
    prompt_->setText(QString("<b>All %1 regions have their point.</b> Set up the board.").arg(n));
  const std::vector<QPointF> clicks = clicks_;
  picture_->SetOverlay([clicks](QPainter& p, double k) {
    for (size_t i = 0; i < clicks.size(); ++i) {
      const QPointF at = clicks[i] * k;
      p.setPen(QPen(Qt::white, 2));
      p.setBrush(QColor(220, 60, 50));
      p.drawEllipse(at, 6, 6);
      p.setPen(Qt::black);
      p.drawText(at + QPointF(8, -6), QString::number(i));
    }
  });
}

bool BoardPage::SetUp(bool wait) {
  calibration::SetupRequest request;
  request.map = S(map_->currentText());
  request.reference = S(reference_->text());
  request.camera = S(state_->camera_json);
  request.out = S(out_->text());
  if (use_layout_->isChecked()) {
    request.layout = S(layout_->text());
  } else {
    // The clicks as the assist's points file, beside the setup folder.
    nlohmann::json points = nlohmann::json::object();
    for (size_t i = 0; i < clicks_.size(); ++i) points[std::to_string(i)] = {clicks_[i].x(), clicks_[i].y()};
    const std::string file = request.out + ".points.json";
    QDir().mkpath(QFileInfo(out_->text()).path());
    std::ofstream(file) << nlohmann::json{{"points_px", points}}.dump() << "\n";
    request.points = file;
    request.board_mm = cv::Size2d(width_mm_->value(), height_mm_->value());
  }
  result_->setText("Setting the board up...");
  setup_.setFuture(QtConcurrent::run([request] { return core::SetupBoard(request); }));
  if (wait) {
    setup_.waitForFinished();
    QCoreApplication::processEvents();
  }
  return true;
}

void BoardPage::ShowRegions(const QString& setup_dir) {
  auto overlay = core::OverlayMaker::Load(S(setup_dir));
  if (!overlay) return;
  const QImage reference(QDir(setup_dir).filePath("reference.png"));
  if (!reference.isNull()) picture_->SetImage(reference);
  picture_->SetOverlay([regions = overlay->OnReference()](QPainter& p, double k) { DrawRegions(p, k, regions); });
}

QString BoardPage::Result() const { return result_->text(); }

}  // namespace swref::gui
