"""Accuracy through the Python API against XGBoost (hist) and LightGBM with
matched parameters, on real data from ../shared/data: our test metric must
be within 0.5% (relative) of theirs, or better."""

import numpy as np
import pytest

import gpulayer

pd = pytest.importorskip("pandas")
metrics = pytest.importorskip("sklearn.metrics")
model_selection = pytest.importorskip("sklearn.model_selection")

TOLERANCE = 0.005
ROUNDS = 100

CASES = {
    # name: (file under shared/data, label column, metric)
    "kernlab_spam": ("kernlab_spam/spam.csv", "type", "auc"),
    "breast_cancer": ("sklearn_small/breast_cancer.csv", "target", "auc"),
    "digits": ("sklearn_small/digits.csv", "target", "accuracy"),
}


def load_split(shared_data, file, label):
    path = shared_data / file
    if not path.exists():
        pytest.skip(f"{path} not found")
    df = pd.read_csv(path)
    y = np.unique(df.pop(label).to_numpy(), return_inverse=True)[1].reshape(-1)
    X = df.to_numpy(np.float32)
    return model_selection.train_test_split(X, y, test_size=0.3, random_state=0,
                                            stratify=y)


def score(metric, y_true, proba):
    if metric == "auc":
        return metrics.roc_auc_score(y_true, proba)
    return metrics.accuracy_score(y_true, proba.argmax(axis=1))


def shared_params(num_class):
    params = {"eta": 0.1, "max_depth": 6, "max_bin": 256, "lambda": 1.0,
              "min_child_weight": 1.0, "nthread": 2}
    if num_class == 2:
        params["objective"] = "binary:logistic"
    else:
        params.update(objective="multi:softprob", num_class=num_class)
    return params


@pytest.mark.parametrize("case", sorted(CASES))
def test_accuracy_close_to_xgboost_and_lightgbm(shared_data, case):
    file, label, metric = CASES[case]
    X_train, X_test, y_train, y_test = load_split(shared_data, file, label)
    num_class = len(np.unique(y_train))
    params = shared_params(num_class)

    ours = gpulayer.train({**params, "device": "cpu"},
                          gpulayer.Dataset(X_train, label=y_train), ROUNDS)
    our_score = score(metric, y_test, ours.predict(X_test))

    references = {}
    xgb = pytest.importorskip("xgboost")
    booster = xgb.train({**params, "tree_method": "hist"},
                        xgb.DMatrix(X_train, label=y_train), ROUNDS)
    references["xgboost"] = score(metric, y_test, booster.predict(xgb.DMatrix(X_test)))
    try:
        import lightgbm as lgb
    except ImportError:
        lgb = None
    if lgb is not None:
        lgb_params = {"learning_rate": 0.1, "max_depth": 6, "num_leaves": 63,
                      "max_bin": 255, "lambda_l2": 1.0, "min_data_in_leaf": 1,
                      "min_sum_hessian_in_leaf": 1.0, "num_threads": 2,
                      "verbose": -1}
        if num_class == 2:
            lgb_params["objective"] = "binary"
        else:
            lgb_params.update(objective="multiclass", num_class=num_class)
        model = lgb.train(lgb_params, lgb.Dataset(X_train, label=y_train), ROUNDS)
        references["lightgbm"] = score(metric, y_test, model.predict(X_test))

    for name, reference in references.items():
        assert our_score >= reference * (1 - TOLERANCE), (
            f"{case}: {metric} {our_score:.5f} vs {name} {reference:.5f}")
