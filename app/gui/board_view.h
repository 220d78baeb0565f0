// The Play screen's picture: the camera's last frame with the overlay drawn over it: every region outlined and
// tinted with its owner's colour (the committed game), its id, each token the camera recognised labelled with
// its kind (a "?" when unsure, "xN" for a stack), the region in question highlighted, and a banner across the top
// when the camera is lost or the record cannot be written. A click on a region names it (for corrections).
#pragma once

#include <QWidget>

#include "app/gui/snapshot.h"

namespace swref::gui {

class BoardView : public QWidget {
  Q_OBJECT

 public:
  explicit BoardView(QWidget* parent = nullptr);
  void Show(const SnapshotPtr& snapshot);
  void SetPlaceholder(const QString& text);  // shown while there is no frame
  QSize sizeHint() const override { return {960, 540}; }

 signals:
  void RegionClicked(int region);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRectF Target() const;  // where the frame is drawn, widget coordinates
  QPolygonF Outline(const core::OverlayRegion& r, const QRectF& target) const;
  void PaintRegions(QPainter& p, const QRectF& target) const;
  void PaintTokens(QPainter& p, const QRectF& target) const;
  void PaintBanner(QPainter& p) const;

  SnapshotPtr snapshot_;
  QString placeholder_;
};

}  // namespace swref::gui
