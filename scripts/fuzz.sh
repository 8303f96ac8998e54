#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with clang, ASan and UBSan
# and runs each for SECONDS (default 60) on a copy of its seed corpus
# (tests/fuzz/corpus/NAME). Fails on any crash, leak, timeout or sanitizer
# report; the input that caused it is left in BUILD/findings.
#
#   bash scripts/fuzz.sh [SECONDS]
#
# BUILD is BUILD_DIR (default build-fuzz). A build that scripts/test.sh
# --sanitize made with the harnesses (build-asan, as CI does) is used as it
# is: only the harnesses are linked there, the library is not built
# again.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${BUILD_DIR:-build-fuzz}
bash scripts/setup_clang.sh
if ! grep -q "^GPULAYER_FUZZ:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULAYER_FUZZ=ON \
    -DGPULAYER_CUDA=OFF -DGPULAYER_MPI=OFF -DGPULAYER_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target fuzz_delimited fuzz_libsvm fuzz_model fuzz_import fuzz_params fuzz_config >/dev/null

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export OMP_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build"/findings
run() { # name
  local name=$1
  cp -r "tests/fuzz/corpus/$name" "$work/$name"
  local rc=0
  "$build"/tests/fuzz/"$name" "$work/$name" -max_total_time="$seconds" -timeout=30 \
    -rss_limit_mb=2048 -error_exitcode=1 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$name-" >"$work/$name.log" 2>&1 || rc=$?
  local stats
  stats=$(grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$work/$name.log" | tail -2 | tr '\n' ' ')
  if [ $rc -eq 0 ]; then
    echo "fuzz: $name: ok ($stats)"
  else
    tail -40 "$work/$name.log"
    echo "fuzz: $name: FAILED (status $rc); the input is in $build/findings"
  fi
  return $rc
}
# Two at a time where there are the cores for it.
names=(fuzz_delimited fuzz_libsvm fuzz_model fuzz_import fuzz_params fuzz_config)
failed=0
if [ "$(nproc)" -ge 4 ]; then
  pids=()
  for n in "${names[@]}"; do run "$n" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
else
  for n in "${names[@]}"; do run "$n" || failed=1; done
fi
[ $failed -eq 0 ] && echo "fuzz: all harnesses ran ${seconds} s without a finding"
exit $failed
