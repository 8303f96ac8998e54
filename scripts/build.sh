#!/usr/bin/env bash
# Configures and builds GPUlayer into BUILD_DIR (default: build).
# GPULAYER_SANITIZE=1 builds with AddressSanitizer + UBSan; GPULAYER_FUZZ=1
# (with CC=clang) also gives every object libFuzzer's coverage and builds
# the harnesses of tests/fuzz, so that one build serves both.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
args=(-DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release})
[ "${GPULAYER_SANITIZE:-0}" = 1 ] && args+=(-DGPULAYER_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
[ "${GPULAYER_FUZZ:-0}" = 1 ] && args+=(-DGPULAYER_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
[ -n "${GPULAYER_CUDA:-}" ] && args+=(-DGPULAYER_CUDA="$GPULAYER_CUDA")
cmake -S . -B "$build_dir" "${args[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
