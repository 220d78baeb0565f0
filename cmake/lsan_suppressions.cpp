// The sanitizer build's LeakSanitizer suppressions, compiled into every program (CMakeLists.txt, SWREF_SANITIZE):
// LeakSanitizer calls this when it starts, so the suite, the CLI and any program run by hand report only our leaks.
extern "C" const char* __lsan_default_suppressions() {
  // fontconfig, under cairo's text on the printable sheets, keeps its configuration and font cache until the
  // process ends, by design; on a machine whose font cache is cold those blocks are reported as leaks.
  return "leak:libfontconfig.so\n";
}
