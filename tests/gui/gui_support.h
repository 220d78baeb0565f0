// Helpers of the GUI's tests (gui_test.cpp): screenshots on request, the Coins screen's cut-off columns, the
// widest game the Coins screen may have to show, the test's cache folders.
#pragma once

#include <memory>

#include <QString>
#include <QStringList>

#include "app/core/report_data.h"

class QTableWidget;
class QWidget;

namespace swref::gui_test {

// A folder under the test's Qt cache location (the demo's prepared table lives there).
QString CacheDir(const QString& sub);
// Saves `widget` as NAME.png (and NAME-1366.png at 1366x768 for a main window) when SWREF_SCREENSHOT_DIR is set.
void Screenshot(QWidget* widget, const QString& name, bool small_too = false);
// The columns of `table` that are not shown whole: cut off by the viewport's edge, or narrower than their
// contents or their title. Empty when every column is fully visible without scrolling sideways.
QStringList CutColumns(const QTableWidget* table);
// A finished 5-player game whose every turn was played with the longest race and power names there are (the
// Coins screen's widest turns table), numbers of two digits.
std::shared_ptr<core::GameSummary> WidestSummary();

}  // namespace swref::gui_test
