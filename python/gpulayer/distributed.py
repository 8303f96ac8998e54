"""Distributed (data-parallel) training over MPI.

Start the script once per rank with an MPI launcher (``mpirun -np 4
python3 script.py``, ``srun``, ``gpulayer run --nproc 4``), give each rank
its own rows, and train with ``gpulayer.train(..., distributed=True)``:
every rank ends with the model one process would train on all the rows,
bit for bit. Rank order is row order: rank r's rows follow those of the
ranks before it.

Each rank's rows are its own file when a path holds ``%d`` (replaced by
the rank), or else its slice ``[r*n/N, (r+1)*n/N)`` of one file's ``n``
rows; :func:`read_shard` applies that rule, as ``gpulayer train --dist``
does.

The library must have been built with MPI (:func:`is_built`); the package
built by ``pip install ./python`` is not, so point ``GPULAYER_LIBRARY`` at a
library built with CMake where MPI is installed.
"""

from __future__ import annotations

import atexit
import os
from ctypes import byref, c_char_p, c_int64, c_void_p, cast

from . import _lib
from .dataset import Dataset

__all__ = [
    "abort",
    "comm_seconds",
    "default_threads",
    "finalize",
    "init",
    "is_built",
    "is_launched",
    "keep_slice",
    "rank",
    "read_shard",
    "row_place",
    "shard_path",
    "size",
]

_finalize_registered = False


def is_built() -> bool:
    """Whether the loaded library was built with MPI."""
    return bool(_lib.get().gpulayer_dist_built())


def is_launched() -> bool:
    """Whether this process was started by an MPI launcher."""
    return bool(_lib.get().gpulayer_dist_launched())


def init(timeout: float | None = None) -> None:
    """Join the job (again once joined does nothing). Collectives stop the
    whole job when another rank does not answer within ``timeout`` seconds
    (default: ``GPULAYER_DIST_TIMEOUT``, else 300). The job is left at exit,
    or earlier with :func:`finalize`."""
    global _finalize_registered
    _lib.call("gpulayer_dist_init", float(timeout) if timeout else 0.0)
    if not _finalize_registered:
        atexit.register(finalize)
        _finalize_registered = True


def finalize() -> None:
    """Leave the job; it cannot be joined again in this process."""
    _lib.get().gpulayer_dist_finalize()


def rank() -> int:
    """This process's rank (0 before :func:`init`)."""
    return int(_lib.get().gpulayer_dist_rank())


def size() -> int:
    """The number of ranks of the job (1 before :func:`init`)."""
    return int(_lib.get().gpulayer_dist_size())


def default_threads() -> int:
    """CPU threads for a rank: its host's cores shared with the host's
    other ranks (``train`` uses it when ``nthread`` is not given)."""
    return int(_lib.get().gpulayer_dist_default_threads())


def comm_seconds() -> float:
    """Seconds this rank has spent in collectives so far."""
    return float(_lib.get().gpulayer_dist_comm_seconds())


def shard_path(path: str | os.PathLike, rank_index: int | None = None) -> str:
    """``path`` with its first ``%d`` replaced by the rank (this one's by
    default); unchanged when it has none."""
    out = c_void_p()
    index = rank() if rank_index is None else int(rank_index)
    _lib.call("gpulayer_dist_shard_path", _lib.encode(path), index, byref(out))
    try:
        return _lib.decode(cast(out, c_char_p).value)
    finally:
        _lib.get().gpulayer_free_buffer(out)


def keep_slice(dataset: Dataset) -> Dataset:
    """Keep this rank's slice of the dataset's rows, in place."""
    _lib.call("gpulayer_dist_keep_slice", dataset.handle)
    return dataset


def row_place(rows: int) -> tuple[int, int]:
    """(index of this rank's first row among all ranks' rows, all ranks'
    rows), given this rank's row count. Collective."""
    first, total = c_int64(), c_int64()
    _lib.call("gpulayer_dist_row_place", int(rows), byref(first), byref(total))
    return first.value, total.value


def read_shard(path: str | os.PathLike, **options) -> Dataset:
    """This rank's rows of a data file: its own file when ``path`` holds
    ``%d``, else its slice of the one file. ``options`` are those of
    :meth:`Dataset.from_file`; with one file per rank, a ``group_file``
    holding ``%d`` is the rank's own too. A slice that would cut a query
    group in two is refused."""
    text = os.fspath(path)
    pattern = _lib.get().gpulayer_dist_is_shard_pattern(_lib.encode(text))
    if pattern and options.get("group_file") is not None:
        options = dict(options, group_file=shard_path(os.fspath(options["group_file"])))
    dataset = Dataset.from_file(shard_path(text), **options)
    if not pattern and size() > 1:
        keep_slice(dataset)
    return dataset


def abort(message: str, code: int = 1) -> None:
    """End every rank of the job with exit status ``code``, printing
    ``message``: for a failure of this rank alone, which the others would
    otherwise wait for. Does not return."""
    _lib.get().gpulayer_dist_abort(_lib.encode(message), int(code))
