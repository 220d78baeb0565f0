#include "app/cli/commands.h"
#include "calibration/image_memory.h"

int main(int argc, char** argv) {
  swref::calibration::KeepFreedImageMemory();
  return swref::cli::Main(argc, argv);
}
