#!/usr/bin/env bash
# Runs every test: set up, build, the C suites (ctest), then the Python
# suites (pytest).
#
#   bash scripts/test.sh              # the suites a change needs (README)
#   bash scripts/test.sh --full       # also the slow variants (CI)
#   bash scripts/test.sh --sanitize   # the C suites under ASan and UBSan
#
# The slow variants (ctest label "slow": the Vulkan suites again with the
# float64-free kernels, the Metal host's plan and the validation layer)
# run the same host code as the plain Vulkan suites with other kernels on
# lavapipe; CI runs them. --sanitize runs the C suites again under
# AddressSanitizer and UndefinedBehaviorSanitizer in a separate build
# (build-asan); where clang and libFuzzer's runtime are installed
# (scripts/setup_clang.sh) that build is clang's with the fuzzing harnesses,
# which scripts/fuzz.sh then runs from it. Prints the time of each stage.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
stage() { echo "test.sh: $1 in $((SECONDS - start)) s"; start=$SECONDS; }
bash scripts/setup.sh
stage "setup"

if [ "${1:-}" = "--sanitize" ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  if command -v clang >/dev/null &&
     ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "test.sh: the sanitized build is clang's, with the fuzzing harnesses"
    CC=clang BUILD_DIR=build-asan GPULAYER_FUZZ=1 bash scripts/build.sh
  else
    BUILD_DIR=build-asan GPULAYER_SANITIZE=1 bash scripts/build.sh
  fi
  stage "sanitized build"
  # Under the sanitizers the slow variants would only add lavapipe time.
  ctest --test-dir build-asan --output-on-failure -j 2 -LE slow
  stage "sanitized C suites"
  exit 0
fi

bash scripts/build.sh
stage "build"
ctest_args=(-LE slow)
[ "${1:-}" = "--full" ] && ctest_args=()
ctest --test-dir build --output-on-failure -j 2 "${ctest_args[@]}"
stage "C suites${ctest_args[*]:+ (without the slow variants)}"
export GPULAYER_CLI="$PWD/build/gpulayer" GPULAYER_LIBRARY="$PWD/build/libgpulayer.so"
python3 -m pytest -q tests/python tests/accuracy
stage "Python suites"
