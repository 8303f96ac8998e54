"""Distributed (data-parallel) training over MPI.

Two processes ("ranks") each read their half of the bundled Fertility
training file and train together: every rank ends with the same model,
the very bytes one process would train on all the rows, which rank 0
checks. See docs/distributed.md.

    mpirun -np 2 python3 examples/distributed_mpi.py [DATA_DIR]
    python3 examples/distributed_mpi.py [DATA_DIR]   # starts mpirun -np 2 itself

It needs mpirun and a gpulayer library built with MPI. The wheel and
`pip install ./python` are built without it: build the library with CMake
where MPI is installed and point GPULAYER_LIBRARY at it. Without either,
the script says what is missing and exits 0 without training.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import gpulayer
from gpulayer import distributed

here = Path(__file__).resolve()
data = Path(sys.argv[1] if len(sys.argv) > 1 else here.parents[1] / "data" / "demo")

if not distributed.is_launched():
    # Started directly: start two ranks of this script under mpirun.
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        print("skipped: mpirun not found (Debian/Ubuntu: apt-get install openmpi-bin "
              "libopenmpi-dev)")
        sys.exit(0)
    if not distributed.is_built():
        print(f"skipped: {gpulayer.library_path()} was built without MPI; build the "
              "library with CMake where MPI is installed and set GPULAYER_LIBRARY to it "
              "(docs/distributed.md)")
        sys.exit(0)
    command = [mpirun, "-np", "2"]
    version = subprocess.run([mpirun, "--version"], capture_output=True, text=True).stdout
    if "Open MPI" in version or "OpenRTE" in version:
        command.append("--oversubscribe")  # 2 ranks even on a 1-core machine
        if os.geteuid() == 0:
            command.append("--allow-run-as-root")
    sys.exit(subprocess.call(command + [sys.executable, str(here), str(data)]))

# Under the launcher: one process of the job.
distributed.init(timeout=120)
rank, size = distributed.rank(), distributed.size()

# read_shard keeps rows [r*n/N, (r+1)*n/N) of one file (or reads
# train_%d.csv's own file per rank, when the path holds %d).
mine = distributed.read_shard(data / "fertility_train.csv.gz", label="morekids")
print(f"rank {rank}/{size}: {mine.num_rows} rows", flush=True)

params = {"objective": "binary:logistic", "max_depth": 6, "eval_metric": "auc"}
test = gpulayer.Dataset.from_file(data / "fertility_test.csv.gz", label="morekids")
history = {}
booster = gpulayer.train(params, mine, num_boost_round=10, evals=[(test, "test")],
                         evals_result=history, distributed=True)

if rank == 0:
    # The same rows in this one process give the same model, byte for byte.
    everything = gpulayer.Dataset.from_file(data / "fertility_train.csv.gz", label="morekids")
    single = gpulayer.train(params, everything, num_boost_round=10)
    same = booster.save_raw() == single.save_raw()
    print(f"result: {size} ranks, test auc {history['test']['auc'][-1]:.4f}; "
          f"the model is {'the same as' if same else 'DIFFERENT from'} one process's")
    if not same:
        distributed.abort("the distributed model differs from one process's", 1)
