#include "app/gui/qt_util.h"

#include <QHeaderView>
#include <QTableWidget>

#include <opencv2/imgproc.hpp>

#include "engine/components.h"

namespace swref::gui {

QTableWidget* MakeTable(const QStringList& headers) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  t->horizontalHeader()->setStretchLastSection(true);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setWordWrap(true);
  return t;
}

QImage ToImage(const cv::Mat& mat) {
  if (mat.empty()) return {};
  if (mat.type() == CV_8UC1) return QImage(mat.data, mat.cols, mat.rows, static_cast<int>(mat.step), QImage::Format_Grayscale8).copy();
  cv::Mat bgr = mat;
  if (mat.type() == CV_8UC4) cv::cvtColor(mat, bgr, cv::COLOR_BGRA2BGR);
  if (bgr.type() != CV_8UC3) return {};
  return QImage(bgr.data, bgr.cols, bgr.rows, static_cast<int>(bgr.step), QImage::Format_BGR888).copy();
}

cv::Mat FromImage(const QImage& image) {
  if (image.isNull()) return {};
  const QImage bgr = image.convertToFormat(QImage::Format_BGR888);
  return cv::Mat(bgr.height(), bgr.width(), CV_8UC3, const_cast<uchar*>(bgr.constBits()), static_cast<size_t>(bgr.bytesPerLine())).clone();
}

QColor PlayerColour(int index) {
  static const QColor kColours[] = {QColor(220, 60, 50), QColor(40, 110, 220), QColor(240, 170, 20), QColor(40, 160, 80),
                                    QColor(150, 70, 190)};
  if (index < 0 || index >= 5) return QColor(140, 140, 140);
  return kColours[index];
}

QString KindName(const std::string& kind) {
  const auto [base, decline] = engine::SplitDecline(kind);
  const std::string id(base);
  if (auto race = engine::RaceFromId(id)) return Q(std::string(engine::Info(*race).name)) + (decline ? " (decline)" : "");
  if (id == "lost_tribe") return "lost tribe";
  return Q(id).replace('_', ' ');
}

QString DescribeAction(const nlohmann::json& a) {
  if (!a.is_object()) return Q(a.dump());
  const QString who = Q(a.value("player", std::string()));
  const std::string what = a.value("do", std::string());
  QString text = who.isEmpty() ? Q(what) : who + " " + Q(what);
  if (a.contains("region")) text += QString(" region %1").arg(a["region"].dump().c_str());
  if (a.contains("slot")) text += QString(" combo %1").arg(a["slot"].get<int>() + 1);
  if (a.contains("tokens")) {
    const nlohmann::json& t = a["tokens"];
    if (t.is_number()) {
      text += QString(" with %1 tokens").arg(t.get<int>());
    } else if (t.is_object()) {
      QStringList parts;
      for (auto it = t.begin(); it != t.end(); ++it) parts << QString("%1 on %2").arg(it.value().dump().c_str(), Q(it.key()));
      text += ": " + parts.join(", ");
    }
  }
  if (a.contains("die")) text += QString(" (die %1)").arg(a["die"].dump().c_str());
  if (a.contains("with")) text += " with " + Q(a["with"].get<std::string>());
  if (a.contains("target")) text += " " + Q(a["target"].dump());
  return text;
}

QString SoloEndItems(const nlohmann::json& end) {
  if (!end.is_object()) return {};
  QStringList items;
  for (const char* key : {"eliminated", "sets", "lost_tribes", "defences_overcome", "defences_held", "unconquered", "tokens_left"})
    items << QString("%1 %2").arg(QString(key).replace('_', ' ')).arg(end.value(key, 0));
  return items.join(", ") + QString(" = <b>%1</b>").arg(end.value("total", 0));
}

}  // namespace swref::gui
