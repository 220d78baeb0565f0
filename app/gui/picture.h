// A picture that fits its widget (keeping its aspect), with an optional drawing over it in the picture's own
// pixels, and clicks reported in those pixels. The setup wizard's previews use it.
#pragma once

#include <functional>

#include <QImage>
#include <QWidget>

namespace swref::gui {

class Picture : public QWidget {
  Q_OBJECT

 public:
  explicit Picture(QWidget* parent = nullptr);
  void SetImage(const QImage& image);
  void SetText(const QString& text);  // shown while there is no picture
  // Draws over the picture: the painter's origin is the picture's top-left corner, and a picture pixel is k
  // widget pixels (pens and text keep their screen size).
  void SetOverlay(std::function<void(QPainter&, double k)> overlay);
  const QImage& image() const { return image_; }
  QSize sizeHint() const override { return {640, 400}; }

 signals:
  void Clicked(QPointF at);  // picture pixels

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRectF Target() const;
  QImage image_;
  QString text_;
  std::function<void(QPainter&, double k)> overlay_;
};

}  // namespace swref::gui
