#!/usr/bin/env bash
# Fails (exit 1) when a folder includes what its layer may not (docs/architecture.md):
#   engine/                        standard library + nlohmann_json only (and POSIX in durable_write.cpp): no OpenCV, no Qt, no other project layer
#   calibration/ vision/ datasets/ no Qt; calibration sees only engine; vision sees engine + calibration
#   app/core app/cli               no Qt
set -u
root=${1:-.}
cd "$root" || exit 2
status=0
report() { echo "layering: $1: includes $2 (not allowed in $3)"; status=1; }
check() {  # folder, extended regex of forbidden includes, description
  local folder=$1 pattern=$2 what=$3 line
  [ -d "$folder" ] || return 0
  while IFS= read -r line; do
    report "${line%%:*}" "$(echo "${line#*:}" | sed 's/^[0-9]*://;s/^ *//')" "$what"
  done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" "$folder" --include='*.h' --include='*.cpp' --include='*.hpp' 2>/dev/null)
}
qt='Q[A-Za-z]+([>/"]|\.h)|Qt[A-Za-z]+/'
check engine "opencv2/|$qt|calibration/|vision/|datasets/|app/|CLI/" "engine"
check calibration "$qt|vision/|datasets/|app/" "calibration"
check vision "$qt|datasets/|app/" "vision"
check datasets "$qt|app/" "datasets"
check app/core "$qt|app/gui/|app/cli/" "app/core"
check app/cli "$qt|app/gui/" "app/cli"
exit $status
