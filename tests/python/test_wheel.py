"""The binary wheel built by scripts/build_wheel.sh installs with pip into
a fresh virtual environment (numpy from the registry, no build step) and
works there with no compiler on the PATH: import, device discovery,
training and prediction on the bundled data from Python and from the
command in the environment's bin/; its metadata names the license
(Apache-2.0) and it holds LICENSE and THIRD_PARTY_NOTICES. Runs only when
GPULAYER_TEST_WHEEL names the folder holding the wheel (CI sets it)."""

import email.parser
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEEL_DIR = os.environ.get("GPULAYER_TEST_WHEEL")

pytestmark = pytest.mark.skipif(
    not WHEEL_DIR, reason="set GPULAYER_TEST_WHEEL to the folder of a built wheel")

COMPILERS = ("cc", "gcc", "clang", "c++", "nvcc", "cmake")


LICENSE_FILES = ("LICENSE", "THIRD_PARTY_NOTICES")


@pytest.fixture(scope="module")
def wheel():
    wheels = sorted(Path(WHEEL_DIR).glob("gpulayer-*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {WHEEL_DIR}, found {wheels}"
    return wheels[0]


@pytest.fixture(scope="module")
def venv(tmp_path_factory, wheel):
    platform = "macosx" if sys.platform == "darwin" else "manylinux"
    assert platform in wheel.name, wheel.name
    root = tmp_path_factory.mktemp("wheel")
    env_dir = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    # --only-binary: a source build of anything would mean the wheel is not
    # enough; the package itself must not be built.
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--only-binary", ":all:",
                    str(wheel)], check=True, timeout=600)
    return env_dir


def test_metadata_names_the_license(wheel):
    """METADATA carries the SPDX expression and lists the license files,
    and the .dist-info holds them with the repository's text."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        dist_info = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
        assert len(dist_info) == 1, dist_info
        dist_info = dist_info.pop()
        meta = email.parser.Parser().parsestr(zf.read(f"{dist_info}/METADATA").decode())
        assert meta["License-Expression"] == "Apache-2.0", meta.items()
        assert sorted(meta.get_all("License-File") or []) == sorted(LICENSE_FILES)
        for name in LICENSE_FILES:
            held = zf.read(f"{dist_info}/licenses/{name}")
            assert held == (ROOT / name).read_bytes(), name
    license_text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text


def test_notices_name_every_bundled_library(wheel):
    """Each shared library that auditwheel or delocate copied into the
    wheel is named in THIRD_PARTY_NOTICES."""
    notices = (ROOT / "THIRD_PARTY_NOTICES").read_text()
    with zipfile.ZipFile(wheel) as zf:
        bundled = [n for n in zf.namelist() if not n.endswith("/")
                   and (n.startswith("gpulayer.libs/") or "/.dylibs/" in n)]
    assert bundled or sys.platform == "darwin", "auditwheel bundled no library"
    for path in bundled:
        # libgomp-a34b3233.so.1.0.0 -> libgomp; libcjson.1.dylib -> libcjson;
        # libevent_core-2-62ef2b91.1.so.7.0.1 -> libevent_core
        name = re.match(r"(lib[a-z0-9_+-]+?)(?:-[0-9a-f]{8})?[.]", Path(path).name)
        assert name, f"{path}: not a library name"
        stem = re.sub(r"-[0-9]+$", "", name.group(1))
        assert stem in notices, f"{path} is not named in THIRD_PARTY_NOTICES"


def test_installed_metadata(venv):
    code = ("import importlib.metadata as m; md = m.metadata('gpulayer'); "
            "print(md['License-Expression']); "
            "print(sorted(str(f) for f in m.files('gpulayer') if '/licenses/' in str(f)))")
    result = subprocess.run([str(venv / "bin" / "python"), "-c", code], env=bare_env(venv),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Apache-2.0"
    for name in LICENSE_FILES:
        assert f"/licenses/{name}'" in lines[1], lines[1]


def bare_env(env_dir):
    """The environment of a machine without build tools: only the venv's
    bin/ on the PATH, nothing pointing at the source tree."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GPULAYER_") and k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PATH"] = str(env_dir / "bin")
    return env


def test_no_compiler_on_the_path(venv):
    path = bare_env(venv)["PATH"]
    for tool in COMPILERS:
        assert shutil.which(tool, path=path) is None, tool


def test_python_trains_on_the_bundled_data(venv, tmp_path):
    code = textwrap.dedent(f"""
        import shutil, gpulayer
        assert not any(shutil.which(t) for t in {COMPILERS!r})
        assert "site-packages" in gpulayer.__file__, gpulayer.__file__
        assert gpulayer.library_path().startswith(str(gpulayer._lib.package_dir()))
        devices = gpulayer.devices()
        assert devices[0].accelerator == "cpu", devices
        print("devices:", [d.accelerator for d in devices])
        data = "{ROOT}/data/demo/"
        train = gpulayer.Dataset.from_file(data + "fertility_train.csv.gz", label="morekids")
        test = gpulayer.Dataset.from_file(data + "fertility_test.csv.gz", label="morekids")
        history = {{}}
        booster = gpulayer.train({{"objective": "binary:logistic", "max_depth": 6,
                                  "eval_metric": "auc"}}, train, num_boost_round=20,
                                 evals=[(test, "test")], evals_result=history)
        p = booster.predict(test)
        assert p.shape == (50931,) and 0 < p.min() and p.max() < 1
        auc = history["test"]["auc"][-1]
        assert auc > 0.6, auc
        print("auc", auc)
    """)
    result = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path,
                            env=bare_env(venv), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "auc" in result.stdout


def test_command_from_the_venv(venv, tmp_path):
    env = bare_env(venv)
    command = str(venv / "bin" / "gpulayer")
    devices = subprocess.run([command, "devices"], env=env, capture_output=True, text=True,
                             timeout=120)
    assert devices.returncode == 0, devices.stderr
    assert "cpu" in devices.stdout
    model = tmp_path / "model.json"
    train = subprocess.run(
        [command, "train", "--data", str(ROOT / "data/demo/fertility_train.csv.gz"),
         "--label", "morekids", "--valid", str(ROOT / "data/demo/fertility_test.csv.gz"),
         "--objective", "binary:logistic", "--param", "eval_metric=auc",
         "--num-round", "20", "--max-depth", "6", "--model", str(model)],
        env=env, capture_output=True, text=True, timeout=600)
    assert train.returncode == 0, train.stderr
    assert model.is_file()
    auc = [float(m) for m in re.findall(r"auc:([0-9.]+)", train.stdout + train.stderr)]
    assert auc and auc[-1] > 0.6, train.stdout + train.stderr
    out = tmp_path / "pred.csv"
    predict = subprocess.run([command, "predict", "--model", str(model), "--data",
                              str(ROOT / "data/demo/fertility_test.csv.gz"), "--output",
                              str(out)], env=env, capture_output=True, text=True, timeout=300)
    assert predict.returncode == 0, predict.stderr
    assert len(out.read_text().splitlines()) >= 50931
