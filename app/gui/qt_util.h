// Small conversions the screens share: text, pictures (OpenCV frames as Qt images), the players' colours, and
// game actions and race names as people read them.
#pragma once

#include <string>

#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

class QTableWidget;

namespace swref::gui {

inline QString Q(const std::string& s) { return QString::fromStdString(s); }
inline std::string S(const QString& s) { return s.toStdString(); }

// A read-only table with these column headers, no row numbers, the last column stretched.
QTableWidget* MakeTable(const QStringList& headers);

// An 8-bit BGR (or grey) frame as a QImage that owns its pixels.
QImage ToImage(const cv::Mat& bgr);
// The image of a file as an 8-bit BGR frame (empty when unreadable).
cv::Mat FromImage(const QImage& image);

// The colour of player `index` (seating order); -1 (nobody, a lost tribe) is grey. Solo: 1 is the opposition.
QColor PlayerColour(int index);

// "ratmen" -> "Ratmen", "ratmen_decline" -> "Ratmen (decline)", a piece id as it is ("troll_lair" -> "troll lair").
QString KindName(const std::string& kind);
// A game action in the record's JSON form as a sentence: "Ann conquers region 5 (3 tokens)".
QString DescribeAction(const nlohmann::json& action);
// A SoloPlay game's end items (the `end` object of engine::SoloResult / SoloDocument) with their total, as rich
// text: "eliminated 0, sets 0, lost tribes 4, ... = <b>3</b>".
QString SoloEndItems(const nlohmann::json& end);

}  // namespace swref::gui
