#!/usr/bin/env bash
# The packaged library loads its metallib with no developer tools: installs
# the build into a temporary prefix, then trains with --device mps from
# there under an environment where xcrun and the Metal compiler cannot be
# found (DEVELOPER_DIR points nowhere, PATH holds only system folders), and
# checks that no .metal or .metallib file was needed beside the library.
#
#   tests/hardware/run_metal_package.sh [BUILD_DIR]
#
# Prints SKIPPED with the reason and exits 0 where it cannot apply (not
# macOS, no Metal backend in the build, no Metal device).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"

if [ "$(uname -s)" != Darwin ]; then echo "SKIPPED: not macOS (Metal exists only there)"; exit 0; fi
if [ ! -x "$build/gpulayer" ]; then echo "SKIPPED: no gpulayer in $build (build first)"; exit 0; fi
if ! "$build/gpulayer" devices --json 2>/dev/null | grep -q '"mps"'; then
  echo "SKIPPED: discovery reports no Metal device here (a VM or CI runner without GPU access)"
  exit 0
fi
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAILED: cmake --install"; exit 1; }
if find "$prefix" -name '*.metal' -o -name '*.metallib' | grep -q .; then
  echo "FAILED: the installed tree ships Metal kernel files; they must be embedded"; exit 1
fi
data="$prefix/train.csv"
python3 - "$data" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("a,b,c,y\n")
    for _ in range(2000):
        a, b, c = random.random(), random.random(), random.random()
        f.write(f"{a},{b},{c},{int(a + b > 1)}\n")
PY
if env -i HOME="$HOME" PATH=/usr/bin:/bin DEVELOPER_DIR=/nonexistent \
     "$prefix/bin/gpulayer" train --data "$data" --label y --objective binary:logistic \
     --device mps --model "$prefix/model.json" --param num_round=5; then
  echo "PASSED: trained on mps from the installed library without developer tools"
else
  echo "FAILED: training with --device mps from the installed library"; exit 1
fi
