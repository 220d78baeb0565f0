// swref-gui [RECORD] [--demo] [--screenshot FILE]
// --screenshot saves the window as PNG once it is shown and quits (for the docs and the GUI tests).
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "app/gui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("swref");
  QCommandLineParser parser;
  parser.setApplicationDescription("swref: a referee for Small World played on a real table");
  parser.addHelpOption();
  parser.addPositionalArgument("record", "a game record to open (JSON)");
  QCommandLineOption demo("demo", "play the demo game");
  QCommandLineOption screenshot("screenshot", "save the window to FILE (PNG) and quit", "FILE");
  parser.addOption(demo);
  parser.addOption(screenshot);
  parser.process(app);

  swref::gui::MainWindow window;
  if (!parser.positionalArguments().isEmpty()) window.OpenRecord(parser.positionalArguments().first());
  if (parser.isSet(demo)) window.RunDemo();
  window.show();
  if (parser.isSet(screenshot)) {
    const QString path = parser.value(screenshot);
    QTimer::singleShot(500, &window, [&window, path] {
      const bool saved = window.grab().save(path, "PNG");
      QApplication::exit(saved ? 0 : 1);
    });
  }
  return QApplication::exec();
}
