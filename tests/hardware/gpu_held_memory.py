"""A real GPU out-of-memory: another process holds nearly all of the GPU's
memory while gpulayer trains and predicts there, on CUDA and on Vulkan.

Two cases: the other process leaves too little for a CUDA context (256
MiB), then enough for a context but not for the job (1.5 GiB). In each,
training on device=cuda and on device=vulkan (where a Vulkan driver is
found) must fail with OutOfMemoryError saying so (with the free memory
where the runtime can tell it), and the same process must then train on
the CPU when asked. Prediction on cuda must fail the same way in the first
case and, streaming its batches, give the CPU's bits in the second. Once
the other process lets go, training on cuda must succeed and predict the
CPU's bits.

    PYTHONPATH=python GPULAYER_LIBRARY=build/libgpulayer.so \\
        python3 tests/hardware/gpu_held_memory.py

Needs torch or cupy for the holding process; prints SKIPPED without them or
without a CUDA device.
"""

import multiprocessing as mp
import sys

import numpy as np


def hold(leave, ready, release):
    try:
        import torch

        free, _ = torch.cuda.mem_get_info()
        block = torch.empty(free - leave, dtype=torch.uint8, device="cuda")
    except ImportError:
        import cupy

        free, _ = cupy.cuda.runtime.memGetInfo()
        block = cupy.empty(free - leave, dtype=cupy.uint8)
    ready.put(free)
    release.wait()
    del block


def expect_oom(what, call, errors, must_say):
    try:
        call()
    except errors.OutOfMemoryError as e:
        print(f"  {what} refused: {e}")
        return 0 if must_say in str(e) else 1
    print(f"  FAILED: {what} succeeded with the memory held")
    return 1


def main() -> int:
    try:
        import gpulayer
        import gpulayer.errors as errors
    except ImportError as e:
        print(f"SKIPPED: the gpulayer package does not load: {e}")
        return 0
    if not any(d.accelerator == "cuda" for d in gpulayer.devices()):
        print("SKIPPED: no CUDA device")
        return 0
    vulkan = any(d.accelerator == "vulkan" for d in gpulayer.devices())
    rng = np.random.default_rng(1)
    x = rng.standard_normal((30_000_000, 32), dtype=np.float32)
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(np.float32)
    data = gpulayer.Dataset(x, label=y)
    del x
    params = {"objective": "binary:logistic", "max_depth": 6, "num_round": 2}
    cpu = gpulayer.train({**params, "device": "cpu"}, data)
    ctx = mp.get_context("spawn")
    failures = 0
    for leave_mib, must_say in ((256, "out of memory"), (1536, "free")):
        ready, release = ctx.Queue(), ctx.Event()
        holder = ctx.Process(target=hold, args=(leave_mib << 20, ready, release))
        holder.start()
        free = ready.get(timeout=120)
        print(f"another process holds all but {leave_mib} MiB of {free >> 20} MiB free:")
        failures += expect_oom(
            "training", lambda: gpulayer.train({**params, "device": "cuda"}, data),
            errors, must_say)
        if vulkan:
            failures += expect_oom(
                "vulkan training",
                lambda: gpulayer.train({**params, "device": "vulkan"}, data), errors, "memory")
        again = gpulayer.train({**params, "device": "cpu"}, data)
        same = again.save_raw() == cpu.save_raw()
        print(f"  the same process then trained on the CPU: model identical: {same}")
        failures += not same
        if leave_mib < 1024:
            failures += expect_oom(
                "prediction", lambda: cpu.predict(data, device="cuda"), errors, must_say)
        else:
            # Prediction streams the rows in batches that fit what is free.
            same = np.array_equal(cpu.predict(data, device="cuda"), cpu.predict(data))
            print(f"  prediction on cuda in what is free: equal to the CPU's: {same}")
            failures += not same
        release.set()
        holder.join()
    gpu = gpulayer.train({**params, "device": "cuda"}, data)
    same = np.array_equal(gpu.predict(data), cpu.predict(data))
    print(f"after the other process let go: cuda trained, predictions equal the CPU's: {same}")
    failures += not same
    print("ok" if failures == 0 else f"FAILED: {failures} checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
