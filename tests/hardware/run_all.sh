#!/usr/bin/env bash
# Every GPU check and the GPU benchmark rows, on a machine with an NVIDIA
# GPU, from one build that has the CUDA and Vulkan backends (built here or
# carried; nothing is compiled). Two halves, each under ten minutes on an
# H100 or H200, so that each fits one call of a lent machine:
#
#   tests/hardware/run_all.sh checks   # conformance, model bits, faults, soak, wheel
#   tests/hardware/run_all.sh bench    # docs/benchmarks.md's GPU rows against XGBoost
#   tests/hardware/run_all.sh all      # both
#
# Environment:
#   GPULAYER_BUILD   the build directory (default build)
#   RESULTS          where summary.md and logs.tar.gz go (default $OUT, else
#                    /tmp/gpulayer-hardware)
#   GPULAYER_COMMIT  the commit the build was made from (default: git, else
#                    "unknown"), quoted in the summary
#   WHEEL_DIR        a folder holding the wheel of scripts/build_wheel.sh;
#                    without it the wheel step is skipped, saying so
#   FLIGHTS          flights_3m.csv.xz for the flights rows (default
#                    ../shared/data/flights_3m/flights_3m.csv.xz)
#   ROUNDS           boosting rounds of the binary benchmark rows (default 500)
#
# Each step is one of the scripts beside this one (tests/hardware/README.md)
# or a suite of the build; its verdict is passed, failed or skipped (with
# the line that gives the reason). The summary holds one row a step, the
# device, driver and commit, and the benchmark ratios. Exit status 1 when
# any step failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
half=${1:-all}
build=${GPULAYER_BUILD:-build}
results=${RESULTS:-${OUT:-/tmp/gpulayer-hardware}}
flights=${FLIGHTS:-$root/../shared/data/flights_3m/flights_3m.csv.xz}
rounds=${ROUNDS:-500}
commit=${GPULAYER_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$results"
logs=$(mktemp -d)
summary=$results/summary-$half.md
export GPULAYER_BUILD=$build
export GPULAYER_CLI=$root/$build/gpulayer
export GPULAYER_PROBE=$root/$build/gpulayer-probe
export GPULAYER_LIBRARY=$root/$build/libgpulayer.so
# A carried build: its run path names the folder it was built in.
export LD_LIBRARY_PATH=$root/$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1

if [ ! -x "$GPULAYER_CLI" ]; then
    echo "run_all: $GPULAYER_CLI not found; build first (GPULAYER_CUDA=ON scripts/build.sh)"
    exit 1
fi

passed=0 failed=0 skipped=0
{
    echo "# GPU run: $half"
    echo
    echo "- commit: $commit"
    echo "- device: $(nvidia-smi --query-gpu=name,driver_version,memory.total \
        --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
    echo "- host: $(nproc) CPU threads; $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "- $("$GPULAYER_CLI" devices 2>/dev/null | grep -m1 'cuda kernels' |
        sed 's/^[[:space:]]*//')"
    [ "$half" != checks ] && echo "- xgboost: $(python3 -c 'import xgboost as x; print(x.__version__)' \
        2>/dev/null || echo 'not installed')"
    echo
    echo "| step | verdict | seconds | last line (or the skip's reason) |"
    echo "|---|---|---:|---|"
} > "$summary"

# step NAME COMMAND...: runs it with its output in its own log, and adds a row.
step() {
    local name=$1
    shift
    local log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_').log
    local start=$SECONDS
    echo "== $name"
    timeout "${STEP_TIMEOUT:-600}" "$@" > "$log" 2>&1
    local rc=$? seconds=$((SECONDS - start)) verdict note
    note=$(grep -v '^[[:space:]]*$' "$log" | tail -1 | cut -c1-160)
    if [ "$rc" -eq 77 ] || { [ "$rc" -eq 0 ] && grep -qi '^SKIPPED' "$log" &&
        ! grep -qi '^\(ok\|pass\)' "$log"; }; then
        verdict=skipped
        note=$(grep -i -m1 '^SKIPPED' "$log" | cut -c1-160)
        skipped=$((skipped + 1))
    elif [ "$rc" -eq 0 ]; then
        verdict=passed
        passed=$((passed + 1))
    else
        verdict="**failed** (status $rc)"
        failed=$((failed + 1))
        grep -i -m5 'fail\|error' "$log" | sed 's/^/    /'
    fi
    echo "$verdict: $name (${seconds} s)"
    echo "| $name | $verdict | $seconds | ${note//|/\\|} |" >> "$summary"
}

# A step that cannot run here, with its reason.
skip_step() {
    echo "skipped: $1 ($2)"
    echo "| $1 | skipped | 0 | SKIPPED: $2 |" >> "$summary"
    skipped=$((skipped + 1))
}

have_py() { python3 -c "import $1" > /dev/null 2>&1; }

run_checks() {
    step "devices and gpulayer run (run_cuda_smoke.sh)" tests/hardware/run_cuda_smoke.sh
    step "conformance suites, faults included (run_gpu_conformance.sh)" \
        tests/hardware/run_gpu_conformance.sh
    step "objective models (objective_backends.py)" \
        python3 tests/hardware/objective_backends.py cuda vulkan
    step "categorical models (categorical_backends.py)" \
        python3 tests/hardware/categorical_backends.py cuda vulkan
    step "ranking models (ranking_backends.py)" \
        python3 tests/hardware/ranking_backends.py cuda vulkan
    step "sparse input (sparse_backends.py)" \
        python3 tests/hardware/sparse_backends.py cuda vulkan
    if have_py pytest; then
        step "custom objective and Python on GPUs (pytest -k gpu)" \
            python3 -m pytest -q -p no:cacheprovider -k "gpu or cuda or vulkan" \
            tests/python/test_custom_objective.py
    else
        skip_step "custom objective and Python on GPUs (pytest -k gpu)" \
            "pytest is not installed for python3"
    fi
    step "out of memory while another process holds the GPU (gpu_held_memory.py)" \
        python3 tests/hardware/gpu_held_memory.py
    for dev in cuda vulkan; do
        step "soak: 300 cycles on $dev (test_soak)" \
            env GPULAYER_SOAK_DEVICE=$dev GPULAYER_SOAK_CYCLES=300 "$build/tests/test_soak"
    done
    step "framework probe (run_framework_probe.sh)" tests/hardware/run_framework_probe.sh
    step "two and three ranks on one GPU (run_cuda_dist.sh)" \
        tests/hardware/run_cuda_dist.sh "$GPULAYER_CLI" "${MPIRUN:-mpirun}" "$root/data/demo"
    if [ -n "${WHEEL_DIR:-}" ] && ls "$WHEEL_DIR"/gpulayer-*.whl > /dev/null 2>&1; then
        step "binary wheel, no build step (run_wheel_cuda.sh)" \
            tests/hardware/run_wheel_cuda.sh "$WHEEL_DIR"
    else
        skip_step "binary wheel, no build step (run_wheel_cuda.sh)" \
            "no wheel given (WHEEL_DIR)"
    fi
}

# The JSON results' ratios, one line each, under the table.
bench_ratios() {
    python3 - "$logs" >> "$summary" <<'PY'
import json, pathlib, sys
print("\n## Benchmark ratios (XGBoost's time / GPUlayer's; above 1 is faster)\n")
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    try:
        r = json.loads(path.read_text())
    except ValueError:
        print(f"- {path.stem}: no result")
        continue
    if "speedup_train" in r:
        x, g = r["xgboost"], r["gpulayer"]
        print(f"- {path.stem} ({r['rows']} rows): XGBoost {x['train_s']:.2f} s "
              f"(+{x['prepare_s']:.2f} s QuantileDMatrix), GPUlayer {g['train_s']:.2f} s: "
              f"**{r['speedup_train']:.2f}x** ({r['speedup_with_prepare']:.2f}x with the "
              f"sketch); AUC {x['auc']:.4f} / {g['auc']:.4f}; GPU MiB "
              f"{x['gpu_mem_process_mib']} / {g['gpu_mem_process_mib']}")
    elif "speedup" in r:
        n = r["ndcg10"]
        print(f"- {path.stem} ({r['rows']} rows, {r['queries']} queries, {r['objective']}): "
              f"**{r['speedup']:.2f}x**; NDCG@10 {n.get('xgboost')} / {n.get('gpulayer')}")
    else:
        print(f"- {path.stem}: {json.dumps(r, sort_keys=True)[:400]}")
PY
}

run_bench() {
    if ! have_py xgboost; then
        skip_step "benchmark rows against XGBoost" "xgboost is not installed for python3"
        return
    fi
    local bench=$build/bench/gpulayer-bench w
    for w in synthetic wide flights flights-cat; do
        if [ "${w#flights}" != "$w" ] && [ ! -f "$flights" ]; then
            skip_step "bench_cuda.py $w" "no $flights (FLIGHTS)"
            continue
        fi
        step "bench_cuda.py $w, $rounds rounds" python3 bench/bench_cuda.py \
            --gpulayer-bench "$bench" --workload "$w" --flights "$flights" \
            --rounds "$rounds" --out "$logs/cuda-$w.json"
    done
    step "bench_multiclass.py 2M x 40, 8 classes" python3 bench/bench_multiclass.py \
        --rows 2000000 --features 40 --classes 8 --depth 6 --rounds 100 \
        --threads "$(nproc)" --device cuda --repeats 2 --libs gpulayer,xgboost
    step "bench_ranking.py 10M rows rank:ndcg" python3 bench/bench_ranking.py \
        --device cuda --rows 10000000 --rounds 100 --threads "$(nproc)" --repeats 1 \
        --out "$logs/ranking.json"
    bench_ratios
}

case $half in
    checks) run_checks ;;
    bench) run_bench ;;
    all) run_checks; run_bench ;;
    *) echo "usage: run_all.sh [checks|bench|all]"; exit 2 ;;
esac

{
    echo
    echo "$passed passed, $failed failed, $skipped skipped"
} >> "$summary"
tar -czf "$results/logs-$half.tar.gz" -C "$logs" . 2>/dev/null
rm -rf "$logs"
cat "$summary"
[ "$failed" -eq 0 ]
