#!/usr/bin/env python3
"""A 512x512 float32 matrix product on the CUDA device that `gpulayer run`
chose, checked against the CPU.

Run it as `gpulayer run --accelerator cuda -- python3 cuda_matmul_smoke.py`.
It checks that the runner routed it (GPULAYER_ACCELERATOR=cuda, exactly one
visible GPU, whose UUID is the one in CUDA_VISIBLE_DEVICES), then multiplies
with the first of torch, cupy or the CUDA driver API itself (a small PTX
kernel through ctypes, so the test needs no Python GPU package) that works.

Exit status: 0 passed, 1 failed, 77 skipped (a line starting with SKIP says
why; 77 is the usual "skipped" status of test harnesses).
"""
import ctypes
import os
import random
import sys

N = 512
RTOL, ATOL = 1e-4, 1e-3


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(77)


def fail(reason):
    print(f"FAIL: {reason}")
    sys.exit(1)


def inputs():
    rng = random.Random(20261029)
    a = [rng.uniform(-1.0, 1.0) for _ in range(N * N)]
    b = [rng.uniform(-1.0, 1.0) for _ in range(N * N)]
    return a, b


def check(a, b, c, how):
    """Compares c (row-major, N*N) with a float64 product on the CPU: the
    whole matrix with numpy, else 256 sampled entries in plain Python."""
    try:
        import numpy as np

        ref = np.asarray(a, dtype=np.float32).astype(np.float64).reshape(N, N) @ np.asarray(
            b, dtype=np.float32
        ).astype(np.float64).reshape(N, N)
        got = np.asarray(c, dtype=np.float64).reshape(N, N)
        err = np.abs(got - ref)
        bad = int(np.count_nonzero(err > ATOL + RTOL * np.abs(ref)))
        worst = float(err.max())
        checked = N * N
    except ImportError:
        a32 = [ctypes.c_float(x).value for x in a]
        b32 = [ctypes.c_float(x).value for x in b]
        rng = random.Random(7)
        bad, worst, checked = 0, 0.0, 256
        for _ in range(checked):
            i, j = rng.randrange(N), rng.randrange(N)
            ref = sum(a32[i * N + k] * b32[k * N + j] for k in range(N))
            e = abs(c[i * N + j] - ref)
            worst = max(worst, e)
            bad += e > ATOL + RTOL * abs(ref)
    if bad:
        fail(f"{how}: {bad} of {checked} entries differ from the CPU (max error {worst:.3g})")
    print(f"PASS: {N}x{N} matmul via {how} matches the CPU ({checked} entries, max error {worst:.3g})")


def with_torch(a, b):
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
    if torch.cuda.device_count() != 1:
        fail(f"torch sees {torch.cuda.device_count()} GPUs; gpulayer run should expose exactly one")
    torch.backends.cuda.matmul.allow_tf32 = False  # exact float32 products
    ta = torch.tensor(a, dtype=torch.float32, device="cuda").reshape(N, N)
    tb = torch.tensor(b, dtype=torch.float32, device="cuda").reshape(N, N)
    c = (ta @ tb).cpu().reshape(-1).tolist()
    return c, f"torch {torch.__version__} on {torch.cuda.get_device_name(0)}"


def with_cupy(a, b):
    import cupy

    if cupy.cuda.runtime.getDeviceCount() != 1:
        fail("cupy sees more than one GPU; gpulayer run should expose exactly one")
    ca = cupy.asarray(a, dtype=cupy.float32).reshape(N, N)
    cb = cupy.asarray(b, dtype=cupy.float32).reshape(N, N)
    c = cupy.asnumpy(ca @ cb).reshape(-1).tolist()
    return c, f"cupy {cupy.__version__}"


# C[row][col] = sum_k A[row][k] * B[k][col]; one thread per entry.
PTX = r"""
.version 7.0
.target sm_50
.address_size 64

.visible .entry matmul(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<10>;

    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u32 %r1, [pn];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, %ctaid.y;
    mov.u32 %r7, %ntid.y;
    mov.u32 %r8, %tid.y;
    mad.lo.s32 %r9, %r6, %r7, %r8;
    setp.ge.u32 %p1, %r5, %r1;
    setp.ge.u32 %p2, %r9, %r1;
    or.pred %p1, %p1, %p2;
    @%p1 bra DONE;
    mov.f32 %f1, 0f00000000;
    mov.u32 %r10, 0;
    mul.lo.s32 %r11, %r9, %r1;
LOOP:
    add.s32 %r12, %r11, %r10;
    mul.wide.u32 %rd4, %r12, 4;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.f32 %f2, [%rd5];
    mad.lo.s32 %r13, %r10, %r1, %r5;
    mul.wide.u32 %rd6, %r13, 4;
    add.s64 %rd7, %rd2, %rd6;
    ld.global.f32 %f3, [%rd7];
    fma.rn.f32 %f1, %f2, %f3, %f1;
    add.s32 %r10, %r10, 1;
    setp.lt.u32 %p3, %r10, %r1;
    @%p3 bra LOOP;
    add.s32 %r14, %r11, %r5;
    mul.wide.u32 %rd8, %r14, 4;
    add.s64 %rd9, %rd3, %rd8;
    st.global.f32 [%rd9], %f1;
DONE:
    ret;
}
"""


class Driver:
    """The few CUDA driver API calls the PTX path needs, through ctypes."""

    def __init__(self):
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            skip(f"libcuda.so.1 cannot be loaded ({e})")

    def __call__(self, name, *args):
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            text = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(text))
            raise RuntimeError(f"{name} failed: {text.value.decode() if text.value else rc}")


def visible_uuid_matches(drv, dev):
    """The one visible GPU must be the one gpulayer chose."""
    want = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    raw = (ctypes.c_ubyte * 16)()
    fn = "cuDeviceGetUuid_v2" if hasattr(drv.lib, "cuDeviceGetUuid_v2") else "cuDeviceGetUuid"
    drv(fn, raw, dev)
    h = bytes(raw).hex()
    got = f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
    if want.split("-", 1)[-1] != got:
        fail(f"the visible GPU has UUID {got}, but CUDA_VISIBLE_DEVICES is {want!r}")


def with_driver_api(a, b):
    drv = Driver()
    drv("cuInit", 0)
    count = ctypes.c_int()
    drv("cuDeviceGetCount", ctypes.byref(count))
    if count.value != 1:
        fail(f"the driver sees {count.value} GPUs; gpulayer run should expose exactly one")
    dev = ctypes.c_int()
    drv("cuDeviceGet", ctypes.byref(dev), 0)
    visible_uuid_matches(drv, dev)
    name = ctypes.create_string_buffer(256)
    drv("cuDeviceGetName", name, 256, dev)
    ctx = ctypes.c_void_p()
    drv("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
    drv("cuCtxSetCurrent", ctx)
    module, func = ctypes.c_void_p(), ctypes.c_void_p()
    drv("cuModuleLoadData", ctypes.byref(module), ctypes.c_char_p(PTX.encode()))
    drv("cuModuleGetFunction", ctypes.byref(func), module, b"matmul")
    size = N * N * 4
    host_a = (ctypes.c_float * (N * N))(*a)
    host_b = (ctypes.c_float * (N * N))(*b)
    host_c = (ctypes.c_float * (N * N))()
    da, db, dc = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
    for d in (da, db, dc):
        drv("cuMemAlloc_v2", ctypes.byref(d), ctypes.c_size_t(size))
    drv("cuMemcpyHtoD_v2", da, host_a, ctypes.c_size_t(size))
    drv("cuMemcpyHtoD_v2", db, host_b, ctypes.c_size_t(size))
    n = ctypes.c_uint32(N)
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(x) for x in (da, db, dc, n)])
    block = 16
    grid = (N + block - 1) // block
    drv("cuLaunchKernel", func, grid, grid, 1, block, block, 1, 0, None, params, None)
    drv("cuCtxSynchronize")
    drv("cuMemcpyDtoH_v2", host_c, dc, ctypes.c_size_t(size))
    for d in (da, db, dc):
        drv("cuMemFree_v2", d)
    drv("cuModuleUnload", module)
    release = "cuDevicePrimaryCtxRelease_v2"
    drv(release if hasattr(drv.lib, release) else "cuDevicePrimaryCtxRelease", dev)
    return list(host_c), f"the CUDA driver API (PTX kernel) on {name.value.decode()}"


def main():
    accel = os.environ.get("GPULAYER_ACCELERATOR")
    if accel is None:
        skip("not started by gpulayer run (GPULAYER_ACCELERATOR is unset); run it as "
             "`gpulayer run --accelerator cuda -- python3 cuda_matmul_smoke.py`")
    if accel != "cuda":
        skip(f"gpulayer placed this run on {accel!r}, not cuda")
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    print(f"GPULAYER_ACCELERATOR={accel} GPULAYER_DEVICE={os.environ.get('GPULAYER_DEVICE')} "
          f"CUDA_VISIBLE_DEVICES={visible}")
    if not (visible.startswith("GPU-") or visible.startswith("MIG-")) or "," in visible:
        fail(f"CUDA_VISIBLE_DEVICES should be the chosen GPU's UUID, not {visible!r}")
    a, b = inputs()
    errors = []
    for attempt in (with_torch, with_cupy, with_driver_api):
        try:
            c, how = attempt(a, b)
        except ImportError as e:
            errors.append(f"{attempt.__name__}: {e}")
            continue
        except RuntimeError as e:
            errors.append(f"{attempt.__name__}: {e}")
            if attempt is with_driver_api:
                fail("; ".join(errors))
            continue
        check(a, b, c, how)
        return
    fail("no way to reach the GPU: " + "; ".join(errors))


if __name__ == "__main__":
    main()
