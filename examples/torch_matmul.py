"""A PyTorch job for `gpulayer run`: a 512x512 float32 matrix product on the
device GPUlayer chose, checked against numpy.

    gpulayer run --capability torch.cuda -- python3 examples/torch_matmul.py
    gpulayer run mps --capability torch.mps -- python3 examples/torch_matmul.py

The device comes from GPULAYER_ACCELERATOR and GPULAYER_DEVICE, which
`gpulayer run` sets (for cuda it also sets CUDA_VISIBLE_DEVICES, so the
index is the one torch sees). Run directly, it uses the CPU. Exits 0 when
the product matches, 1 when it does not, 2 when it cannot run here.
"""
import os
import sys

import numpy as np

SIZE = 512
# float32 products of 512 terms: well above rounding, well below a wrong answer.
RTOL, ATOL = 1e-4, 1e-3


def pick_device(torch):
    accelerator = os.environ.get("GPULAYER_ACCELERATOR", "cpu")
    index = int(os.environ.get("GPULAYER_DEVICE", "0").split(",")[0] or 0)
    if accelerator == "cuda":
        return torch.device("cuda", index)
    if accelerator in ("mps", "cpu"):
        return torch.device(accelerator)
    return None


def main():
    try:
        import torch
    except ImportError as exc:
        print(f"torch_matmul: torch is not installed ({exc})", file=sys.stderr)
        return 2
    device = pick_device(torch)
    if device is None:
        print("torch_matmul: PyTorch has no backend for GPULAYER_ACCELERATOR="
              f"{os.environ['GPULAYER_ACCELERATOR']}; ask gpulayer run for cuda, mps or cpu",
              file=sys.stderr)
        return 2
    # TF32 would round the inputs to 10 bits: not what a float32 check means.
    torch.backends.cuda.matmul.allow_tf32 = False
    rng = np.random.default_rng(0)
    a = rng.standard_normal((SIZE, SIZE), dtype=np.float32)
    b = rng.standard_normal((SIZE, SIZE), dtype=np.float32)
    got = (torch.from_numpy(a).to(device) @ torch.from_numpy(b).to(device)).cpu().numpy()
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.max(np.abs(got - want)))
    ok = np.allclose(got, want, rtol=RTOL, atol=ATOL)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else device.type
    print(f"device: {device} ({name}); torch {torch.__version__}; "
          f"{SIZE}x{SIZE} float32 matmul max abs error {err:.3g}: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
