#!/usr/bin/env bash
# The Mac acceptance run in one command: builds GPUlayer (Release, Metal
# on), then runs the Metal suites (tests/hardware/test_metal_*: operations
# against the CPU, repeated training, the command-buffer failure), the
# repeated-training leak check (the soak test on mps, under `leaks` where
# it exists), the packaged-library load test (run_metal_package.sh) and the
# binary wheel's smoke test (scripts/build_wheel.sh, test_wheel.py), the
# framework probe, the PyTorch and MLX examples through `gpulayer run`, and
# the benchmark (bench/bench_cpu.py --device mps: GPUlayer on the GPU
# against XGBoost and LightGBM on the CPU and macboost on the GPU, same data,
# same run). Everything goes into ONE report file, Markdown that a
# maintainer can paste into docs/metal.md: device, OS, chip, every result
# and every timing.
#
#   tests/hardware/run_mac.sh [REPORT]     (default: mac-report-DATE.md)
#
# Environment: BUILD_DIR (default build-mac), PYTHON (default python3),
# GPULAYER_MAC_QUICK=1 (fewer soak cycles, fewer benchmark rounds),
# GPULAYER_MAC_NO_INSTALL=1 (no pip install of torch, mlx, macboost, xgboost
# or lightgbm into a virtual environment: use what PYTHON has).
#
# Off macOS it prints why and exits 0 with "skipped". On macOS it exits 0
# when no step failed (skips, with their reasons, are not failures), 1
# otherwise; the report says which.
set -u

if [ "$(uname -s)" != Darwin ]; then
    echo "skipped: not macOS ($(uname -s)); the Metal backend and the Apple GPU exist only there"
    exit 0
fi

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root" || exit 1
build=${BUILD_DIR:-build-mac}
report=${1:-mac-report-$(date -u +%Y%m%d-%H%M).md}
case "$report" in /*) ;; *) report="$root/$report" ;; esac
logs="$(mktemp -d)"
quick=${GPULAYER_MAC_QUICK:-0}
failed=0
passed=0
skipped=0

say() { printf '%s\n' "$*" | tee -a "$report"; }

# step NAME COMMAND...: runs it with its output in a log, times it, and
# adds a row to the report (77 from a step means skipped, as in ctest).
step() {
    local name=$1
    shift
    local log
    log="$logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_').log"
    echo "== $name"
    local start end status verdict
    start=$(date +%s)
    "$@" >"$log" 2>&1
    status=$?
    end=$(date +%s)
    if [ "$status" -eq 77 ] || grep -qE '^SKIPPED|\[  SKIPPED \]' "$log"; then
        verdict="skipped"
        skipped=$((skipped + 1))
    elif [ "$status" -eq 0 ]; then
        verdict="passed"
        passed=$((passed + 1))
    else
        verdict="FAILED (status $status)"
        failed=$((failed + 1))
    fi
    echo "   $verdict in $((end - start)) s"
    printf '| %s | %s | %s s |\n' "$name" "$verdict" "$((end - start))" >>"$report"
    {
        printf '\n<details><summary>%s: %s</summary>\n\n```\n' "$name" "$verdict"
        tail -n 60 "$log"
        printf '```\n</details>\n'
    } >>"$logs/details.md"
}

: >"$report"
say "# GPUlayer on a Mac: acceptance run"
say ""
say "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
say "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
say "- OS: $(sw_vers -productName 2>/dev/null) $(sw_vers -productVersion 2>/dev/null) ($(sw_vers -buildVersion 2>/dev/null)), $(uname -m)"
say "- chip: $(sysctl -n machdep.cpu.brand_string 2>/dev/null)"
say "- model: $(sysctl -n hw.model 2>/dev/null), memory $(($(sysctl -n hw.memsize 2>/dev/null || echo 0) / 1073741824)) GiB, $(sysctl -n hw.ncpu 2>/dev/null) cores"
say "- GPU: $(system_profiler SPDisplaysDataType 2>/dev/null | awk -F': ' '/Chipset Model|Total Number of Cores|Metal Support/ {printf "%s%s", sep, $2; sep=", "}')"
say "- compiler: $(cc --version 2>/dev/null | head -n 1)"
say "- quick: $quick"
say ""
say "| step | result | time |"
say "|---|---|---|"

# --------------------------------------------------------------- build
build_step() {
    command -v brew >/dev/null && brew install cjson cmocka libomp >/dev/null 2>&1
    scripts/fetch_metal_cpp.sh || return 1
    local omp=()
    command -v brew >/dev/null && omp=(-DOpenMP_ROOT="$(brew --prefix libomp)")
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPULAYER_METAL=ON \
        -DGPULAYER_CUDA=OFF -DGPULAYER_VULKAN=OFF -DGPULAYER_MPI=OFF "${omp[@]}" &&
        cmake --build "$build" -j "$(sysctl -n hw.ncpu)"
}
step "build (Release, Metal on)" build_step
if [ ! -x "$build/gpulayer" ]; then
    say ""
    say "The build failed; nothing else ran."
    cat "$logs/details.md" >>"$report"
    echo "report: $report"
    exit 1
fi
cli="$build/gpulayer"

# ------------------------------------------------------------ Python
py=${PYTHON:-python3}
python_step() {
    if [ "${GPULAYER_MAC_NO_INSTALL:-0}" = 1 ]; then
        echo "using $py as it is (GPULAYER_MAC_NO_INSTALL=1)"
        return 0
    fi
    "$py" -m venv "$logs/venv" || return 1
    py="$logs/venv/bin/python"
    "$py" -m pip install -q numpy pandas scikit-learn xgboost lightgbm pytest || return 1
    # Each may not install on this macOS or Python; the steps that need it
    # then skip, naming the reason.
    local pkg
    for pkg in torch mlx macboost; do
        "$py" -m pip install -q "$pkg" || echo "note: pip install $pkg failed"
    done
    "$py" -m pip list 2>/dev/null | grep -iE '^(torch|mlx|macboost|xgboost|lightgbm|numpy) '
}
step "Python packages" python_step
# The step ran in this shell, but keep the interpreter choice explicit.
[ -x "$logs/venv/bin/python" ] && py="$logs/venv/bin/python"
export GPULAYER_PYTHON="$py"

# ------------------------------------------------------------ devices
step "gpulayer devices --frameworks" "$cli" devices --frameworks
step "gpulayer diagnose" "$cli" diagnose

# ------------------------------------------------------- Metal suites
metal_suites() {
    local found=0 t
    for t in "$build"/tests/test_metal_*; do
        [ -x "$t" ] || continue
        found=1
        echo "--- $(basename "$t")"
        "$t" || return 1
    done
    [ "$found" = 1 ] || { echo "SKIPPED: no Metal suite was built"; return 77; }
    return 0
}
step "Metal suites (operations, repeated training, command-buffer failure)" metal_suites
command_buffer_failure() {
    local t="$build/tests/test_metal_ops"
    [ -x "$t" ] || { echo "SKIPPED: test_metal_ops was not built"; return 77; }
    local out
    out=$("$t" 2>&1)
    printf '%s\n' "$out" | grep -E 'test_command_buffer_failure|skip'
    printf '%s\n' "$out" | grep -q 'OK \] test_command_buffer_failure'
}
step "command-buffer failure survived" command_buffer_failure

# Steps that train on the GPU need this library's Metal backend on a device.
need_mps() {
    "$cli" place mps --backend >/dev/null 2>&1 && return 0
    "$cli" place mps --backend
    echo "SKIPPED: this library's Metal backend has no device here (the reasons are above)"
    return 77
}

# --------------------------------------------------------- leak check
cycles=1000
[ "$quick" = 1 ] && cycles=200
soak_step() {
    local t="$build/tests/test_soak"
    need_mps || return 77
    [ -x "$t" ] || { echo "SKIPPED: test_soak was not built"; return 77; }
    GPULAYER_SOAK_DEVICE=mps GPULAYER_SOAK_CYCLES=$cycles "$t"
}
step "repeated training on mps, $cycles cycles (resident memory flat)" soak_step
leaks_step() {
    local t="$build/tests/test_soak"
    need_mps || return 77
    command -v leaks >/dev/null || { echo "SKIPPED: no leaks command (Xcode command-line tools)"; return 77; }
    [ -x "$t" ] || { echo "SKIPPED: test_soak was not built"; return 77; }
    MallocStackLogging=1 GPULAYER_SOAK_DEVICE=mps GPULAYER_SOAK_CYCLES=50 \
        leaks --atExit -- "$t"
}
step "leaks --atExit over 50 cycles on mps" leaks_step

# ------------------------------------------------------ package load
step "packaged library without developer tools" tests/hardware/run_metal_package.sh "$build"

wheel_step() {
    [ -f scripts/build_wheel.sh ] || { echo "SKIPPED: no scripts/build_wheel.sh"; return 77; }
    bash scripts/build_wheel.sh "$build/wheel" &&
        GPULAYER_TEST_WHEEL="$build/wheel" "$py" -m pytest -q tests/python/test_wheel.py
}
step "binary wheel (arm64, metallib inside) and its smoke test" wheel_step

# ----------------------------------------------- frameworks, examples
framework_run() { # capability example
    if ! "$cli" place "mps,capability=$1" >/dev/null 2>&1; then
        "$cli" place "mps,capability=$1"
        echo "SKIPPED: no mps device with $1 (the reasons are above)"
        return 77
    fi
    "$cli" run mps --capability "$1" -v -- "$py" "examples/$2"
}
step "torch example on mps (--capability torch.mps)" framework_run torch.mps torch_matmul.py
step "mlx example on mps (--capability mlx)" framework_run mlx mlx_matmul.py

# ---------------------------------------------------------- benchmark
rounds=200
[ "$quick" = 1 ] && rounds=50
bench_step() {
    need_mps || return 77
    [ -x "$build/bench/gpulayer-bench" ] || { echo "SKIPPED: gpulayer-bench was not built"; return 77; }
    local workloads=synthetic
    [ -f "$root/../shared/data/flights_3m/flights_3m.csv.xz" ] && workloads=synthetic,flights
    "$py" bench/bench_cpu.py --device mps --workloads "$workloads" --rounds "$rounds" \
        --bench "$build/bench/gpulayer-bench"
}
step "benchmark: GPUlayer on mps, XGBoost and LightGBM on the CPU, macboost" bench_step

# ------------------------------------------------------------ report
say ""
say "$passed passed, $failed failed, $skipped skipped."
bench_log="$logs/$(printf '%s' "benchmark: GPUlayer on mps, XGBoost and LightGBM on the CPU, macboost" | tr -c 'A-Za-z0-9' '_').log"
if [ -f "$bench_log" ]; then
    say ""
    say "## Benchmark"
    say ""
    say '```'
    grep -v '^  ' "$bench_log" | tee -a "$report"
    say '```'
fi
{
    printf '\n## Details (the end of each step'"'"'s output)\n'
    cat "$logs/details.md"
} >>"$report"
echo "report: $report"
[ "$failed" -eq 0 ]
