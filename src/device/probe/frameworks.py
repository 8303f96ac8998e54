"""The framework probe: what PyTorch and MLX reach from this Python.

The library (src/device/framework_probe.c) runs it as `PYTHON -c <this
file>` in a child process with a time limit, only when a request or
`gpulayer devices --frameworks` asks. It reports facts as one JSON object
on standard output; what they mean is decided in src/device/framework.c.
Anything importing a framework prints goes to standard error instead, so
that standard output stays one JSON object.
"""
import json
import os
import sys
import warnings


def describe(exc):
    return f"{type(exc).__name__}: {exc}"[:200]


def import_failure(exc, names):
    missing = isinstance(exc, ModuleNotFoundError) and exc.name in names
    return {"imported": False, "missing": missing, "error": describe(exc)}


def probe_torch():
    try:
        import torch
    except Exception as exc:  # a broken install raises anything
        return import_failure(exc, ("torch",))
    facts = {"imported": True, "version": str(getattr(torch, "__version__", ""))}
    facts["cuda_version"] = getattr(getattr(torch, "version", None), "cuda", None)
    try:
        # torch says why CUDA is unusable only in a warning.
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            facts["cuda_available"] = bool(torch.cuda.is_available())
        if facts["cuda_available"]:
            facts["cuda_device_count"] = int(torch.cuda.device_count())
        elif said:
            facts["cuda_error"] = str(said[0].message).strip()[:200]
    except Exception as exc:
        facts["cuda_available"] = False
        facts["cuda_error"] = describe(exc)
    try:
        mps = torch.backends.mps
        facts["mps_built"] = bool(mps.is_built())
        facts["mps_available"] = bool(mps.is_available())
    except Exception as exc:
        facts["mps_built"] = facts["mps_available"] = False
        facts["mps_error"] = describe(exc)
    return facts


def probe_mlx():
    try:
        import mlx.core as mx
    except Exception as exc:
        return import_failure(exc, ("mlx", "mlx.core"))
    facts = {"imported": True, "version": str(getattr(mx, "__version__", ""))}
    try:
        device = mx.default_device()
        facts["default_device"] = str(device)
        facts["gpu"] = getattr(device, "type", None) == getattr(mx, "gpu", object())
    except Exception as exc:
        facts["default_device"] = describe(exc)
        facts["gpu"] = False
    return facts


def main():
    result = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    facts = {
        "protocol": 1,
        "runtime": "frameworks",
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "platform": sys.platform,
        "torch": probe_torch(),
        "mlx": probe_mlx(),
    }
    result.write(json.dumps(facts))
    result.flush()


main()
