"""An MLX job for `gpulayer run`: a 512x512 float32 matrix product on the
Apple GPU (or the CPU), checked against numpy.

    gpulayer run mps --capability mlx -- python3 examples/mlx_matmul.py

The device comes from GPULAYER_ACCELERATOR, which `gpulayer run` sets: mps
runs on the GPU, cpu on the CPU. Run directly, it uses the CPU. Exits 0
when the product matches, 1 when it does not, 2 when it cannot run here.
"""
import os
import sys

import numpy as np

SIZE = 512
RTOL, ATOL = 1e-4, 1e-3


def main():
    try:
        import mlx.core as mx
    except ImportError as exc:
        print(f"mlx_matmul: mlx is not installed ({exc})", file=sys.stderr)
        return 2
    accelerator = os.environ.get("GPULAYER_ACCELERATOR", "cpu")
    if accelerator not in ("mps", "cpu"):
        print(f"mlx_matmul: MLX runs on the Apple GPU (mps) or the CPU, not "
              f"GPULAYER_ACCELERATOR={accelerator}", file=sys.stderr)
        return 2
    device = mx.gpu if accelerator == "mps" else mx.cpu
    mx.set_default_device(device)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((SIZE, SIZE), dtype=np.float32)
    b = rng.standard_normal((SIZE, SIZE), dtype=np.float32)
    product = mx.matmul(mx.array(a), mx.array(b))
    mx.eval(product)
    got = np.array(product)
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.max(np.abs(got - want)))
    ok = np.allclose(got, want, rtol=RTOL, atol=ATOL)
    print(f"device: {mx.default_device()}; mlx {getattr(mx, '__version__', '?')}; "
          f"{SIZE}x{SIZE} float32 matmul max abs error {err:.3g}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
