"""The synthetic binary-classification workload of the benchmarks.

    c = default_rng(0).standard_normal(F)
    rng = default_rng(seed); X = rng.standard_normal((n, F)).astype(float32)
    z = X @ c / sqrt(F) + sin(2*X[:,0]) + X[:,1]*X[:,2] + 0.5*abs(X[:,3]) - 0.5*(X[:,4] > 0.5)
    y = (z + rng.logistic(size=n) > 0)
"""
import os
import sys

import numpy as np


def make(n, F, seed):
    c = np.random.default_rng(0).standard_normal(F)
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, F)).astype(np.float32)
    z = (X @ c / np.sqrt(F) + np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2]
         + 0.5 * np.abs(X[:, 3]) - 0.5 * (X[:, 4] > 0.5))
    y = (z + rng.logistic(size=n) > 0).astype(np.float32)
    return X, y


def write(prefix, X, y):
    """Raw row-major float32 files read by gpulayer-bench."""
    np.ascontiguousarray(X, dtype=np.float32).tofile(prefix + ".X.f32")
    np.ascontiguousarray(y, dtype=np.float32).tofile(prefix + ".y.f32")


if __name__ == "__main__":
    n, F, seed, prefix = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    os.makedirs(os.path.dirname(prefix) or ".", exist_ok=True)
    write(prefix, *make(n, F, seed))
