#!/usr/bin/env bash
# Installs the Debian 12 packages swref builds with (compiler, CMake, OpenCV with contrib/ArUco, libjpeg-turbo and
# libpng (pictures are read with them, not OpenCV: docs/architecture.md), Qt 6, JSON,
# CLI11, OpenSSL, GoogleTest, Google Benchmark; Qt Charts needs the Qt OpenGL CMake files, which qt6-charts-dev does
# not pull in), Xvfb for the GUI tests, and clang with its sanitizer and libFuzzer
# runtimes for the fuzz targets (scripts/fuzz.sh; llvm gives llvm-symbolizer for their stack traces). Uses sudo when
# not run as root.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config
  libopencv-dev libopencv-contrib-dev libjpeg-dev libpng-dev
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev
  nlohmann-json3-dev libcli11-dev libssl-dev libcairo2-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth python3
  clang libclang-rt-14-dev llvm
)
as_root=()
[ "$(id -u)" = 0 ] || as_root=(sudo)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} = 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
