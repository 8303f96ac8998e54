#!/usr/bin/env bash
# Runs every test: set up, build, the C suites (ctest), then the Python
# suites (pytest). --sanitize runs the C suites again under AddressSanitizer
# and UndefinedBehaviorSanitizer in a separate build (build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

if [ "${1:-}" = "--sanitize" ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  BUILD_DIR=build-asan GPULAYER_SANITIZE=1 bash scripts/build.sh
  # The float64-free and Metal-plan variants run the same host code as the
  # Vulkan suites with other kernels; under the sanitizers they would only
  # add lavapipe time; the plain run (without --sanitize) keeps them.
  ctest --test-dir build-asan --output-on-failure -j 2 -E "soft_f64|model_metal"
  exit 0
fi

bash scripts/build.sh
ctest --test-dir build --output-on-failure -j 2
export GPULAYER_CLI="$PWD/build/gpulayer" GPULAYER_LIBRARY="$PWD/build/libgpulayer.so"
python3 -m pytest -q tests/python tests/accuracy
