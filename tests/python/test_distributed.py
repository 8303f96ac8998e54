"""Distributed training from Python: two ranks under mpirun, each passing
its own rows to gpulayer.train(..., distributed=True), give the same model
bytes as one process on all the rows -- rows from numpy, and rows read
with gpulayer.distributed.read_shard as `gpulayer train --dist` reads them.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gpulayer
from gpulayer import distributed

ROOT = Path(__file__).resolve().parents[2]

PARAMS = {"objective": "multi:softprob", "num_class": 3, "max_depth": 4,
          "subsample": 0.8, "colsample_bytree": 0.8, "seed": 3, "num_round": 5}

# The rows of rank r of N: [r*n/N, (r+1)*n/N).
WORKER = textwrap.dedent("""
    import json
    import sys

    import numpy as np
    import gpulayer
    from gpulayer import distributed

    out, csv, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    data = np.load(out + "/data.npz")
    x, y, w = data["x"], data["y"], data["w"]
    distributed.init(timeout=120)
    r, n = distributed.rank(), distributed.size()
    assert n == 2, n
    begin, end = len(y) * r // n, len(y) * (r + 1) // n
    mine = gpulayer.Dataset(x[begin:end], label=y[begin:end], weight=w[begin:end])
    assert distributed.row_place(end - begin) == (begin, len(y))
    valid = gpulayer.Dataset(x[:200], label=y[:200])
    booster = gpulayer.train(params, mine, evals=[(valid, "valid")],
                             distributed=True)
    shard = distributed.read_shard(csv, label="y")
    from_file = gpulayer.train(params, shard, distributed="auto")
    if r == 0:
        open(out + "/ranks.json", "wb").write(booster.save_raw())
        open(out + "/ranks_file.json", "wb").write(from_file.save_raw())
""")


def _mpirun():
    path = shutil.which("mpirun")
    if not path:
        pytest.skip("mpirun not found (Debian: openmpi-bin)")
    if not distributed.is_built():
        pytest.skip(f"{gpulayer.library_path()} was built without MPI")
    return path


def _data(tmp_path):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(1500, 5)).astype(np.float32)
    x[rng.random(x.shape) < 0.05] = np.nan
    s = np.nan_to_num(x[:, 0]) + 0.5 * np.nan_to_num(x[:, 1])
    y = np.digitize(s, [-0.5, 0.5]).astype(np.float32)
    w = (0.5 + rng.random(1500)).astype(np.float32)
    np.savez(tmp_path / "data.npz", x=x, y=y, w=w)
    csv = tmp_path / "all.csv"
    with open(csv, "w") as f:
        f.write("y,f0,f1,f2,f3,f4\n")
        for label, row in zip(y, x):
            f.write(",".join([f"{label:g}"] + ["" if np.isnan(v) else f"{v:.4f}"
                                               for v in row]) + "\n")
    return x, y, w, csv


def test_two_ranks_match_one_process(tmp_path):
    mpirun = _mpirun()
    x, y, w, csv = _data(tmp_path)
    worker = tmp_path / "worker.py"
    worker.write_text(WORKER)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"),
               GPULAYER_LIBRARY=gpulayer.library_path())
    run = subprocess.run(
        [mpirun, "--oversubscribe", "--allow-run-as-root", "-np", "2",
         sys.executable, str(worker), str(tmp_path), str(csv), json.dumps(PARAMS)],
        env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr

    valid = gpulayer.Dataset(x[:200], label=y[:200])
    single = gpulayer.train(PARAMS, gpulayer.Dataset(x, label=y, weight=w),
                            evals=[(valid, "valid")])
    assert (tmp_path / "ranks.json").read_bytes() == single.save_raw()
    single_file = gpulayer.train(PARAMS, gpulayer.Dataset.from_file(csv, label="y"))
    assert (tmp_path / "ranks_file.json").read_bytes() == single_file.save_raw()


def test_distributed_needs_a_joined_job_or_mpi():
    x = np.zeros((4, 1), dtype=np.float32)
    data = gpulayer.Dataset(x, label=np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError):
        gpulayer.train({"num_round": 1}, data, distributed="yes")
    if not distributed.is_built():
        with pytest.raises(gpulayer.GPULayerError, match="without MPI"):
            gpulayer.train({"num_round": 1}, data, distributed=True)
