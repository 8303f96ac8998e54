#!/usr/bin/env bash
# The objectives on a machine with an NVIDIA GPU, from a build with the
# CUDA and Vulkan backends: every objective trained on cuda and vulkan
# against the CPU (tests/hardware/objective_backends.py), the categorical
# and conformance suites, and the objectives' training times
# (bench/bench_objectives.py; docs/benchmarks.md, "Objectives").
#
#   BUILD=dir bench/run_objectives.sh check     # the comparisons
#   BUILD=dir bench/run_objectives.sh cuda      # times on cuda (3M rows)
#   BUILD=dir bench/run_objectives.sh cpu       # times on 2 CPU threads (1M rows)
#
# XGBOOST=1 adds XGBoost's times (its CUDA build on cuda). Writes to
# RESULTS (default $OUT or /tmp/gpulayer-objectives).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RESULTS=${RESULTS:-${OUT:-/tmp/gpulayer-objectives}}
FLIGHTS=${FLIGHTS:-../shared/data/flights_3m/flights_3m.csv.xz}
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
    timeout 300 python3 tests/hardware/objective_backends.py cuda vulkan 2>&1 |
        tee "$RESULTS/objective_backends.log" || status=1
    timeout 200 python3 tests/hardware/categorical_backends.py cuda vulkan 2>&1 |
        tee "$RESULTS/categorical_backends.log" || status=1
    GPULAYER_BUILD=$BUILD timeout 400 bash tests/hardware/run_gpu_conformance.sh 2>&1 |
        tee "$RESULTS/conformance.log" | grep -E "^(ok|FAILED|skipped|conformance)" || status=1
    ;;
cuda)
    timeout 500 python3 bench/bench_objectives.py --device cuda --rows 3000000 --rounds 200 \
        --threads 16 --repeats 3 --flights "$FLIGHTS" $xgb --out "$RESULTS/cuda.json" 2>&1 |
        tee "$RESULTS/cuda.log" || status=1
    ;;
cpu)
    timeout 560 python3 bench/bench_objectives.py --device cpu --rows 1000000 --rounds 100 \
        --threads 2 --repeats ${REPEATS:-2} --flights "$FLIGHTS" $xgb --out "$RESULTS/cpu.json" 2>&1 |
        tee "$RESULTS/cpu.log" || status=1
    ;;
*) echo "usage: $0 check|cuda|cpu" >&2; exit 2 ;;
esac
exit $status
