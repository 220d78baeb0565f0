#include "app/gui/alert_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/qt_util.h"

namespace swref::gui {

AlertPanel::AlertPanel(QWidget* parent) : QFrame(parent) {
  setObjectName("alertPanel");
  setFrameShape(QFrame::StyledPanel);
  title_ = new QLabel;
  QFont bold = title_->font();
  bold.setBold(true);
  bold.setPointSizeF(bold.pointSizeF() * 1.15);
  title_->setFont(bold);
  text_ = new QLabel;
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  options_ = new QListWidget;
  options_->setMaximumHeight(110);
  options_->setWordWrap(true);
  take_back_ = new QPushButton("Taken back (T)");
  accept_ = new QPushButton("Accept with a note... (A)");
  choose_ = new QPushButton("This reading");
  correct_ = new QPushButton("Correct the reading... (C)");
  as_table_ = new QPushButton("As the board shows (demo)");
  take_back_->setObjectName("takeBack");
  accept_->setObjectName("accept");
  choose_->setObjectName("choose");
  correct_->setObjectName("correct");
  as_table_->setObjectName("asTable");
  as_table_->setToolTip("The demo's players look at the board and correct what the camera read wrong");
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {take_back_, accept_, choose_, correct_, as_table_}) buttons->addWidget(b);
  buttons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addWidget(text_);
  layout->addWidget(options_);
  layout->addLayout(buttons);
  connect(take_back_, &QPushButton::clicked, this, &AlertPanel::TakeBack);
  connect(accept_, &QPushButton::clicked, this, &AlertPanel::Accept);
  connect(correct_, &QPushButton::clicked, this, &AlertPanel::Correct);
  connect(as_table_, &QPushButton::clicked, this, &AlertPanel::AnswerAsTable);
  connect(choose_, &QPushButton::clicked, this, [this] {
    if (options_->currentRow() >= 0) emit Choose(options_->currentRow());
  });
  connect(options_, &QListWidget::itemDoubleClicked, this, [this] { emit Choose(options_->currentRow()); });
  hide();
}

void AlertPanel::Show(const SnapshotPtr& s) {
  const bool flag = s && s->open_flag >= 0, question = s && s->open_question >= 0;
  setVisible(flag || question);
  if (!flag && !question) return;
  if (flag) {
    setStyleSheet("#alertPanel { background: #fbe3e1; border: 2px solid #c0392b; border-radius: 6px; }");
    title_->setText("Illegal conquest");
    text_->setText(Q(s->open_text) +
                   "\n\nThe players take it back, or accept it as a house ruling with a note. If the camera misread the board, "
                   "correct the reading: read right and legal, the flag is withdrawn.");
  } else {
    setStyleSheet("#alertPanel { background: #fff3d6; border: 2px solid #d68910; border-radius: 6px; }");
    title_->setText("Please check the board");
    text_->setText(Q(s->open_text));
  }
  const int keep = options_->currentRow();
  options_->clear();
  for (size_t i = 0; question && i < s->options.size(); ++i) {
    QStringList actions;
    for (const auto& a : s->options[i]) actions << DescribeAction(a);
    options_->addItem(QString("%1. %2").arg(i + 1).arg(actions.isEmpty() ? "nothing happened" : actions.join("; ")));
  }
  if (keep >= 0 && keep < options_->count()) options_->setCurrentRow(keep);
  options_->setVisible(question && options_->count() > 0);
  take_back_->setVisible(flag);
  accept_->setVisible(flag);
  choose_->setVisible(question && options_->count() > 0);
  correct_->setVisible(question || flag);  // a flag raised on a misreading is withdrawn by the correction
  as_table_->setVisible(question && s->demo);
}

}  // namespace swref::gui
