// The Records screen: a game record opened (a finished game, or the one being refereed): whether its journal
// proves it unedited, its players, map and result, the flagged conquests and how each ended, the ranking, and for
// a SoloPlay record the solo score, the opposition's score, the end items and the rating; and the report export
// (`swref report`'s pages, charts and tables). Reads records through app/core (report_data.h, play.h, report.h).
#pragma once

#include <memory>

#include <QWidget>

#include "app/core/report_data.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace swref::gui {

class RecordsView : public QWidget {
  Q_OBJECT

 public:
  explicit RecordsView(QWidget* parent = nullptr);
  // Opens and verifies a record; false (and the reason on the screen and in Message) when it cannot be read.
  bool Open(const QString& path);
  // Writes the report of the record shown into `out_dir`; false with the reason in Message.
  bool Export(const QString& out_dir);
  void AskExport();
  const std::shared_ptr<const core::GameSummary>& summary() const { return summary_; }
  QString path() const { return path_; }
  QString SoloText() const;  // the solo box's text (empty for a standard game)

 signals:
  void Opened(std::shared_ptr<const core::GameSummary> summary);
  void Message(const QString& text);

 private:
  void ShowSolo(const QString& path);
  std::shared_ptr<const core::GameSummary> summary_;
  QString path_;
  QLabel* header_;
  QLabel* solo_;
  QTableWidget* turns_;
  QTableWidget* flags_;
  QTableWidget* ranking_;
  QPushButton* export_;
  QLabel* exported_;
};

}  // namespace swref::gui
