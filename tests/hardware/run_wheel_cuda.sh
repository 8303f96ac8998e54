#!/usr/bin/env bash
# The binary wheel on a GPU machine with no build step: installs the wheel
# (scripts/build_wheel.sh) into a fresh virtual environment without
# reaching a package registry (numpy from the system's site-packages), then
# trains on the bundled data on the CPU and on CUDA, from the command and
# from Python, and checks that the CUDA model is the CPU's, byte for byte
# apart from the recorded device parameter (and the checksum over it); the
# same on Vulkan where a Vulkan device is found.
#
#   tests/hardware/run_wheel_cuda.sh WHEEL_DIR
#
# Prints SKIPPED with the reason and exits 0 where no CUDA device is found.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
wheel_dir="${1:?usage: run_wheel_cuda.sh WHEEL_DIR}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { # description, command...
  local what=$1; shift
  if "$@"; then echo "PASS: $what"; passed=$((passed + 1))
  else echo "FAIL: $what"; failed=$((failed + 1)); fi
}

python3 -m venv --system-site-packages "$work/venv" || { echo "FAILED: venv"; exit 1; }
# numpy may live in another environment (a venv of the GPU machine's own):
# point the new one at it rather than reach a registry.
if ! "$work/venv/bin/python" -c "import numpy" 2>/dev/null; then
  python3 -c "import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))" \
    > "$("$work/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/numpy_from_host.pth" ||
    { echo "FAILED: no numpy to offer the venv"; exit 1; }
fi
"$work/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel_dir"/gpulayer-*.whl ||
  { echo "FAILED: pip install of the wheel"; exit 1; }
export PATH="$work/venv/bin:/usr/bin:/bin"
unset GPULAYER_LIBRARY GPULAYER_PROBE GPULAYER_CLI LD_LIBRARY_PATH PYTHONPATH
command -v nvcc >/dev/null && echo "note: nvcc is on the PATH; it is not used"
gpulayer devices
if ! gpulayer devices --json | grep -q '"accelerator":[[:space:]]*"cuda"'; then
  echo "SKIPPED: no CUDA device found by the wheel's discovery"; exit 0
fi

train() { # device, model
  gpulayer train --data "$root/data/demo/fertility_train.csv.gz" --label morekids \
    --valid "$root/data/demo/fertility_test.csv.gz" --objective binary:logistic \
    --param eval_metric=auc --num-round 100 --eta 0.1 --max-depth 6 \
    --device "$1" --model "$2" > "$2.log" 2>&1
}
same_model() { # a.json b.json: equal once the device parameter is set aside
  python3 - "$1" "$2" <<'PY'
import json, sys
def load(path):
    model = json.load(open(path))
    model.pop("checksum", None)
    model.get("params", {}).pop("device", None)
    return model
sys.exit(load(sys.argv[1]) != load(sys.argv[2]))
PY
}
check "the command trains on cpu" train cpu "$work/cpu.json"
check "the command trains on cuda" train cuda "$work/cuda.json"
tail -2 "$work/cuda.json.log"
grep -q "cuda" "$work/cuda.json.log" || echo "note: the training log does not name the device"
check "the cuda model is the cpu model" same_model "$work/cpu.json" "$work/cuda.json"
if gpulayer devices --json | grep -q '"accelerator":[[:space:]]*"vulkan"'; then
  check "the command trains on vulkan" train vulkan "$work/vulkan.json"
  check "the vulkan model is the cpu model" same_model "$work/cpu.json" "$work/vulkan.json"
else
  echo "SKIPPED: vulkan (no Vulkan device found; install the loader and the ICD)"
fi

python_train() {
  "$work/venv/bin/python" - "$root" <<'PY'
import sys, gpulayer, numpy as np
root = sys.argv[1]
assert "site-packages" in gpulayer.__file__, gpulayer.__file__
train = gpulayer.Dataset.from_file(root + "/data/demo/fertility_train.csv.gz", label="morekids")
params = {"objective": "binary:logistic", "max_depth": 6, "eta": 0.1}
models = {d: gpulayer.train(dict(params, device=d), train, num_boost_round=50) for d in ("cpu", "cuda")}
dumps = {d: m.get_dump(with_stats=True) for d, m in models.items()}
assert dumps["cpu"] == dumps["cuda"], "cuda and cpu trees differ"
print("python: the cuda trees equal the cpu trees,", len(dumps["cuda"]), "trees")
PY
}
check "Python trains on cuda, the same model as on cpu" python_train
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
