#include "app/gui/picture.h"

#include <QMouseEvent>
#include <QPainter>

namespace swref::gui {

Picture::Picture(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 150);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void Picture::SetImage(const QImage& image) {
  image_ = image;
  update();
}

void Picture::SetText(const QString& text) {
  text_ = text;
  update();
}

void Picture::SetOverlay(std::function<void(QPainter&, double k)> overlay) {
  overlay_ = std::move(overlay);
  update();
}

QRectF Picture::Target() const {
  if (image_.isNull()) return {};
  const QSizeF fitted = QSizeF(image_.size()).scaled(size(), Qt::KeepAspectRatio);
  return QRectF(QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
}

void Picture::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor(48, 50, 54));
  const QRectF target = Target();
  if (target.isEmpty()) {
    p.setPen(QColor(215, 215, 215));
    p.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, text_);
    return;
  }
  p.setRenderHint(QPainter::SmoothPixmapTransform);
  p.setRenderHint(QPainter::Antialiasing);
  p.drawImage(target, image_);
  if (!overlay_) return;
  p.save();
  p.translate(target.topLeft());
  overlay_(p, target.width() / image_.width());
  p.restore();
}

void Picture::mousePressEvent(QMouseEvent* event) {
  const QRectF target = Target();
  if (target.isEmpty() || !target.contains(event->position())) return;
  const double k = image_.width() / target.width();
  emit Clicked((event->position() - target.topLeft()) * k);
}

}  // namespace swref::gui
