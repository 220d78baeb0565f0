#include <QApplication>

#include "app/gui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("swref");
  swref::gui::MainWindow window;
  const QStringList args = QApplication::arguments();
  if (args.size() > 1) window.OpenRecord(args[1]);
  window.show();
  return QApplication::exec();
}
