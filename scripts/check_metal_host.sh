#!/usr/bin/env bash
# Compile check of the Metal host where there is no Mac: every
# src/backend/metal/*.cpp through `clang++ -std=c++17 -fblocks
# -fsyntax-only` against Apple's metal-cpp headers (scripts/fetch_metal_cpp.sh)
# and the declaration-only stubs of tests/metal_stubs/, so every Metal
# method name and argument type is checked by a compiler; and the C files
# of the backend that are built only on Apple through `-std=c11
# -fsyntax-only`. Nothing is linked or run.
#
#   scripts/check_metal_host.sh [METAL_CPP_DIR]
#
# Exits 77 (a skip, for ctest) naming what is missing when clang++ or the
# metal-cpp headers are not there; scripts/setup.sh installs both.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mcpp="${1:-${GPULAYER_METAL_CPP_DIR:-$root/build/_deps/metal-cpp}}"

cxx=""
for c in "${CXX_METAL_CHECK:-}" clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14; do
  if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
done
if [ -z "$cxx" ]; then
  echo "SKIPPED: no clang++ (Debian package clang; scripts/setup.sh installs it)"
  exit 77
fi
if [ ! -f "$mcpp/Metal/Metal.hpp" ]; then
  echo "SKIPPED: no metal-cpp headers in $mcpp (run scripts/fetch_metal_cpp.sh)"
  exit 77
fi
cc="${CC_METAL_CHECK:-${cxx/clang++/clang}}"
command -v "$cc" >/dev/null 2>&1 || cc=cc

metal="$root/src/backend/metal"
inc=(-I"$metal" -I"$root/src/backend" -I"$root/src/base" -I"$root/src/core" -I"$root/include")
failed=0
checked=0
for f in "$metal"/*.cpp; do
  [ -e "$f" ] || continue
  checked=$((checked + 1))
  if ! "$cxx" -std=c++17 -fblocks -fsyntax-only -Wall -Wextra -Werror \
       -isystem "$mcpp" -isystem "$root/tests/metal_stubs" "${inc[@]}" "$f"; then
    echo "FAILED: $f"
    failed=$((failed + 1))
  fi
done
# The backend's C side (built only with the Metal backend, i.e. on Apple).
for f in "$metal"/*.c; do
  [ -e "$f" ] || continue
  checked=$((checked + 1))
  if ! "$cc" -std=c11 -D_GNU_SOURCE -DGPL_HAVE_METAL -fsyntax-only -Wall -Wextra -Werror \
       "${inc[@]}" "$f"; then
    echo "FAILED: $f"
    failed=$((failed + 1))
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "FAILED: no sources under $metal"
  exit 1
fi
echo "metal host: $checked files checked with $cxx and metal-cpp ($(cat "$mcpp/SOURCE" 2>/dev/null || echo "$mcpp")), $failed failed"
[ "$failed" -eq 0 ]
