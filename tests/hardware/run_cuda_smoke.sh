#!/usr/bin/env bash
# The device layer on a machine with NVIDIA GPUs: what discovery sees, where
# a CUDA job goes, and a 512x512 matrix product on each GPU through
# `gpulayer run`, checked against the CPU (cuda_matmul_smoke.py).
#
# Builds nothing: it expects a build in build/ (or $GPULAYER_BUILD) with the
# gpulayer command and gpulayer-probe beside it. Where no CUDA device fits it
# prints why and exits 0 with SKIPPED. Exit status: 0 when nothing failed
# (the last line counts what passed, failed and was skipped), 1 otherwise.
#
#   tests/hardware/run_cuda_smoke.sh
set -u
cd "$(dirname "$0")/../.."
build=${GPULAYER_BUILD:-build}
cli=$build/gpulayer
py=${PYTHON:-python3}
passed=0
failed=0
skipped=0

if [ ! -x "$cli" ]; then
    echo "FAIL: $cli not found; build first (cmake -B $build && cmake --build $build)"
    exit 1
fi

echo "== gpulayer devices --json"
"$cli" devices --json
echo "== gpulayer diagnose"
"$cli" diagnose

echo "== gpulayer place --accelerator cuda"
if ! "$cli" place --accelerator cuda; then
    echo "SKIPPED: no CUDA device fits this request (the reasons are above)"
    exit 0
fi
if ! command -v "$py" >/dev/null; then
    echo "SKIPPED: $py is not installed, and the smoke test is a Python script"
    exit 0
fi

check() { # name, expected status, command...
    local name=$1 want=$2
    shift 2
    "$@"
    local got=$?
    if [ "$got" -eq 77 ] && [ "$want" -eq 0 ]; then
        echo "skipped: $name (the reason is above)"
        skipped=$((skipped + 1))
    elif [ "$got" -eq "$want" ]; then
        echo "ok: $name"
        passed=$((passed + 1))
    else
        echo "FAILED: $name (status $got, expected $want)"
        failed=$((failed + 1))
    fi
}

smoke=tests/hardware/cuda_matmul_smoke.py
echo "== the matmul on the device auto picks for a cuda request"
check "matmul on cuda" 0 "$cli" run --accelerator cuda -v -- "$py" "$smoke"

# Each GPU in turn: the runner must route to exactly the one named.
count=$("$cli" devices --json | "$py" -c \
    'import json, sys; print(sum(d["accelerator"] == "cuda" for d in json.load(sys.stdin)["devices"]))')
for ((i = 0; i < count; i++)); do
    echo "== the matmul on cuda:$i"
    check "matmul on cuda:$i" 0 "$cli" run "cuda:$i" -v -- "$py" "$smoke"
done

echo "== exit status and signals pass through"
check "exit status" 3 "$cli" run --accelerator cuda -- sh -c 'exit 3'
check "death by signal" 137 "$cli" run --accelerator cuda -- sh -c 'kill -KILL $$'
check "refusal" 125 "$cli" run --accelerator cuda --memory 100T -- true

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
