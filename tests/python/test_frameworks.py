"""The framework capabilities (torch.cuda, torch.mps, mlx) through the
command and the Python API, with stand-in torch and mlx packages on a
PYTHONPATH (written here into a temporary folder) and a stand-in
gpulayer-probe that reports one CUDA GPU, so that every case runs on any
machine: available, built without CUDA, built but unavailable, missing, a
hanging import that the time limit ends. Each case runs in a fresh process,
since discovery is cached per process."""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_PROBE = """\
#!/bin/sh
# Stands in for gpulayer-probe: one CUDA GPU, nothing else.
case "$1" in
cuda) echo '{"protocol":1,"runtime":"cuda","devices":[{"index":0,"name":"Fake GPU",
  "memory_kind":"dedicated","memory_bytes":80000000000,"usable_bytes":79000000000,
  "capabilities":["cuda.sm_90"],"properties":{"compute_capability":"9.0"}}],"notes":[]}' ;;
*) echo "{\\"protocol\\":1,\\"runtime\\":\\"$1\\",\\"devices\\":[],\\"notes\\":[]}" ;;
esac
"""

TORCH = {
    "cuda": """\
        __version__ = "2.9.0+fake"
        class version:
            cuda = "12.8"
        class cuda:
            is_available = staticmethod(lambda: True)
            device_count = staticmethod(lambda: 1)
        class backends:
            class mps:
                is_built = staticmethod(lambda: False)
                is_available = staticmethod(lambda: False)
        """,
    "cpu": """\
        __version__ = "2.9.0+cpu"
        class version:
            cuda = None
        class cuda:
            is_available = staticmethod(lambda: False)
            device_count = staticmethod(lambda: 0)
        class backends:
            class mps:
                is_built = staticmethod(lambda: False)
                is_available = staticmethod(lambda: False)
        """,
    "unavailable": """\
        import warnings
        __version__ = "2.9.0+fake"
        class version:
            cuda = "12.8"
        def _unavailable():
            warnings.warn("CUDA initialization: the fake driver is too old")
            return False
        class cuda:
            is_available = staticmethod(_unavailable)
            device_count = staticmethod(lambda: 0)
        class backends:
            class mps:
                is_built = staticmethod(lambda: False)
                is_available = staticmethod(lambda: False)
        """,
    # Shadows a real torch, if one is installed, exactly as its absence.
    "missing": """\
        raise ModuleNotFoundError("No module named 'torch'", name="torch")
        """,
    "hanging": """\
        import time
        time.sleep(60)
        """,
}

MLX_ON_CPU = """\
    __version__ = "0.29.0+fake"
    gpu, cpu = "gpu", "cpu"
    class _Device:
        type = "cpu"
        def __str__(self):
            return "Device(cpu, 0)"
    def default_device():
        return _Device()
    """


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    path = tmp_path_factory.mktemp("probe") / "fake-probe"
    path.write_text(FAKE_PROBE)
    path.chmod(0o755)
    return path


MLX_MISSING = """\
    raise ModuleNotFoundError("No module named 'mlx'", name="mlx")
    """


def standins(folder: Path, torch: str, mlx: str = MLX_ON_CPU) -> Path:
    """A PYTHONPATH folder holding the stand-in torch and mlx."""
    (folder / "torch").mkdir(parents=True)
    (folder / "torch" / "__init__.py").write_text(textwrap.dedent(TORCH[torch]))
    (folder / "mlx").mkdir()
    if mlx is MLX_MISSING:
        (folder / "mlx" / "__init__.py").write_text(textwrap.dedent(mlx))
    else:
        (folder / "mlx" / "__init__.py").write_text("")
        (folder / "mlx" / "core.py").write_text(textwrap.dedent(mlx))
    return folder


def environment(probe: Path, path: Path, **extra) -> dict:
    env = dict(os.environ, GPULAYER_PROBE=str(probe), PYTHONPATH=str(path),
               GPULAYER_PYTHON=sys.executable, GPULAYER_PROBE_TIMEOUT_MS="5000")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.update(extra)
    return env


def run(cli, args, env, timeout=60):
    return subprocess.run([cli, *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


def devices_json(cli, env):
    result = run(cli, ["devices", "--frameworks", "--json"], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def notes_of(report, runtime):
    return [(n["kind"], n["message"]) for n in report["notes"] if n["runtime"] == runtime]


def cuda0(report):
    return next(d for d in report["devices"] if d["accelerator"] == "cuda")


def test_available_torch_cuda_reaches_the_gpu(cli, probe, tmp_path):
    env = environment(probe, standins(tmp_path, "cuda"))
    report = devices_json(cli, env)
    gpu = cuda0(report)
    assert "torch.cuda" in gpu["capabilities"]
    assert gpu["properties"]["torch.cuda"] == "torch 2.9.0+fake, CUDA 12.8"
    cpu = report["devices"][0]
    assert "torch.cuda" not in cpu["capabilities"]
    assert notes_of(report, "mlx")[0][0] == "runtime_unavailable"
    assert "default device is Device(cpu, 0)" in notes_of(report, "mlx")[0][1]
    assert notes_of(report, "torch.mps")[0][0] == "not_macos"

    # The job lands on the GPU torch sees, with its variables set.
    result = run(cli, ["run", "--capability", "torch.cuda", "--", "sh", "-c",
                       "echo $GPULAYER_ACCELERATOR:$GPULAYER_DEVICE"], env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "cuda:0"


def test_torch_without_cuda_is_refused_with_the_note(cli, probe, tmp_path):
    env = environment(probe, standins(tmp_path, "cpu"))
    report = devices_json(cli, env)
    assert "torch.cuda" not in cuda0(report)["capabilities"]
    kind, message = notes_of(report, "torch.cuda")[0]
    assert kind == "framework_not_built"
    assert "torch 2.9.0+cpu was built without CUDA" in message
    assert "built without CUDA" in cuda0(report)["absent_capabilities"]["torch.cuda"]

    result = run(cli, ["run", "cuda", "--capability", "torch.cuda", "--", "true"], env)
    assert result.returncode == 125
    assert "cuda:0       lacks capability torch.cuda (has: cuda.sm_90): torch 2.9.0+cpu " \
           "was built without CUDA" in result.stderr
    result = run(cli, ["place", "capability=torch.cuda"], env)
    assert result.returncode == 1
    assert "torch.cuda framework_not_built" in result.stdout


def test_built_but_unavailable(cli, probe, tmp_path):
    env = environment(probe, standins(tmp_path, "unavailable"))
    kind, message = notes_of(devices_json(cli, env), "torch.cuda")[0]
    assert kind == "runtime_unavailable"
    assert "built for CUDA 12.8 but torch.cuda.is_available() is False" in message
    assert "the fake driver is too old" in message


def test_missing_torch_and_mlx(cli, probe, tmp_path):
    env = environment(probe, standins(tmp_path, "missing", mlx=MLX_MISSING))
    report = devices_json(cli, env)
    kind, message = notes_of(report, "torch")[0]
    assert kind == "library_not_found"
    assert f"torch is not installed for {sys.executable}" in message
    assert "torch.cuda and torch.mps are not reported" in message
    assert notes_of(report, "mlx")[0][0] == "library_not_found"
    assert "torch is not installed" in cuda0(report)["absent_capabilities"]["torch.cuda"]


def test_hanging_import_is_ended_by_the_time_limit(cli, probe, tmp_path):
    env = environment(probe, standins(tmp_path, "hanging"),
                      GPULAYER_FRAMEWORK_TIMEOUT_MS="1500")
    start = time.monotonic()
    report = devices_json(cli, env)
    assert time.monotonic() - start < 20
    kind, message = notes_of(report, "frameworks")[0]
    assert kind == "probe_timeout"
    assert "did not finish within 1500 ms" in message
    assert cuda0(report)["capabilities"] == ["cuda.sm_90"]
    assert "GPULAYER_FRAMEWORK_TIMEOUT_MS" in cuda0(report)["absent_capabilities"]["torch.cuda"]


def test_plain_discovery_never_starts_python(cli, probe, tmp_path):
    marker = tmp_path / "python-started"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\ntouch "{marker}"\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    env = environment(probe, standins(tmp_path / "path", "cuda"), GPULAYER_PYTHON=str(python))
    for args in (["devices"], ["devices", "--json"], ["place", "cuda"],
                 ["run", "cuda", "--", "true"], ["diagnose"]):
        assert run(cli, args, env).returncode == 0, args
    assert not marker.exists()
    assert run(cli, ["place", "--capability", "torch.cuda"], env).returncode == 0
    assert marker.exists()


def _python_api(env, code):
    env = dict(env, PYTHONPATH=os.pathsep.join([str(ROOT / "python"), env["PYTHONPATH"]]))
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_python_api(probe, tmp_path):
    if not os.environ.get("GPULAYER_LIBRARY"):
        pytest.skip("GPULAYER_LIBRARY does not name the built library")
    env = environment(probe, standins(tmp_path, "cpu"))
    out = _python_api(env, """
        import json, gpulayer
        plain = gpulayer.devices()
        full = gpulayer.devices(frameworks=True)
        refused = gpulayer.place("cuda", capabilities=["torch.cuda"])
        print(json.dumps({
            "plain": [d.absent_capabilities for d in plain],
            "absent": [d.absent_capabilities for d in full if d.accelerator == "cuda"],
            "placed": refused.placed,
            "reason": refused.reasons["cuda:0"],
        }))
        """)
    assert out["plain"] == [{}] * len(out["plain"])
    assert "built without CUDA" in out["absent"][0]["torch.cuda"]
    assert out["placed"] is False
    assert out["reason"].startswith("lacks capability torch.cuda")
    assert "torch 2.9.0+cpu was built without CUDA" in out["reason"]

    env = environment(probe, standins(tmp_path / "cuda", "cuda"))
    out = _python_api(env, """
        import json, gpulayer
        p = gpulayer.place(capabilities=["torch.cuda"])
        print(json.dumps({"placed": p.placed, "devices": p.devices}))
        """)
    assert out == {"placed": True, "devices": ["cuda:0"]}


def test_real_torch(cli):
    """The real torch, where this interpreter has it (CPU-only or a CUDA
    build, with or without a GPU): the probe imports it and reports it."""
    try:
        import torch
    except ImportError as exc:
        pytest.skip(f"torch is not installed for {sys.executable} ({exc}); "
                    "GPULAYER_TEST_TORCH=1 scripts/setup.sh installs it")
    env = dict(os.environ, GPULAYER_PYTHON=sys.executable)
    result = run(cli, ["devices", "--frameworks", "--json"], env, timeout=180)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert not notes_of(report, "torch"), "torch imported here but the probe says otherwise"
    assert not notes_of(report, "frameworks")
    with_cuda = [d for d in report["devices"] if "torch.cuda" in d["capabilities"]]
    if torch.version.cuda is None:
        assert notes_of(report, "torch.cuda")[0][0] == "framework_not_built"
        assert not with_cuda
    elif torch.cuda.is_available():
        assert len(with_cuda) == min(torch.cuda.device_count(),
                                     sum(d["accelerator"] == "cuda" for d in report["devices"]))
