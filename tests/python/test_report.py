"""gpulayer.report(booster, path, evals, evals_result, dtrain): the page of
`gpulayer train --report`, written by the library for a booster trained in
Python. The page is parsed and checked against the training's own figures;
the command's page of the same run has the same sections."""
import os
import re
import subprocess

import numpy as np
import pytest

import gpulayer

CLI = os.environ.get("GPULAYER_CLI", "")
NAMES = [f"x{i}" for i in range(6)]


def make(rows, seed):
    rng = np.random.default_rng(seed)
    X = rng.random((rows, len(NAMES)))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.standard_normal(rows) > 0.8).astype(np.float32)
    return X, y


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    X, y = make(1500, 1)
    Xv, yv = make(400, 2)
    dtrain = gpulayer.Dataset(X, y, feature_names=NAMES)
    dvalid = gpulayer.Dataset(Xv, yv, feature_names=NAMES)
    result = {}
    evals = [(dtrain, "train"), (dvalid, "valid")]
    booster = gpulayer.train({"objective": "binary:logistic", "eval_metric": ["auc", "logloss"],
                              "max_depth": 3, "nthread": 1, "device": "cpu"}, dtrain, 15,
                             evals=evals, evals_result=result, verbose_eval=False)
    path = tmp / "report.html"
    gpulayer.report(booster, path, evals=evals, evals_result=result, dtrain=dtrain,
                    train_seconds=0.25, command="train.py --rounds 15")
    return {"tmp": tmp, "booster": booster, "result": result, "html": path.read_text(),
            "X": X, "y": y, "Xv": Xv, "yv": yv, "evals": evals, "dtrain": dtrain}


def cell(html, key):
    return re.search(r"<th>" + re.escape(key) + r"</th><td>(.*?)</td>", html, re.S)[1]


def test_sections_curves_and_validation_figures(run):
    html = run["html"]
    assert re.findall(r"<h2>(.*?)</h2>", html) == [
        "Learning curves", "Validation set: valid", "Data", "Feature importance",
        "Parameters", "Device", "Time and memory"]
    assert cell(html, "command") == "train.py --rounds 15"
    assert cell(html, "rows") == "1500" and cell(html, "features") == "6"
    # One curve a (set, metric), one point a round, in evals_result's order.
    series = re.findall(r'<polyline[^>]*data-set="([^"]+)" data-metric="([^"]+)"', html)
    assert series[:4] == [("train", "auc"), ("valid", "auc"), ("train", "logloss"),
                          ("valid", "logloss")]
    auc = float(cell(html, "area under the ROC curve"))
    assert auc == pytest.approx(run["result"]["valid"]["auc"][-1], abs=2e-6)
    assert cell(html, "rounds trained") == "15"
    assert cell(html, "mean time a round") == f"{1000 * 0.25 / 15:.3f} ms"
    assert "http" not in html.lower() and "<script" not in html


def test_the_command_writes_the_same_sections(run, tmp_path):
    if not CLI or not os.path.exists(CLI):
        pytest.skip("the gpulayer command is not built (GPULAYER_CLI)")
    paths = []
    for name, X, y in (("t.csv", run["X"], run["y"]), ("v.csv", run["Xv"], run["yv"])):
        path = tmp_path / name
        np.savetxt(path, np.column_stack([y, X]), delimiter=",", fmt="%.6f",
                   header="y," + ",".join(NAMES), comments="")
        paths.append(str(path))
    page = tmp_path / "cli.html"
    r = subprocess.run([CLI, "train", "--data", paths[0], "--valid", paths[1], "--label", "y",
                        "--objective", "binary:logistic", "--num-round", "15", "--max-depth",
                        "3", "--device", "cpu", "--nthread", "1", "--model",
                        str(tmp_path / "m.json"), "--report", str(page), "--quiet"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    cli = page.read_text()
    heads = [h.split(":")[0] for h in re.findall(r"<h2>(.*?)</h2>", cli)]
    assert heads == [h.split(":")[0] for h in re.findall(r"<h2>(.*?)</h2>", run["html"])]
    for css in ("summary", "best", "binary", "confusion", "data", "params", "timing"):
        assert f'<table class="{css}">' in cli and f'<table class="{css}">' in run["html"]


def test_bad_arguments_and_an_unwritable_path(run, tmp_path):
    with pytest.raises(TypeError, match="Booster"):
        gpulayer.report("model.json", tmp_path / "r.html")
    with pytest.raises(TypeError, match="pairs"):
        gpulayer.report(run["booster"], tmp_path / "r.html", evals=[run["dtrain"]])
    with pytest.raises(ValueError, match="one a round"):
        gpulayer.report(run["booster"], tmp_path / "r.html",
                        evals_result={"a": {"auc": [0.5, 0.6]}, "b": {"auc": [0.5]}})
    missing = tmp_path / "no-such-folder" / "r.html"
    with pytest.raises(gpulayer.GPULayerError, match="no-such-folder"):
        gpulayer.report(run["booster"], missing)
    assert not missing.parent.exists()
    # Nothing but the model: the sections of what was not given are left out.
    bare = tmp_path / "bare.html"
    gpulayer.report(run["booster"], bare)
    heads = re.findall(r"<h2>(.*?)</h2>", bare.read_text())
    assert heads[0] == "Learning curves" and "Data" not in heads
