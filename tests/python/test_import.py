"""Importing gpulayer loads no native library and creates no device; a
missing library is reported at first use, with how to build it."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


def run_python(code, **env):
    """Run code in a fresh interpreter with python/ on the path."""
    environ = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=environ, capture_output=True, text=True, timeout=60)


def test_import_loads_no_library_and_no_gpu_runtime():
    result = run_python("""
        import gpulayer, gpulayer.dataset, gpulayer.booster, gpulayer.devices
        from gpulayer import _lib
        assert not _lib.is_loaded()
        maps = open("/proc/self/maps").read()
        for name in ("libgpulayer", "libcuda", "libvulkan", "libnvidia"):
            assert name not in maps, name + " is mapped after import"
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_sklearn_estimators_are_imported_lazily():
    result = run_python("""
        import sys, gpulayer
        assert "sklearn" not in sys.modules
        assert gpulayer.GPULayerClassifier.__name__ == "GPULayerClassifier"
        assert "sklearn" in sys.modules
        print("ok")
    """)
    assert result.returncode == 0, result.stderr


def test_missing_library_fails_at_first_use_with_build_hint(tmp_path):
    result = run_python("""
        import numpy as np
        import gpulayer
        try:
            gpulayer.Dataset(np.zeros((2, 2)))
        except gpulayer.LibraryNotFoundError as exc:
            print(exc)
        else:
            raise SystemExit("no error")
    """, GPULAYER_LIBRARY=str(tmp_path / "missing" / "libgpulayer.so"))
    assert result.returncode == 0, result.stderr
    assert "libgpulayer was not found" in result.stdout
    assert "pip install ./python" in result.stdout
    assert "GPULAYER_LIBRARY" in result.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/maps")
def test_cpu_training_loads_no_gpu_runtime():
    result = run_python("""
        import numpy as np, gpulayer
        X = np.random.default_rng(0).normal(size=(200, 4))
        d = gpulayer.Dataset(X, label=X[:, 0])
        gpulayer.train({"device": "cpu"}, d, 3)
        maps = open("/proc/self/maps").read()
        assert "libgpulayer" in maps
        assert "libcuda" not in maps and "libvulkan" not in maps
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
