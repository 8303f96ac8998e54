"""Progress during training: verbose_eval's lines as XGBoost prints them."""

import re

import numpy as np
import pytest

import gpulayer

PARAMS = {"objective": "binary:logistic", "eval_metric": ["logloss", "auc"],
          "max_depth": 3, "nthread": 2, "device": "cpu"}


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
