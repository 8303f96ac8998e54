"""Random forests (num_parallel_tree, GPULayerRF* as XGBoost's XGBRF*)
against XGBoost's on real data: the same estimator arguments (XGBoost's
random-forest defaults: 100 trees in one round, learning_rate 1,
subsample 0.8, colsample_bynode 0.8, reg_lambda 1e-5; depth 6), the same
rows, 5 seeded 75/25 splits, split k training with random_state k.
GPUlayer's mean test metric must be within 0.5% (relative) of XGBoost's,
or better. The two libraries draw different rows and features for their
trees, so one split or one seed differs more than the means (diamonds,
one seed over 5 splits: ratios 0.997 to 1.007).

    python3 tests/accuracy/test_forest_accuracy.py   # the table of docs/random-forests.md
"""
import numpy as np
import pytest

import suite
from test_accuracy import TOLERANCE

import gpulayer

xgb = pytest.importorskip("xgboost")

SPLITS = 5
ARGS = dict(n_estimators=100, max_depth=6, max_bin=256, n_jobs=suite.THREADS)
# dataset, metric (suite.METRICS): a regression, a binary and a
# multiclass case, numeric and categorical columns.
CASES = [
    ("ggplot2_diamonds", "rmse"),
    ("modeldata_credit", "logloss"),
    ("kernlab_spam", "logloss"),
    ("mlbench_vehicle", "mlogloss"),
]


def fit_predict(library, case, train, test, seed):
    x, y = suite.features(case, train), train[case.label].to_numpy()
    xt = suite.features(case, test)
    regression = case.objective.startswith("reg:")
    if library == "gpulayer":
        cls = gpulayer.GPULayerRFRegressor if regression else gpulayer.GPULayerRFClassifier
        model = cls(**ARGS, random_state=seed)
    else:
        cls = xgb.XGBRFRegressor if regression else xgb.XGBRFClassifier
        model = cls(**ARGS, random_state=seed, tree_method="hist", enable_categorical=True)
    model.fit(x, y)
    return model.predict(xt) if regression else model.predict_proba(xt)


def measure(name, metric):
    """Mean test metric over the splits, for each library."""
    case = suite.BY_NAME[name]
    df, _ = suite.load(case)
    scores = {"xgboost": [], "gpulayer": []}
    for seed, (train, test) in enumerate(suite.splits(case, df, SPLITS)):
        tr, te = df.iloc[train], df.iloc[test]
        y = te[case.label].to_numpy()
        for library in scores:
            p = fit_predict(library, case, tr, te, seed)
            if metric == "logloss":
                p = p[:, 1]
            scores[library].append(suite.METRICS[metric][0](y, p))
    return {library: float(np.mean(v)) for library, v in scores.items()}


@pytest.mark.parametrize("name, metric", CASES, ids=[c[0] for c in CASES])
def test_random_forest_within_tolerance_of_xgboost(name, metric):
    means = measure(name, metric)
    ratio = means["gpulayer"] / means["xgboost"]
    print(f"{name} {metric}: gpulayer {means['gpulayer']:.6g} xgboost "
          f"{means['xgboost']:.6g} ratio {ratio:.4f}")
    assert ratio <= 1 + TOLERANCE, means


def main():
    print("| dataset | metric | XGBoost | GPUlayer | ratio |")
    print("|---|---|---:|---:|---:|")
    for name, metric in CASES:
        means = measure(name, metric)
        print(f"| {name} | {metric} | {means['xgboost']:.6g} | {means['gpulayer']:.6g} | "
              f"{means['gpulayer'] / means['xgboost']:.4f} |", flush=True)


if __name__ == "__main__":
    main()
