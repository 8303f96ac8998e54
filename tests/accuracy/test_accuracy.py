"""Accuracy against XGBoost (hist) on real data, matched parameters.

GPUlayer's test-set metric must be within 0.5% (relative) of XGBoost's, or
better. Data come from ../shared/data (skipped when absent); GPUlayer runs
through the `gpulayer` command (env GPULAYER_CLI, default build/gpulayer).
"""
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

xgb = pytest.importorskip("xgboost")
from sklearn.metrics import log_loss, mean_squared_error, roc_auc_score  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "..", "shared", "data")
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))
TOLERANCE = 0.005

PARAMS = dict(eta=0.1, max_depth=6, num_round=100, max_bin=256, min_child_weight=1,
              reg_lambda=1.0)


def need(path):
    full = os.path.join(DATA, path)
    if not os.path.exists(full):
        pytest.skip(f"{full} not present (../shared/data is only on project machines)")
    return full


def split(df, frac=0.25, seed=0):
    idx = np.random.default_rng(seed).permutation(len(df))
    cut = int(len(df) * (1 - frac))
    return df.iloc[np.sort(idx[:cut])], df.iloc[np.sort(idx[cut:])]


def gpulayer_predict(tmp_path, train_csv, test_csv, label, objective, extra=()):
    model = str(tmp_path / "model.json")
    pred = str(tmp_path / "pred.csv")
    args = [CLI, "train", "--data", train_csv, "--label", label, "--objective", objective,
            "--model", model, "--quiet", "--eta", str(PARAMS["eta"]),
            "--max-depth", str(PARAMS["max_depth"]), "--num-round", str(PARAMS["num_round"]),
            "--param", f"max_bin={PARAMS['max_bin']}", *extra]
    subprocess.run(args, check=True)
    subprocess.run([CLI, "predict", "--model", model, "--data", test_csv, "--label", label,
                    "--output", pred], check=True)
    return np.loadtxt(pred, delimiter=",", ndmin=1)


def xgb_predict(Xtr, ytr, Xte, objective, extra=None):
    params = dict(objective=objective, eta=PARAMS["eta"], max_depth=PARAMS["max_depth"],
                  max_bin=PARAMS["max_bin"], tree_method="hist", nthread=2)
    params.update(extra or {})
    booster = xgb.train(params, xgb.DMatrix(Xtr, ytr), PARAMS["num_round"])
    return booster.predict(xgb.DMatrix(Xte))


def codes(df):
    """Categorical strings as sorted codes, the numbering GPUlayer uses."""
    out = df.copy()
    for col in out.columns:
        if not pd.api.types.is_numeric_dtype(out[col]):
            cats = sorted(out[col].dropna().unique())
            out[col] = pd.Categorical(out[col], categories=cats).codes.astype(np.float32)
            out.loc[out[col] < 0, col] = np.nan
    return out


def check(ours, theirs, higher_is_better, what):
    if higher_is_better:
        ok = ours >= theirs * (1 - TOLERANCE)
    else:
        ok = ours <= theirs * (1 + TOLERANCE) + 1e-6
    print(f"{what}: gpulayer {ours:.6f} xgboost {theirs:.6f}")
    assert ok, f"{what}: gpulayer {ours:.6f} vs xgboost {theirs:.6f}"


def csv_case(tmp_path, df, label, objective, extra_cli=(), extra_xgb=None):
    train, test = split(df)
    return frame_case(tmp_path, train, test, label, objective, extra_cli, extra_xgb)


def frame_case(tmp_path, train, test, label, objective, extra_cli=(), extra_xgb=None):
    train_csv, test_csv = str(tmp_path / "train.csv"), str(tmp_path / "test.csv")
    train.to_csv(train_csv, index=False)
    test.to_csv(test_csv, index=False)
    ours = gpulayer_predict(tmp_path, train_csv, test_csv, label, objective, extra_cli)
    ctrain, ctest = codes(train), codes(test)
    theirs = xgb_predict(ctrain.drop(columns=[label]), ctrain[label],
                         ctest.drop(columns=[label]), objective, extra_xgb)
    return test[label].to_numpy(), ours, theirs


def test_lgbm_binary(tmp_path):
    tr, te = need("lgbm_binary/binary.train"), need("lgbm_binary/binary.test")
    ours_args = ["--no-header", "--format", "tsv"]
    model, pred = str(tmp_path / "m.json"), str(tmp_path / "p.csv")
    subprocess.run([CLI, "train", "--data", tr, "--label", "0", *ours_args, "--quiet",
                    "--objective", "binary:logistic", "--model", model, "--eta", "0.1",
                    "--max-depth", "6", "--num-round", "100"], check=True)
    subprocess.run([CLI, "predict", "--model", model, "--data", te, "--label", "0",
                    *ours_args, "--output", pred], check=True)
    ours = np.loadtxt(pred)
    a, b = pd.read_csv(tr, sep="\t", header=None), pd.read_csv(te, sep="\t", header=None)
    theirs = xgb_predict(a.iloc[:, 1:], a[0], b.iloc[:, 1:], "binary:logistic")
    check(roc_auc_score(b[0], ours), roc_auc_score(b[0], theirs), True, "lgbm_binary auc")
    check(log_loss(b[0], ours), log_loss(b[0], theirs), False, "lgbm_binary logloss")


def test_agaricus_libsvm(tmp_path):
    tr, te = need("xgb_agaricus/agaricus.txt.train"), need("xgb_agaricus/agaricus.txt.test")
    model, pred = str(tmp_path / "m.json"), str(tmp_path / "p.csv")
    subprocess.run([CLI, "train", "--data", tr, "--format", "libsvm", "--quiet",
                    "--objective", "binary:logistic", "--model", model, "--num-round", "20"],
                   check=True)
    subprocess.run([CLI, "predict", "--model", model, "--data", te, "--format", "libsvm",
                    "--output", pred], check=True)
    ours = np.loadtxt(pred)
    dtr, dte = xgb.DMatrix(tr + "?format=libsvm"), xgb.DMatrix(te + "?format=libsvm")
    theirs = xgb.train(dict(objective="binary:logistic", tree_method="hist"), dtr, 20).predict(dte)
    y = dte.get_label()
    check(roc_auc_score(y, ours), roc_auc_score(y, theirs), True, "agaricus auc")
    err_ours, err_theirs = np.mean((ours > 0.5) != y), np.mean((theirs > 0.5) != y)
    assert err_ours <= err_theirs + 0.002, (err_ours, err_theirs)


def test_breast_cancer(tmp_path):
    df = pd.read_csv(need("sklearn_small/breast_cancer.csv"))
    y, ours, theirs = csv_case(tmp_path, df, "target", "binary:logistic")
    check(roc_auc_score(y, ours), roc_auc_score(y, theirs), True, "breast_cancer auc")


def test_diamonds_regression_with_categories(tmp_path):
    df = pd.read_csv(need("ggplot2_diamonds/diamonds.csv"))
    y, ours, theirs = csv_case(tmp_path, df, "price", "reg:squarederror")
    check(np.sqrt(mean_squared_error(y, ours)), np.sqrt(mean_squared_error(y, theirs)), False,
          "diamonds rmse")


def test_letter_multiclass(tmp_path):
    df = pd.read_csv(need("mlbench_letter/letter.csv"))
    # The command reads numeric labels; letters become their sorted codes.
    df["lettr"] = pd.Categorical(df["lettr"]).codes
    # Three splits: on one, either library's mlogloss moves by about 1% with
    # the rows drawn, more than the tolerance; their mean holds it.
    losses = []
    for seed in range(3):
        train, test = split(df, seed=seed)
        case = tmp_path / str(seed)
        case.mkdir()
        y, ours, theirs = frame_case(case, train, test, "lettr", "multi:softprob",
                                     ["--param", "num_class=26"], {"num_class": 26})
        ours = ours.reshape(len(y), 26)
        losses.append((log_loss(y, ours, labels=range(26)),
                       log_loss(y, theirs, labels=range(26))))
        # An error rate over 5,000 rows moves in steps of 0.0002: compare it
        # within half a percentage point rather than 0.5% of itself.
        err_ours, err_theirs = np.mean(ours.argmax(1) != y), np.mean(theirs.argmax(1) != y)
        print(f"letter split {seed}: mlogloss {losses[-1][0]:.6f} / {losses[-1][1]:.6f}, "
              f"merror gpulayer {err_ours:.4f} xgboost {err_theirs:.4f}")
        assert err_ours <= err_theirs + 0.005
    ours_mean, theirs_mean = np.mean(losses, axis=0)
    check(ours_mean, theirs_mean, False, "letter mlogloss (mean of 3 splits)")


def test_fertility_categorical(tmp_path):
    df = pd.read_csv(need("aer_fertility/fertility.csv.gz"))
    y, ours, theirs = csv_case(tmp_path, df, "morekids", "binary:logistic")
    check(roc_auc_score(y, ours), roc_auc_score(y, theirs), True, "fertility auc")
    check(log_loss(y, ours), log_loss(y, theirs), False, "fertility logloss")


# ------------------------------------------------ categorical features by sets


def xgb_categorical_predict(train, test, label, objective, extra=None):
    """XGBoost with its own categorical splits (enable_categorical) on pandas
    category columns, the parameters of PARAMS."""
    def frame(df):
        X = df.drop(columns=[label]).copy()
        for col in X.columns:
            if not pd.api.types.is_numeric_dtype(X[col]):
                cats = sorted(pd.concat([train[col], test[col]]).dropna().unique())
                X[col] = pd.Categorical(X[col], categories=cats)
        return X
    params = dict(objective=objective, eta=PARAMS["eta"], max_depth=PARAMS["max_depth"],
                  max_bin=PARAMS["max_bin"], tree_method="hist", nthread=2)
    params.update(extra or {})
    dtrain = xgb.DMatrix(frame(train), train[label], enable_categorical=True)
    booster = xgb.train(params, dtrain, PARAMS["num_round"])
    return booster.predict(xgb.DMatrix(frame(test), enable_categorical=True))


def categorical_case(tmp_path, train, test, label, objective, metric):
    """Test metric of GPUlayer's splits by sets, of its splits of ordered
    codes, and of XGBoost's categorical splits, on one split."""
    train_csv, test_csv = str(tmp_path / "train.csv"), str(tmp_path / "test.csv")
    train.to_csv(train_csv, index=False)
    test.to_csv(test_csv, index=False)
    y = test[label].to_numpy()
    sets = gpulayer_predict(tmp_path, train_csv, test_csv, label, objective)
    ordered = gpulayer_predict(tmp_path, train_csv, test_csv, label, objective,
                               ["--param", "categorical=ordered"])
    theirs = xgb_categorical_predict(train, test, label, objective)
    return metric(y, sets), metric(y, ordered), metric(y, theirs)


def rmse(y, p):
    return float(np.sqrt(mean_squared_error(y, p)))


def check_categorical(results, higher_is_better, what, tolerance=TOLERANCE,
                      beat_ordered=True):
    """Mean over splits: at least XGBoost's (within tolerance) and, with
    beat_ordered, better than GPUlayer's ordered codes."""
    sets, ordered, theirs = np.mean(results, axis=0)
    print(f"{what}: sets {sets:.6f} ordered codes {ordered:.6f} xgboost categorical "
          f"{theirs:.6f}")
    if higher_is_better:
        ok = sets >= theirs * (1 - tolerance)
    else:
        ok = sets <= theirs * (1 + tolerance)
    assert ok, f"{what}: gpulayer sets {sets:.6f} vs xgboost categorical {theirs:.6f}"
    assert not beat_ordered or ((sets > ordered) if higher_is_better else (sets < ordered)), (
        f"{what}: sets {sets:.6f} not better than ordered codes {ordered:.6f}")


def split_results(tmp_path, df, label, objective, metric, splits=5):
    """categorical_case on each of `splits` 75/25 splits of df."""
    results = []
    for seed in range(splits):
        train, test = split(df, seed=seed)
        case = tmp_path / str(seed)
        case.mkdir()
        results.append(categorical_case(case, train, test, label, objective, metric))
    return results


def test_credit_category_sets(tmp_path):
    # 1,100 test rows: one split's AUC moves by about 0.005 with the rows
    # drawn, so the mean of five is compared.
    df = pd.read_csv(need("modeldata_credit/credit_data.csv"))
    results = split_results(tmp_path, df, "Status", "binary:logistic", roc_auc_score)
    # Four columns of 4 to 6 levels: sets and ordered codes are within the
    # splits' noise of each other (at 2901d7f sets 0.8327, ordered codes
    # 0.8342, XGBoost 0.8329); only XGBoost's bar is held here.
    check_categorical(results, True, "credit auc (mean of 5 splits)", beat_ordered=False)


def test_diamonds_category_sets(tmp_path):
    df = pd.read_csv(need("ggplot2_diamonds/diamonds.csv"))
    results = split_results(tmp_path, df, "price", "reg:squarederror", rmse)
    check_categorical(results, False, "diamonds rmse (mean of 5 splits)")


def test_flights_category_sets(tmp_path):
    """flights_3m, delay > 15, origin and destination as categories; the
    shuffled 80/20 split of bench/bench_cpu.py."""
    df = pd.read_csv(need("flights_3m/flights_3m.csv.xz")).drop(columns=["date"])
    df["delay"] = (df["delay"] > 15).astype(np.int8)
    idx = np.random.default_rng(0).permutation(len(df))
    cut = int(len(df) * 0.8)
    train, test = df.iloc[idx[:cut]], df.iloc[idx[cut:]]
    results = [categorical_case(tmp_path, train, test, "delay", "binary:logistic",
                                roc_auc_score)]
    check_categorical(results, True, "flights_3m auc")
