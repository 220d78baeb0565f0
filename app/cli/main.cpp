#include "app/cli/commands.h"

int main(int argc, char** argv) { return swref::cli::Main(argc, argv); }
