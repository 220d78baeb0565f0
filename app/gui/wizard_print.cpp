// The setup wizard's second page: the printable targets (`swref print markers|charuco|mat`).
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/core/print_targets.h"
#include "app/gui/picture.h"
#include "app/gui/qt_util.h"
#include "app/gui/setup_wizard.h"

namespace swref::gui {
namespace {

QString About(const QString& target) {
  if (target == "markers")
    return "The board's four corner markers (ArUco DICT_4X4_50, ids 0-3). Cut them out and stick them in the board's corners: the camera "
           "then finds the board in every frame.";
  if (target == "charuco") return "A ChArUco board for page 1 (the camera's lens): its squares and markers are printed with their sizes.";
  return "The enrollment mat: one cell per token kind. Photograph it with every token on its cell (page 4 learns them).";
}

}  // namespace

PrintPage::PrintPage(QWidget* parent) : QWizardPage(parent) {
  setTitle("2. Print the targets");
  setSubTitle("Print at 100 % (no \"fit to page\"): the 50 mm bar on each page checks the scale.");
  target_ = new QComboBox;
  for (const std::string& name : core::PrintTargetNames()) target_->addItem(Q(name));
  paper_ = new QComboBox;
  paper_->addItems({"a4", "letter"});
  picture_ = new Picture;
  about_ = new QLabel;
  about_->setWordWrap(true);
  result_ = new QLabel;
  result_->setWordWrap(true);
  result_->setObjectName("printResult");
  auto* save = new QPushButton("Save the PDF...");
  auto* form = new QFormLayout;
  form->addRow("Target:", target_);
  form->addRow("Paper:", paper_);
  auto* side = new QVBoxLayout;
  side->addLayout(form);
  side->addWidget(about_);
  side->addWidget(save);
  side->addWidget(result_);
  side->addStretch();
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(picture_, 3);
  layout->addLayout(side, 2);
  connect(target_, &QComboBox::currentIndexChanged, this, &PrintPage::Preview);
  connect(paper_, &QComboBox::currentIndexChanged, this, &PrintPage::Preview);
  connect(save, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, "Save the target", target_->currentText() + ".pdf", "PDF (*.pdf)");
    if (!path.isEmpty()) Save(path);
  });
  Preview();
}

void PrintPage::Preview() {
  core::PrintTargetOptions options;
  options.paper = S(paper_->currentText());
  about_->setText(About(target_->currentText()));
  auto page = core::RenderTargetPreview(S(target_->currentText()), options, 2);
  if (!page) {
    picture_->SetImage({});
    picture_->SetText(Q(page.error()));
    return;
  }
  picture_->SetImage(ToImage(*page));
}

bool PrintPage::Save(const QString& path) {
  core::PrintTargetOptions options;
  options.paper = S(paper_->currentText());
  auto pages = core::PrintTarget(S(target_->currentText()), S(path), options);
  result_->setText(pages ? QString("Wrote %1 (%2 page%3).").arg(path.toHtmlEscaped()).arg(*pages).arg(*pages == 1 ? "" : "s")
                         : Q(pages.error()).toHtmlEscaped());
  return pages.ok();
}

}  // namespace swref::gui
