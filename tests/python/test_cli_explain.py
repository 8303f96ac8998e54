"""`gpulayer explain`: SHAP values of a data file as CSV, a header naming
the features and bias, values summing to `gpulayer predict --margin`,
interaction rows summing to the contributions across several blocks, the
a device the machine lacks refused, and no output file left by a failed
run."""
import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))

if not os.path.exists(CLI):
    pytest.skip(f"the gpulayer command is not built ({CLI})", allow_module_level=True)


def run(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


def write_data(path, rows, features, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int)
    cells = [[str(v) for v in row] for row in X]
    for r in range(0, rows, 7):
        cells[r][r % features] = ""  # missing values
    names = [f"x{i}" for i in range(features)]
    with open(path, "w") as f:
        f.write(",".join(["y"] + names) + "\n")
        for label, row in zip(y, cells):
            f.write(",".join([str(label)] + row) + "\n")
    return names


def train(tmp_path, rows, features):
    data = tmp_path / "d.csv"
    names = write_data(data, rows, features)
    model = tmp_path / "m.json"
    r = run("train", "--data", data, "--label", "y", "--objective", "binary:logistic",
            "--num-round", "5", "--param", "max_depth=4", "--device", "cpu",
            "--model", model)
    assert r.returncode == 0, r.stderr
    return data, model, names


def read_csv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split(",")
    return header, np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)


def test_contributions_sum_to_the_margin(tmp_path):
    data, model, names = train(tmp_path, 200, 4)
    margin = tmp_path / "margin.csv"
    r = run("predict", "--model", model, "--data", data, "--label", "y", "--margin",
            "--output", margin)
    assert r.returncode == 0, r.stderr
    for extra in ([], ["--approx"]):
        out = tmp_path / "shap.csv"
        r = run("explain", "--model", model, "--data", data, "--label", "y",
                "--output", out, *extra)
        assert r.returncode == 0, r.stderr
        header, values = read_csv(out)
        assert header == names + ["bias"]
        assert values.shape == (200, 5)
        np.testing.assert_allclose(values.sum(axis=1), np.loadtxt(margin), atol=1e-5)


def test_interactions_in_blocks_sum_to_the_contributions(tmp_path):
    # 41 x 41 values a row: a block holds a few hundred rows, so 1500 rows
    # are written in several.
    data, model, names = train(tmp_path, 1500, 40)
    contribs, inter = tmp_path / "c.csv", tmp_path / "i.csv"
    assert run("explain", "--model", model, "--data", data, "--label", "y",
               "--output", contribs).returncode == 0
    r = run("explain", "--model", model, "--data", data, "--label", "y",
            "--interactions", "--output", inter)
    assert r.returncode == 0, r.stderr
    header, values = read_csv(inter)
    assert header[0] == "x0:x0" and header[1] == "x0:x1" and header[-1] == "bias:bias"
    assert values.shape == (1500, 41 * 41)
    _, c = read_csv(contribs)
    np.testing.assert_allclose(values.reshape(1500, 41, 41).sum(axis=2), c, atol=1e-5)


def test_unknown_device_is_refused(tmp_path):
    data, model, _ = train(tmp_path, 50, 3)
    out = tmp_path / "shap.csv"
    r = run("explain", "--model", model, "--data", data, "--label", "y", "--device",
            "no-such-device", "--output", out)
    assert r.returncode != 0 and "no-such-device" in r.stderr
    assert not out.exists()


def test_failed_run_leaves_no_output(tmp_path):
    data, model, _ = train(tmp_path, 50, 3)
    bad = tmp_path / "bad.csv"
    bad.write_text("y,x0,x1,x2\n1,2,3\n")
    out = tmp_path / "shap.csv"
    r = run("explain", "--model", model, "--data", bad, "--label", "y", "--output", out)
    assert r.returncode != 0 and "bad.csv" in r.stderr
    narrow = tmp_path / "narrow.csv"
    narrow.write_text("y,x0\n1,2\n")
    r = run("explain", "--model", model, "--data", narrow, "--label", "y", "--output", out)
    assert r.returncode != 0
    assert not out.exists() and os.listdir(tmp_path).count("shap.csv") == 0
    assert not [p for p in os.listdir(tmp_path) if p.startswith("shap.csv")]


def test_help():
    r = run("explain", "--help")
    assert r.returncode == 0 and "usage: gpulayer explain" in r.stdout
    assert "explain" in run("--help").stdout


def test_vulkan_writes_the_cpus_file(tmp_path):
    data, model, _ = train(tmp_path, 200, 4)
    files = {}
    for device in ("cpu", "vulkan"):
        out = tmp_path / f"{device}.csv"
        r = run("explain", "--model", model, "--data", data, "--label", "y", "--interactions",
                "--device", device, "--output", out)
        if device == "vulkan" and r.returncode != 0:
            assert "vulkan" in r.stderr
            pytest.skip(f"vulkan is not usable here: {r.stderr.strip()}")
        assert r.returncode == 0, r.stderr
        files[device] = out.read_bytes()
    assert files["vulkan"] == files["cpu"]
