"""Progress during training: verbose_eval's lines as XGBoost prints them,
and the progress bar with the time left on an interactive stderr."""

import re
import sys

import numpy as np
import pytest

import gpulayer
from gpulayer.progress import ProgressBar

PARAMS = {"objective": "binary:logistic", "eval_metric": ["logloss", "auc"],
          "max_depth": 3, "nthread": 2, "device": "cpu"}
# One line of the bar: rounds done and a time-left field.
BAR = re.compile(r"\[[#-]+\] (\d+)/(\d+) rounds  elapsed \d\d:\d\d  left (\d\d:\d\d|--:--)")


@pytest.fixture(autouse=True)
def builtin_bar(monkeypatch):
    """These tests read the built-in bar's line: hide tqdm, which would
    draw its own (test_data_dropin.py tests that path)."""
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 4)).astype(np.float32)
    y = (X[:, 0] + 0.5 * rng.normal(size=600) > 0).astype(np.float32)
    return gpulayer.Dataset(X[:400], label=y[:400]), gpulayer.Dataset(X[400:], label=y[400:])


def lines(text):
    return [line for line in text.splitlines() if line]


def test_verbose_eval_prints_as_xgboost(data, capsys):
    dtrain, dvalid = data
    history = {}
    gpulayer.train(PARAMS, dtrain, 3, evals=[(dtrain, "train"), (dvalid, "valid")],
                   evals_result=history, verbose_eval=True)
    out = lines(capsys.readouterr().out)
    assert len(out) == 3
    for i, line in enumerate(out):
        fields = line.split("\t")
        assert fields[0] == f"[{i}]"
        assert [f.split(":")[0] for f in fields[1:]] == [
            "train-logloss", "train-auc", "valid-logloss", "valid-auc"]
        assert fields[3] == f"valid-logloss:{history['valid']['logloss'][i]:.5f}"
    assert re.fullmatch(r"valid-logloss:0\.\d{5}", out[0].split("\t")[3])


def test_verbose_every_n_rounds_also_prints_the_last(data, capsys):
    dtrain, dvalid = data
    gpulayer.train(PARAMS, dtrain, 7, evals=[(dvalid, "valid")], verbose_eval=3)
    rounds = [line.split("\t")[0] for line in lines(capsys.readouterr().out)]
    assert rounds == ["[0]", "[3]", "[6]"]
    gpulayer.train(PARAMS, dtrain, 8, evals=[(dvalid, "valid")], verbose_eval=3)
    rounds = [line.split("\t")[0] for line in lines(capsys.readouterr().out)]
    assert rounds == ["[0]", "[3]", "[6]", "[7]"]


def test_verbose_prints_the_round_early_stopping_ended_on(data, capsys):
    dtrain, dvalid = data
    history = {}
    bst = gpulayer.train(dict(PARAMS, eta=1.0, max_depth=6), dtrain, 200,
                         evals=[(dvalid, "valid")], early_stopping_rounds=2,
                         evals_result=history, verbose_eval=50)
    rounds = [line.split("\t")[0] for line in lines(capsys.readouterr().out)]
    last = len(history["valid"]["auc"]) - 1
    assert bst.best_iteration is not None and last < 199
    assert rounds[0] == "[0]" and rounds[-1] == f"[{last}]"


def test_bar_on_an_interactive_stderr(data, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    dtrain, _ = data
    gpulayer.train(PARAMS, dtrain, 120)
    captured = capsys.readouterr()
    assert captured.out == ""
    shown = BAR.findall(captured.err)
    assert shown, captured.err
    assert all(total == "120" for _, total, _ in shown)
    assert shown[-1][:2] == ("120", "120") and shown[-1][2] == "00:00"
    assert captured.err.startswith("\r") and captured.err.endswith("\n")
    assert captured.err.count("\n") == 1  # one line, rewritten


@pytest.mark.parametrize("rounds, verbose, tty", [
    (120, False, False),  # not interactive
    (20, False, True),    # short
    (120, 50, True),      # the evaluation lines show progress already
])
def test_no_bar_by_default(data, capsys, monkeypatch, rounds, verbose, tty):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty)
    dtrain, dvalid = data
    gpulayer.train(PARAMS, dtrain, rounds, evals=[(dvalid, "valid")], verbose_eval=verbose)
    assert "rounds" not in capsys.readouterr().err


def test_bar_forced_on_and_off(data, capsys, monkeypatch):
    dtrain, _ = data
    gpulayer.train(PARAMS, dtrain, 5, progress_bar=True)
    assert BAR.findall(capsys.readouterr().err)[-1][:2] == ("5", "5")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    gpulayer.train(PARAMS, dtrain, 150, progress_bar=False)
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress_bar"):
        gpulayer.train(PARAMS, dtrain, 5, progress_bar="yes")


def test_bar_and_verbose_lines_do_not_overlap(data, capsys):
    dtrain, dvalid = data
    gpulayer.train(PARAMS, dtrain, 4, evals=[(dvalid, "valid")], verbose_eval=True,
                   progress_bar=True)
    captured = capsys.readouterr()
    assert [line.split("\t")[0] for line in lines(captured.out)] == [
        "[0]", "[1]", "[2]", "[3]"]
    # Blanked before each evaluation line after the first (printed before
    # the bar is drawn), drawn again after it.
    assert captured.err.count("\r" + " " * 10) == 3


def test_bar_time_left_from_the_mean_round():
    now = [100.0]
    stream = type("Stream", (), {"text": "", "write": lambda self, t: setattr(
        self, "text", self.text + t), "flush": lambda self: None})()
    bar = ProgressBar(10, stream=stream, clock=lambda: now[0])
    now[0] += 30.0
    bar.update(3)
    assert bar.line().endswith("3/10 rounds  elapsed 00:30  left 01:10")
    now[0] += 3570.0
    bar.update(4)
    assert bar.line().endswith("elapsed 1:00:00  left 1:30:00")
    bar.close()
    assert stream.text.endswith("left 1:30:00\n")


def test_bar_stops_where_early_stopping_does(data, capsys):
    dtrain, dvalid = data
    history = {}
    gpulayer.train(dict(PARAMS, eta=1.0, max_depth=6), dtrain, 200,
                   evals=[(dvalid, "valid")], early_stopping_rounds=2,
                   evals_result=history, progress_bar=True)
    done, total, _ = BAR.findall(capsys.readouterr().err)[-1]
    assert (int(done), total) == (len(history["valid"]["auc"]), "200")
