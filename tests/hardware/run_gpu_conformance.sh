#!/usr/bin/env bash
# The CUDA and Vulkan conformance suites (histograms, splits, partitions,
# whole models and prediction against the CPU backend, bit for bit) on a
# machine with a GPU, from a build that has both backends.
#
#   tests/hardware/run_gpu_conformance.sh            # build in build/
#   GPULAYER_BUILD=build-dev tests/hardware/run_gpu_conformance.sh
#
# Each suite skips (exit 77) with its reason where its runtime or device is
# missing. Prints one line a suite and a count; exit status 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
build=${GPULAYER_BUILD:-build}
export GPULAYER_PROBE=${GPULAYER_PROBE:-$PWD/$build/gpulayer-probe}
passed=0 failed=0 skipped=0
suite() { # name, command...
    local name=$1
    shift
    echo "== $name"
    local log
    log=$(mktemp)
    timeout 900 "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    # A suite whose backend cannot be created runs one skip instead.
    [ "$rc" -eq 0 ] && grep -q "SKIPPED \] gpl_guard_skip" "$log" && rc=77
    rm -f "$log"
    case $rc in
        0) echo "ok: $name"; passed=$((passed + 1)) ;;
        77) echo "skipped: $name"; skipped=$((skipped + 1)) ;;
        *) echo "FAILED: $name (status $rc)"; failed=$((failed + 1)) ;;
    esac
}
for t in "$build"/tests/test_cuda_* "$build"/tests/test_vulkan_*; do
    [ -x "$t" ] && suite "$(basename "$t")" "$t"
done
# The Vulkan kernels without float64 (for devices that lack it).
[ -x "$build/tests/test_vulkan_ops" ] &&
    suite "test_vulkan_ops (GPULAYER_VULKAN_SOFT_F64=1)" \
        env GPULAYER_VULKAN_SOFT_F64=1 "$build/tests/test_vulkan_ops"
echo "conformance: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
