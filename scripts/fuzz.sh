#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, in build-fuzz/: CMakePresets.json "fuzz", clang with ASan + UBSan) and runs
# them on their seed corpora (docs/fuzzing.md). Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]
#   TARGET   map, layout, record, setup, camera, observation, token_model, crops, events, image, observe (default: all, in turn)
#   SECONDS  time for each target (default 60)
# New inputs that raise coverage go to build-fuzz/corpus/<target>/ (the seeds in fuzz/corpus/ are only read);
# a crash, leak, timeout or out-of-memory stops the run with its reproducer in build-fuzz/artifacts/ and exit 1.
# FUZZ_JOBS=N runs N targets at once (default 1: the machine is shared). FUZZ_ARGS adds libFuzzer options.
# FUZZ_RUNS=N runs each target for N executions instead of SECONDS (the figures of docs/fuzzing.md: 5000000).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-all}
seconds=${2:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
jobs=${FUZZ_JOBS:-1}

if [ ! -f "$build/build.ninja" ]; then
  cmake --preset fuzz -B "$build" >/dev/null  # the preset's settings, in this folder
fi
if ! grep -q '^SWREF_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "fuzz.sh: $build was configured without the fuzz targets (SWREF_FUZZ=OFF, or not clang); remove it and run" \
    "again, or configure it with: cmake --preset fuzz" >&2
  exit 2
fi
all=$(cd fuzz && ls *_fuzz.cpp | sed 's/_fuzz\.cpp$//')
if [ "$target" = all ]; then targets=$all; else targets=$target; fi
for t in $targets; do
  echo "$all" | grep -qx "$t" || { echo "fuzz.sh: no target '$t' (targets: $(echo $all))" >&2; exit 2; }
done
cmake --build "$build" --target $(for t in $targets; do echo "fuzz_$t"; done)

run() {  # one target: its own corpus copy, the seeds, the dictionary
  local t=$1 corpus="$build/corpus/$1" artifacts="$build/artifacts/$1/" dict=()
  mkdir -p "$corpus" "$artifacts"
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  # Limits: 2 GiB of memory, 10 s for one input (30 s for observe: the whole pipeline on a frame whose whole board
  # changed texture, 500 seeds, takes 6 s under the sanitizers on an idle core and 0.5 s in Release; CI, two
  # targets at once, timed out on it when its namings again were not all bounded, 42 s on an idle core, docs/fuzzing.md);
  # -max_len keeps inputs near the seeds' size (64 KiB for images).
  local max_len=16384 timeout=10
  case $t in image | observe | crops) max_len=65536 ;; esac
  [ "$t" = observe ] && timeout=30
  local limit=(-max_total_time="$seconds") what="${seconds}s"
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS") what="$FUZZ_RUNS executions"
  echo "== fuzz_$t: $what" >&2
  "$build/fuzz/fuzz_$t" "$corpus" "fuzz/corpus/$t" "${dict[@]}" "${limit[@]}" -rss_limit_mb=2048 -timeout=$timeout \
    -max_len=$max_len -print_final_stats=1 -artifact_prefix="$artifacts" ${FUZZ_ARGS:-} >"$build/fuzz_$t.log" 2>&1 || {
    tail -n 60 "$build/fuzz_$t.log" >&2
    echo "fuzz.sh: fuzz_$t FAILED (log: $build/fuzz_$t.log, reproducer: $artifacts)" >&2
    return 1
  }
  # One write, so that the summaries of targets run at once (FUZZ_JOBS) do not interleave.
  local log="$build/fuzz_$t.log"
  printf '== fuzz_%s done: %s\n  last: %s\n  %s status lines; seconds: %s\n\n' "$t" \
    "$(grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb" "$log" | tr '\n' ' ')" \
    "$(grep -E "^#[0-9]+.*(DONE|pulse|NEW|REDUCE)" "$log" | tail -n 1)" \
    "$(grep -cE '^#[0-9]+' "$log")" "$(grep -E '^Done [0-9]+ runs in' "$log" | sed 's/.* in //')" >&2
}

status=0
if [ "$jobs" -le 1 ]; then
  for t in $targets; do run "$t" || status=1; done
else
  pids=()
  for t in $targets; do
    run "$t" & pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
fi
exit $status
