#!/usr/bin/env bash
# Installs clang with libFuzzer's runtime and clang's OpenMP, which the
# sanitized build (scripts/test.sh --sanitize) and the fuzzing harnesses
# (scripts/fuzz.sh) use; does nothing where they are present.
set -euo pipefail
if command -v clang >/dev/null &&
   ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  exit 0
fi
echo "setup_clang: installing clang and its fuzzer runtime"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev libomp-14-dev >/dev/null ||
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libomp-dev >/dev/null
