#!/usr/bin/env bash
# Builds the Python API reference (HTML) from the package's docstrings
# with pdoc, into OUT_DIR (not tracked). Needs pdoc (pip install pdoc, or
# the package's "test" extra); the C library is not loaded.
#
#   bash scripts/build_api_docs.sh OUT_DIR
#
# The pages: OUT_DIR/index.html, OUT_DIR/gpulayer.html (the package:
# Dataset, Booster, train, cv, the estimators by their XGBoost and
# LightGBM names, devices, place, ...) and OUT_DIR/gpulayer/<module>.html
# for each public module (sklearn, callback, distributed, devices, ...).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bash scripts/build_api_docs.sh OUT_DIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
python3 -c "import pdoc" 2>/dev/null || {
  echo "build_api_docs: pdoc is not installed (pip install pdoc)" >&2
  exit 1
}
# The package's public modules: every python/gpulayer/*.py not starting
# with an underscore.
modules=(gpulayer)
for f in "$root"/python/gpulayer/[!_]*.py; do
  modules+=("gpulayer.$(basename "$f" .py)")
done
cd "$root"
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 - "$out" "${modules[@]}" <<'PY'
import sys
import warnings
from pathlib import Path

import pdoc

# Annotations naming types imported only for type checkers cannot be
# resolved at run time; pdoc shows them as written.
warnings.filterwarnings("ignore", message="Error parsing type annotation")

import gpulayer

# The estimators are loaded on first use (scikit-learn is optional); bind
# them to the package here so that its page documents them under every name.
try:
    from gpulayer import sklearn as _sklearn
except ImportError as exc:  # scikit-learn missing: the page lacks the estimators
    print(f"build_api_docs: without the scikit-learn estimators ({exc})", file=sys.stderr)
else:
    for name, target in gpulayer._ESTIMATORS.items():
        setattr(gpulayer, name, getattr(_sklearn, target))

pdoc.render.configure(docformat="numpy", footer_text="GPUlayer " + gpulayer.__version__)
pdoc.pdoc(*sys.argv[2:], output_directory=Path(sys.argv[1]))
PY
echo "build_api_docs: $out/index.html ($(find "$out" -name '*.html' | wc -l) pages)"
