#!/usr/bin/env bash
# Installs what building and testing GPUlayer needs, where it is missing:
# Debian packages (compiler, CMake, cJSON, zlib, cmocka, Graphviz) and Python
# packages (numpy, pandas, scikit-learn, pytest, matplotlib, graphviz, pdoc, onnx,
# onnxruntime, skl2onnx; XGBoost and LightGBM for the accuracy tests and
# benchmarks). Safe
# to run again.
set -euo pipefail

need_apt=()
command -v cc >/dev/null || need_apt+=(build-essential)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v python3 >/dev/null || need_apt+=(python3 python3-pip)
[ -f /usr/include/cjson/cJSON.h ] || need_apt+=(libcjson-dev)
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
[ -f /usr/include/cmocka.h ] || need_apt+=(libcmocka-dev)
command -v xz >/dev/null || need_apt+=(xz-utils)
# The Vulkan backend: shader compiler, Metal translation, loader headers,
# and Mesa's CPU driver (lavapipe) that runs its tests.
command -v glslangValidator >/dev/null || need_apt+=(glslang-tools)
command -v spirv-cross >/dev/null || need_apt+=(spirv-cross)
[ -f /usr/include/vulkan/vulkan.h ] || need_apt+=(libvulkan-dev)
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need_apt+=(mesa-vulkan-drivers)
# The Khronos validation layer, on for one run of the Vulkan operations.
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
  need_apt+=(vulkan-validationlayers)
# The Metal host's compile check (scripts/check_metal_host.sh): clang++.
command -v clang++ >/dev/null || ls /usr/bin/clang++-* >/dev/null 2>&1 || need_apt+=(clang)
# Distributed training (src/distributed/) and its multi-rank tests.
command -v mpirun >/dev/null || need_apt+=(libopenmpi-dev openmpi-bin)
# Graphviz's dot, which renders trees for gpulayer.plot_tree.
command -v dot >/dev/null || need_apt+=(graphviz)
# Headless Chromium draws the training report page in its test
# (tests/python/test_cli_report.py); large, so only in CI or when asked.
if [ -n "${CI:-}" ] || [ "${GPULAYER_TEST_BROWSER:-}" = 1 ]; then
  command -v chromium >/dev/null || need_apt+=(chromium)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

need_pip=()
py_has() { python3 -c "import $1" >/dev/null 2>&1; }
py_has numpy || need_pip+=(numpy)
py_has pandas || need_pip+=(pandas)
py_has scipy || need_pip+=(scipy)
py_has sklearn || need_pip+=(scikit-learn)
py_has pytest || need_pip+=(pytest)
py_has xgboost || need_pip+=(xgboost-cpu)
py_has lightgbm || need_pip+=(lightgbm)
# The plot extra: gpulayer.plot_importance, plot_metric, plot_tree.
py_has matplotlib || need_pip+=(matplotlib)
py_has graphviz || need_pip+=(graphviz)
# The API reference (scripts/build_api_docs.sh, tests/python/test_api_docs.py).
py_has pdoc || need_pip+=(pdoc)
# The property-based test of the Python API (tests/python/test_api_properties.py).
py_has hypothesis || need_pip+=(hypothesis)
# The ONNX export and the runtime its test runs the graphs in.
py_has onnx || need_pip+=(onnx)
py_has onnxruntime || need_pip+=(onnxruntime)
# The estimators' skl2onnx converters (register_skl2onnx).
py_has skl2onnx || need_pip+=(skl2onnx)
if [ ${#need_pip[@]} -gt 0 ]; then
  echo "setup: installing Python packages: ${need_pip[*]}"
  python3 -m pip install -q "${need_pip[@]}" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "${need_pip[@]}"
fi

# The real torch for the framework probe's tests (tests/python/test_frameworks.py),
# only when asked: the registry's Linux torch is the CUDA build with its CUDA
# libraries (several GB); without a GPU it reports torch.cuda unavailable.
if [ "${GPULAYER_TEST_TORCH:-0}" = 1 ] && ! py_has torch; then
  echo "setup: installing torch (GPULAYER_TEST_TORCH=1)"
  python3 -m pip install -q torch 2>/dev/null ||
    python3 -m pip install -q --break-system-packages torch
fi

# Apple's metal-cpp headers for that check, into build/_deps (not tracked).
"$(dirname "$0")/fetch_metal_cpp.sh" >/dev/null ||
  echo "setup: could not fetch metal-cpp; the Metal host compile check will be skipped"
