"""`pip install ./python` builds a wheel with the C library, the command and
the device probe inside, usable from any directory. Slow (a full build in a
new virtual environment): runs only with GPULAYER_TEST_INSTALL=1."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    os.environ.get("GPULAYER_TEST_INSTALL") != "1",
    reason="set GPULAYER_TEST_INSTALL=1 to build and install the package",
)


def test_pip_install_in_a_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(ROOT / "python")],
                   check=True, timeout=900)
    env = {k: v for k, v in os.environ.items()
           if k not in ("GPULAYER_LIBRARY", "PYTHONPATH")}
    code = textwrap.dedent("""
        import numpy as np, gpulayer
        assert "site-packages" in gpulayer.__file__, gpulayer.__file__
        X = np.random.default_rng(0).normal(size=(200, 3))
        model = gpulayer.GPULayerRegressor(n_estimators=5).fit(X, X[:, 0])
        assert gpulayer.library_path().startswith(str(gpulayer._lib.package_dir()))
        assert model.predict(X).shape == (200,)
        assert gpulayer.devices()[0].accelerator == "cpu"
        print("ok")
    """)
    result = subprocess.run([str(python), "-c", code], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    command = subprocess.run([str(venv / "bin" / "gpulayer"), "--help"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert command.returncode == 0 and "train" in command.stdout
