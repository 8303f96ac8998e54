#!/usr/bin/env bash
# The CUDA backend's conformance tests and benchmark in one go, on a
# machine with an NVIDIA GPU (see docs/benchmarks-cuda.md).
#
#   bench/run_cuda.sh                 # builds build-cuda/ if needed
#   BUILD=dir bench/run_cuda.sh       # another build directory
#   RESULTS=dir ROUNDS=100 bench/run_cuda.sh
#   WORKLOADS="synthetic wide flights" FLIGHTS=path/flights_3m.csv.xz bench/run_cuda.sh
#
# Writes RESULTS/tests.log, and RESULTS/bench_W.log and RESULTS/bench_W.json
# for each workload W.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-cuda}
RESULTS=${RESULTS:-${OUT:-/tmp/gpulayer-cuda-results}}
ROUNDS=${ROUNDS:-500}
VARIANTS=${VARIANTS:-paired,half}
WORKLOADS=${WORKLOADS:-synthetic wide flights}
FLIGHTS=${FLIGHTS:-../shared/data/flights_3m/flights_3m.csv.xz}
mkdir -p "$RESULTS"

if [ ! -x "$BUILD/bench/gpulayer-bench" ]; then
  cmake -S . -B "$BUILD" -DGPULAYER_CUDA=ON -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$BUILD" -j "$(nproc)" || exit 1
fi
# The device layer's probe, wherever the build directory now lies.
export GPULAYER_PROBE=${GPULAYER_PROBE:-$PWD/$BUILD/gpulayer-probe}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem \
  --format=csv | tee "$RESULTS/gpu.txt"

status=0
for t in "$BUILD"/tests/test_cuda_*; do
  [ -x "$t" ] || continue
  echo "== $(basename "$t")"
  timeout 600 "$t" || status=1
done 2>&1 | tee "$RESULTS/tests.log"
grep -q "FAILED\|Segmentation\|Aborted" "$RESULTS/tests.log" && status=1

for w in $WORKLOADS; do
  PYTHONUNBUFFERED=1 python3 bench/bench_cuda.py --gpulayer-bench "$BUILD/bench/gpulayer-bench" \
    --workload "$w" --flights "$FLIGHTS" --rounds "$ROUNDS" --variants "$VARIANTS" \
    --out "$RESULTS/bench_$w.json" 2>&1 | tee "$RESULTS/bench_$w.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done

# NCU=1: hardware counters of the first levels' histogram, split and
# partition kernels, on the benchmark's data.
if [ "${NCU:-0}" = 1 ]; then
  NCU_BIN=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  D=/tmp/gpulayer-bench-data/synthetic
  [ -n "$NCU_BIN" ] && timeout 300 "$NCU_BIN" --clock-control none \
    -k 'regex:hist_shared|partition|split_scan' -c 6 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    "$BUILD/bench/gpulayer-bench" $D/train.X.f32 $D/train.y.f32 $D/test.X.f32 $D/test.y.f32 \
    28 objective=binary:logistic num_round=1 max_depth=8 max_bin=256 device=cuda \
    > "$RESULTS/ncu.txt" 2>&1
fi
exit $status
