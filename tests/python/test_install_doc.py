"""docs/install.md: the first run it gives wheel users, which needs no
download (data made with numpy, then `gpulayer train` and `predict`),
runs as written; the sections on what the wheel lacks and on the demo
data are there and point to what exists."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "docs" / "install.md"


def section(text, title):
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start:end if end >= 0 else None]


def test_the_first_run_without_download(cli, tmp_path):
    demo = section(INSTALL.read_text(), "### The demo data")
    script = re.search(r"```sh\n(.*?)```", demo, re.S).group(1)
    # The reader's python3 and gpulayer: this interpreter (it has numpy)
    # and the built command.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    (bin_dir / "gpulayer").symlink_to(os.path.abspath(cli))
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    auc = [float(v) for v in re.findall(r"auc:([0-9.]+)", run.stdout + run.stderr)]
    assert auc and max(auc) > 0.8, run.stdout + run.stderr
    assert (tmp_path / "model.json").is_file()
    predictions = (tmp_path / "pred.csv").read_text().split()
    assert len(predictions) == 2000
    assert all(0 < float(p) < 1 for p in predictions)


def test_what_the_wheel_lacks():
    text = INSTALL.read_text()
    lacks = section(text, "### What the wheel lacks")
    assert "distributed training (MPI)" in lacks and "-DGPULAYER_MPI=ON" in lacks
    assert "GPULAYER_LIBRARY" in lacks and "is_built()" in lacks
    # The option the section names is the build's.
    assert 'set(GPULAYER_MPI "${gpl_mpi_default}" CACHE STRING' in (
        ROOT / "src" / "distributed" / "CMakeLists.txt").read_text()
    for path in ("data/demo/README.md", "distributed.md"):
        assert path.split("/")[-1] in lacks
    demo = section(text, "### The demo data")
    for name in ("fertility_train.csv.gz", "fertility_test.csv.gz", "movielens_train.csv.gz",
                 "movielens_test.csv.gz", "churn_train.csv.gz", "churn_test.csv.gz"):
        assert (ROOT / "data" / "demo" / name).is_file(), name
    assert "data/demo/fertility_*.csv.gz" in demo and "data/demo/movielens_*.csv.gz" in demo
    assert "data/demo/churn_*.csv.gz" in demo
    assert "docs/install.md#the-demo-data" in (ROOT / "README.md").read_text()
