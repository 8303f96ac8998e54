"""The examples of examples/: each training script runs as a user would
run it (a fresh interpreter, the package from python/, another working
folder), exits 0 and prints its result line, whose figures are checked;
the matrix-product demos run through `gpulayer run` where their framework
is installed (torch here when importable; MLX only on a Mac), and refuse
to run where it is not."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import gpulayer
from gpulayer import distributed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

FLOAT = r"([-+0-9.e]+)"


def run_script(name, *args, cwd):
    """Run examples/<name> in a fresh interpreter from another folder;
    returns the result line's match groups and the whole output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    env["GPULAYER_LIBRARY"] = gpulayer.library_path()
    result = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def result_line(out, pattern):
    line = [l for l in out.splitlines() if l.startswith("result: ")]
    assert len(line) == 1, out
    match = re.fullmatch("result: " + pattern, line[0])
    assert match, line[0]
    return [float(g) if re.fullmatch(r"[-+]?[0-9.]+(e[-+]?[0-9]+)?", g) else g
            for g in match.groups()]


def test_binary_classification(tmp_path):
    out = run_script("binary_classification.py", cwd=tmp_path)
    auc, accuracy, best = result_line(
        out, rf"test auc {FLOAT}, accuracy {FLOAT} \(best round (\d+)\)")
    assert 0.6 < auc < 1 and 0.6 < accuracy < 1
    rounds = int(re.search(r"stopped after (\d+) rounds", out).group(1))
    # Early stopping: 5 rounds without improvement after the best one.
    assert rounds == best + 6 < 200, out


def test_regression_categorical(tmp_path):
    out = run_script("regression_categorical.py", cwd=tmp_path)
    rmse, baseline = result_line(
        out, rf"test rmse {FLOAT} weeks \(always predicting the mean: {FLOAT}\)")
    assert rmse < baseline
    assert "gender1: categorical ['female', 'male']" in out and "age: numeric" in out


def test_survival_cox(tmp_path):
    out = run_script("survival_cox.py", cwd=tmp_path)
    c, last, first = result_line(
        out, rf"test concordance {FLOAT}, cox-nloglik {FLOAT} \(after the first round: {FLOAT}\)")
    assert 0.7 < c < 1 and last < first


def test_expectiles(tmp_path):
    out = run_script("expectiles.py", cwd=tmp_path)
    low, mid, high, ordered = result_line(
        out, rf"share of test rows below each level {FLOAT} {FLOAT} {FLOAT}, "
             r"never crossing (True|False)")
    assert 0 < low < mid < high < 1 and ordered == "True"


def test_ranking(tmp_path):
    out = run_script("ranking.py", cwd=tmp_path)
    last, first = result_line(out, rf"test ndcg@10 {FLOAT} \(after the first round: {FLOAT}\)")
    assert 0 < first < last <= 1
    assert "537 queries" in out and "134 queries" in out


def test_shap_contributions(tmp_path):
    out = run_script("shap_contributions.py", cwd=tmp_path)
    feature, gap = result_line(
        out, rf"most important feature (\w+); contributions sum to the margin within {FLOAT}")
    assert feature in ("gender1", "gender2", "age", "afam", "hispanic", "other", "work")
    assert gap < 1e-4
    assert "shape (50931, 8)" in out


def test_custom_objective(tmp_path):
    out = run_script("custom_objective.py", cwd=tmp_path)
    error, gap = result_line(
        out, rf"test error {FLOAT}; the custom objective's probabilities differ "
             rf"from binary:logistic's by at most {FLOAT}")
    assert 0 < error < 0.45 and gap < 1e-5
    assert "test-error@0.5:" in out


def test_device_placement(tmp_path):
    out = run_script("device_placement.py", cwd=tmp_path)
    device, rmse = result_line(out, rf"trained on (\S+), test rmse {FLOAT}")
    # The example trains where placement for training puts the job here.
    assert device == gpulayer.place("auto", backend=True).devices[0]
    assert rmse < 0.5
    assert f"chosen: {device}: " in out
    # A request this host cannot meet falls back to the CPU with the reason.
    if not any(d.accelerator == "cuda" and d.backend_available for d in gpulayer.devices()):
        out = run_script("device_placement.py", "cuda", cwd=tmp_path)
        assert "request 'cuda' refused: " in out
        assert result_line(out, rf"trained on (\S+), test rmse {FLOAT}")[0] == "cpu"


def test_distributed_mpi(tmp_path):
    out = run_script("distributed_mpi.py", cwd=tmp_path)
    if shutil.which("mpirun") is None:
        assert out.startswith("skipped: mpirun not found"), out
        pytest.skip("mpirun not found; the example said so and exited 0")
    if not distributed.is_built():
        assert out.startswith(f"skipped: {gpulayer.library_path()} was built without MPI"), out
        pytest.skip(f"{gpulayer.library_path()} was built without MPI; "
                    "the example said so and exited 0")
    size, auc = result_line(
        out, rf"(\d+) ranks, test auc {FLOAT}; the model is the same as one process's")
    assert size == 2 and auc > 0.6
    assert "rank 1/2: 101862 rows" in out, out


def test_readme_lists_every_example():
    readme = (EXAMPLES / "README.md").read_text()
    for script in sorted(EXAMPLES.glob("*.py")):
        assert f"`{script.name}`" in readme, script.name


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
