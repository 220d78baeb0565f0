// swref-gui [RECORD] [--demo] [--screen play|coins|records|setup] [--size WxH] [--screenshot FILE [--wait MS]]
// --screenshot saves the window as PNG after --wait milliseconds (default 500) and quits (for the docs).
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/gui/setup_wizard.h"
#include "calibration/image_memory.h"

int main(int argc, char** argv) {
  swref::calibration::KeepFreedImageMemory();
  QApplication app(argc, argv);
  QApplication::setApplicationName("swref");
  QCommandLineParser parser;
  parser.setApplicationDescription("swref: a referee for Small World played on a real table");
  parser.addHelpOption();
  parser.addPositionalArgument("record", "a game record to open (JSON)");
  QCommandLineOption demo("demo", "play the demo game");
  QCommandLineOption screen("screen", "the screen to show: play, coins, records or setup", "NAME", "play");
  QCommandLineOption size("size", "the window's size, e.g. 1366x768", "WxH");
  QCommandLineOption screenshot("screenshot", "save the window to FILE (PNG) and quit", "FILE");
  QCommandLineOption wait("wait", "milliseconds before the screenshot", "MS", "500");
  for (const auto& o : {demo, screen, size, screenshot, wait}) parser.addOption(o);
  parser.process(app);

  swref::gui::MainWindow window;
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
  }
  if (!parser.positionalArguments().isEmpty() && !window.OpenRecord(parser.positionalArguments().first()))
    qWarning("%s", qPrintable(window.last_error()));
  if (parser.isSet(demo)) window.RunDemo();
  const QString name = parser.value(screen);
  window.ShowScreen(name == "coins" ? 1 : name == "records" ? 2 : 0);
  window.show();
  QWidget* shown = &window;
  if (name == "setup") shown = window.OpenWizard();
  if (parser.isSet(screenshot)) {
    const QString path = parser.value(screenshot);
    QTimer::singleShot(parser.value(wait).toInt(), shown, [shown, path] {
      const bool saved = shown->grab().save(path, "PNG");
      QApplication::exit(saved ? 0 : 1);
    });
  }
  return QApplication::exec();
}
