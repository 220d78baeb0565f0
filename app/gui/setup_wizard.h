// The setup wizard: everything a table needs before a game, page by page, each calling the app/core function
// its CLI command calls:
//   1. camera calibration (`swref calibrate camera`, core/calibrate.h): the live camera with the target's corners
//      drawn as they are found, the view's coverage and what to photograph next, photos taken, the calibration;
//   2. printing the targets (`swref print markers|charuco|mat`, core/print_targets.h), with a preview;
//   3. the board (`swref setup board`, core/setup.h): the empty board's photo, a layout file or one click inside
//      each region (the assist), the adjacency check naming every mismatch, the regions drawn on the photo;
//   4. token enrollment (`swref enroll`, core/setup.h) with a live preview of what the camera now recognises.
// Every page may be skipped; the slow work runs off the window's thread.
#pragma once

#include <map>
#include <vector>

#include <QFutureWatcher>
#include <QWizard>
#include <QWizardPage>

#include <opencv2/core.hpp>

#include "app/core/calibrate.h"
#include "app/core/setup.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace swref::gui {

class CameraFeed;
class Picture;

// What the pages hand on to each other.
struct WizardState {
  QString camera = "0";  // the table camera's number
  QString camera_json;   // written by page 1, read by page 3
  QString setup_dir;     // written by page 3, enrolled by page 4
};

class CalibratePage : public QWizardPage {
  Q_OBJECT

 public:
  CalibratePage(WizardState* state, QWidget* parent = nullptr);
  void AddPhotos(const QStringList& files);  // photos of the target (they are searched as they are added)
  bool Calibrate(bool wait = false);         // runs core::CalibrateCamera; `wait`: until it is done (tests)
  QString Report() const;
  int PhotosWithCorners() const;

 private:
  core::CalibrateRequest Request() const;
  void ShowPhoto(int row);
  void Detect(const cv::Mat& frame, int photo);  // photo -1: a live frame
  void ShowCoverage();
  void TakePhoto();

  WizardState* state_;
  CameraFeed* feed_;
  Picture* picture_;
  QComboBox* kind_;
  QLineEdit* pattern_;
  QDoubleSpinBox *square_, *marker_;
  QLabel *found_, *hint_, *report_, *coverage_;
  QListWidget* photos_;
  QLineEdit* out_;
  QPushButton *calibrate_, *take_;
  std::vector<QString> files_;
  std::map<int, std::vector<cv::Point2f>> corners_;  // per photo
  std::vector<cv::Point2f> live_;
  cv::Size image_size_;
  bool busy_ = false;
  QFutureWatcher<engine::Result<calibration::CameraModel>> calibration_;
};

class PrintPage : public QWizardPage {
  Q_OBJECT

 public:
  explicit PrintPage(QWidget* parent = nullptr);
  bool Save(const QString& path);  // core::PrintTarget

 private:
  void Preview();
  QComboBox *target_, *paper_;
  Picture* picture_;
  QLabel* about_;
  QLabel* result_;
};

class BoardPage : public QWizardPage {
  Q_OBJECT

 public:
  BoardPage(WizardState* state, QWidget* parent = nullptr);
  bool LoadReference(const QString& path);
  void SetLayoutFile(const QString& path);  // a layout file instead of the clicks
  void ClickRegion(QPointF at);             // the next region's point, reference pixels
  void SetOut(const QString& dir);
  bool SetUp(bool wait = false);  // runs core::SetupBoard
  QString Result() const;

 private:
  void Prompt();
  void ShowRegions(const QString& setup_dir);
  WizardState* state_;
  QComboBox* map_;
  QLineEdit *reference_, *layout_, *out_;
  QSpinBox *width_mm_, *height_mm_;
  QRadioButton *use_layout_, *use_clicks_;
  Picture* picture_;
  QLabel *prompt_, *result_;
  std::vector<QPointF> clicks_;
  QFutureWatcher<engine::Result<calibration::BoardSetup>> setup_;
};

class EnrollPage : public QWizardPage {
  Q_OBJECT

 public:
  EnrollPage(WizardState* state, QWidget* parent = nullptr);
  void initializePage() override;
  void SetCrops(const QString& dir);
  bool Enroll(bool wait = false);          // core::EnrollFromCrops or EnrollFromMat
  bool PreviewPhoto(const QString& path);  // the observer on one photo, its tokens drawn
  QString Result() const;
  QString Seen() const;

 signals:
  void PreviewShown();

 private:
  void ShowReport(const core::EnrollReport& report);
  void Preview(const cv::Mat& frame);
  WizardState* state_;
  CameraFeed* feed_;
  QLineEdit *setup_, *crops_, *front_, *flipped_;
  QComboBox* paper_;
  QLabel* result_;
  QTableWidget* kinds_;
  class BoardView* preview_;
  QLabel* seen_;
  bool previewing_ = false;
  QFutureWatcher<engine::Result<core::EnrollReport>> enroll_;
};

class SetupWizard : public QWizard {
  Q_OBJECT

 public:
  explicit SetupWizard(QWidget* parent = nullptr);
  CalibratePage* calibrate() const { return calibrate_; }
  PrintPage* print() const { return print_; }
  BoardPage* board() const { return board_; }
  EnrollPage* enroll() const { return enroll_; }
  WizardState& state() { return state_; }

 private:
  WizardState state_;
  CalibratePage* calibrate_;
  PrintPage* print_;
  BoardPage* board_;
  EnrollPage* enroll_;
};

}  // namespace swref::gui
