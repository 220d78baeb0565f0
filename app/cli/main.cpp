#include "app/cli/commands.h"
#include "app/core/image_memory.h"

int main(int argc, char** argv) {
  swref::core::KeepFreedImageMemory();
  return swref::cli::Main(argc, argv);
}
