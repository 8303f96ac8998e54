#!/usr/bin/env bash
# Learning to rank on a machine with an NVIDIA GPU, from a build with the
# CUDA and Vulkan backends: ranking models trained on cuda and vulkan
# against the CPU (tests/hardware/ranking_backends.py), the ranking cases of
# the conformance suites, and the training times against XGBoost
# (bench/bench_ranking.py; docs/benchmarks.md, "Ranking").
#
#   BUILD=dir bench/run_ranking.sh check     # the comparisons
#   BUILD=dir bench/run_ranking.sh cuda      # times on cuda (10M rows)
#   BUILD=dir bench/run_ranking.sh cpu       # times on 2 CPU threads (1M rows)
#
# XGBOOST=1 adds XGBoost's times (its CUDA build on cuda). Writes to
# RESULTS (default $OUT or /tmp/gpulayer-ranking).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RESULTS=${RESULTS:-${OUT:-/tmp/gpulayer-ranking}}
mkdir -p "$RESULTS"
export GPULAYER_CLI=${GPULAYER_CLI:-$PWD/$BUILD/gpulayer}
export GPULAYER_PROBE=${GPULAYER_PROBE:-$PWD/$BUILD/gpulayer-probe}
export GPULAYER_LIBRARY=${GPULAYER_LIBRARY:-$PWD/$BUILD/libgpulayer.so}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
xgb=--no-xgboost
[ "${XGBOOST:-0}" = 1 ] && xgb=
status=0
case ${1:-check} in
check)
    timeout 300 python3 tests/hardware/ranking_backends.py cuda vulkan 2>&1 |
        tee "$RESULTS/ranking_backends.log" || status=1
    for t in test_cuda_ops test_vulkan_ops; do
        timeout 300 "$BUILD/tests/$t" 2>&1 | tee "$RESULTS/$t.log" |
            grep -E "rank|PASSED|FAILED" || status=1
    done
    ;;
cuda)
    timeout 560 python3 bench/bench_ranking.py --device cuda --rows 10000000 --rounds 100 \
        --threads 16 --repeats 3 $xgb --out "$RESULTS/cuda.json" 2>&1 |
        tee "$RESULTS/cuda.log" || status=1
    ;;
cpu)
    timeout 560 python3 bench/bench_ranking.py --device cpu --rows 1000000 --rounds 100 \
        --threads 2 --repeats ${REPEATS:-2} $xgb --out "$RESULTS/cpu.json" 2>&1 |
        tee "$RESULTS/cpu.log" || status=1
    ;;
*) echo "usage: $0 check|cuda|cpu" >&2; exit 2 ;;
esac
exit $status
