#include "app/gui/board_view.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include "app/gui/qt_util.h"

namespace swref::gui {
namespace {

// Text with a dark rounded box behind it, centred on `at`: readable on any board colour.
void Label(QPainter& p, QPointF at, const QString& text, const QColor& box) {
  const QFontMetricsF fm(p.font());
  const QRectF r = fm.boundingRect(text).adjusted(-3, -1, 3, 1);
  const QRectF placed(at.x() - r.width() / 2, at.y() - r.height() / 2, r.width(), r.height());
  p.setPen(Qt::NoPen);
  p.setBrush(box);
  p.drawRoundedRect(placed, 3, 3);
  p.setPen(Qt::white);
  p.drawText(placed, Qt::AlignCenter, text);
}

}  // namespace

BoardView::BoardView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 180);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  placeholder_ = "No game yet. Play the demo (Ctrl+D), start a new game (Ctrl+N) or resume one (Ctrl+R).";
}

void BoardView::Show(const SnapshotPtr& snapshot) {
  snapshot_ = snapshot;
  update();
}

void BoardView::SetPlaceholder(const QString& text) {
  placeholder_ = text;
  update();
}

QRectF BoardView::Target() const {
  if (!snapshot_ || snapshot_->frame.isNull()) return {};
  const QSizeF image = snapshot_->frame.size();
  const QSizeF fitted = image.scaled(size(), Qt::KeepAspectRatio);
  return QRectF(QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
}

QPolygonF BoardView::Outline(const core::OverlayRegion& r, const QRectF& target) const {
  // Frame pixels -> screen image pixels (snapshot scale) -> widget.
  const double k = snapshot_->scale * target.width() / snapshot_->frame.width();
  QPolygonF poly;
  for (const cv::Point2f& q : r.outline) poly << QPointF(target.left() + q.x * k, target.top() + q.y * k);
  return poly;
}

void BoardView::PaintRegions(QPainter& p, const QRectF& target) const {
  const Snapshot& s = *snapshot_;
  const double k = s.scale * target.width() / s.frame.width();
  for (const core::OverlayRegion& r : s.overlay.regions) {
    const QPolygonF poly = Outline(r, target);
    int owner = -2;  // empty
    if (s.game && r.id < static_cast<int>(s.game->board().size())) {
      const engine::RegionState& st = s.game->board()[r.id];
      if (st.HasRace())
        owner = st.owner;
      else if (st.lost_tribe)
        owner = -1;
    }
    const bool highlighted = std::find(s.highlight.begin(), s.highlight.end(), r.id) != s.highlight.end();
    QColor fill = owner == -2 ? QColor(0, 0, 0, 0) : PlayerColour(owner);
    if (owner != -2) fill.setAlpha(70);
    if (highlighted) fill = QColor(255, 220, 0, 110);
    p.setBrush(fill);
    p.setPen(QPen(highlighted ? QColor(255, 230, 0) : QColor(255, 255, 255, 150), highlighted ? 4 : 1.2));
    p.drawPolygon(poly);
    const QPointF at(target.left() + r.label.x * k, target.top() + r.label.y * k);
    Label(p, at, QString::number(r.id), highlighted ? QColor(160, 120, 0, 230) : QColor(0, 0, 0, 120));
  }
}

void BoardView::PaintTokens(QPainter& p, const QRectF& target) const {
  const Snapshot& s = *snapshot_;
  const double k = s.scale * target.width() / s.frame.width();
  QFont small = p.font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
  p.setFont(small);
  for (const core::OverlayToken& t : s.overlay.tokens) {
    const QPointF at(target.left() + t.at.x * k, target.top() + t.at.y * k);
    p.setPen(QPen(t.unsure ? QColor(255, 140, 0) : QColor(40, 220, 90), 2));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(at, 5, 5);
    QString text = KindName(t.kind);
    if (t.stack > 1) text += QString(" x%1").arg(t.stack);
    if (t.unsure) text += " ?";
    Label(p, at + QPointF(0, 14), text, t.unsure ? QColor(170, 80, 0, 210) : QColor(20, 60, 30, 200));
  }
}

void BoardView::PaintBanner(QPainter& p) const {
  if (!snapshot_ || snapshot_->banner.empty()) return;
  const QRectF bar(0, 0, width(), p.fontMetrics().height() * 2.2);
  p.fillRect(bar, QColor(180, 30, 30, 230));
  p.setPen(Qt::white);
  QFont bold = p.font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(bar.adjusted(12, 0, -12, 0), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, Q(snapshot_->banner));
}

void BoardView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), QColor(38, 40, 44));
  const QRectF target = Target();
  if (target.isEmpty()) {
    p.setPen(QColor(210, 210, 210));
    p.drawText(rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
    PaintBanner(p);
    return;
  }
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  p.drawImage(target, snapshot_->frame);
  if (snapshot_->overlay.placed) {
    PaintRegions(p, target);
    PaintTokens(p, target);
  }
  PaintBanner(p);
}

void BoardView::mousePressEvent(QMouseEvent* event) {
  const QRectF target = Target();
  if (!snapshot_ || target.isEmpty()) return;
  for (const core::OverlayRegion& r : snapshot_->overlay.regions) {
    if (Outline(r, target).containsPoint(event->position(), Qt::OddEvenFill)) {
      emit RegionClicked(r.id);
      return;
    }
  }
}

}  // namespace swref::gui
