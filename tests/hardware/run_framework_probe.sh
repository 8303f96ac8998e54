#!/usr/bin/env bash
# The framework probe on a machine with NVIDIA GPUs and a CUDA build of
# torch: what `gpulayer devices --frameworks` reports, and the PyTorch
# example (a 512x512 matmul checked against numpy) through
# `gpulayer run --capability torch.cuda`, so that the job lands only where
# torch reaches a GPU.
#
# Builds nothing: it expects a build in build/ (or $GPULAYER_BUILD). The
# interpreter is $GPULAYER_PYTHON, else python3, for both the probe and the
# example. Exit status: 0 when everything passed, 1 when anything failed
# (a refusal included: its reasons are printed).
#
#   tests/hardware/run_framework_probe.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
build=${GPULAYER_BUILD:-build}
cli=$build/gpulayer
py=${GPULAYER_PYTHON:-python3}
export GPULAYER_PYTHON=$py

if [ ! -x "$cli" ]; then
    echo "FAIL: $cli not found; build first (cmake -B $build && cmake --build $build)"
    exit 1
fi
status=0

echo "== gpulayer devices --frameworks --json"
if ! "$cli" devices --frameworks --json; then
    echo "FAILED: gpulayer devices --frameworks"
    status=1
fi

echo "== gpulayer run --capability torch.cuda -- $py examples/torch_matmul.py"
if "$cli" run --capability torch.cuda -v -- "$py" examples/torch_matmul.py; then
    echo "ok: torch matmul through gpulayer run --capability torch.cuda"
else
    echo "FAILED: torch matmul through gpulayer run --capability torch.cuda (status $?)"
    status=1
fi
exit "$status"
