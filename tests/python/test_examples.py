"""The examples of examples/, run through `gpulayer run` where their
framework is installed (torch here when importable; MLX only on a Mac),
and their refusal to run where it is not."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run_example(cli, request, example, env=None):
    return subprocess.run([cli, "run", request, "--", sys.executable, str(EXAMPLES / example)],
                          capture_output=True, text=True, timeout=300,
                          env=env or dict(os.environ))


def test_torch_example_on_the_cpu(cli):
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"torch is not installed for {sys.executable} ({exc})")
    result = run_example(cli, "cpu", "torch_matmul.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("device: cpu")
    assert "512x512 float32 matmul" in result.stdout and result.stdout.rstrip().endswith("ok")


def test_mlx_example(cli):
    try:
        import mlx.core  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"mlx is not installed for {sys.executable} ({exc}); it exists for macOS")
    result = run_example(cli, "mps,capability=mlx", "mlx_matmul.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gpu" in result.stdout and result.stdout.rstrip().endswith("ok")


def test_examples_say_when_they_cannot_run(cli, tmp_path):
    """Without the framework, or on an accelerator it has no backend for,
    an example exits 2 and says why, instead of failing obscurely."""
    for name in ("torch", "mlx"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{name}'\", name='{name}')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = run_example(cli, "cpu", "torch_matmul.py", env)
    assert result.returncode == 2 and "torch is not installed" in result.stderr
    result = run_example(cli, "cpu", "mlx_matmul.py", env)
    assert result.returncode == 2 and "mlx is not installed" in result.stderr

    stand_in = tmp_path / "cpu_torch"
    (stand_in / "torch").mkdir(parents=True)
    (stand_in / "torch" / "__init__.py").write_text(textwrap.dedent("""\
        __version__ = "0+stand-in"
        """))
    result = subprocess.run([sys.executable, str(EXAMPLES / "torch_matmul.py")],
                            capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, PYTHONPATH=str(stand_in),
                                     GPULAYER_ACCELERATOR="vulkan"))
    assert result.returncode == 2
    assert "PyTorch has no backend for GPULAYER_ACCELERATOR=vulkan" in result.stderr
