"""Cross-validation: gpulayer.cv gives xgboost.cv's columns and rows, the
folds' own training histories averaged, figures near XGBoost's on the same
folds, stratified and query-keeping folds, early stopping on the mean of
the folds, and clear errors for bad folds."""

import numpy as np
import pytest

import gpulayer
from gpulayer.crossval import _folds

pd = pytest.importorskip("pandas")
xgb = pytest.importorskip("xgboost")
datasets = pytest.importorskip("sklearn.datasets")
model_selection = pytest.importorskip("sklearn.model_selection")

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1}
OURS = dict(PARAMS, device="cpu")
THEIRS = dict(PARAMS, tree_method="hist")


@pytest.fixture(scope="module")
def classification():
    X, y = datasets.make_classification(n_samples=300, n_features=8, n_informative=5,
                                        weights=[0.7], random_state=0)
    return X.astype(np.float32), y.astype(np.float32)


@pytest.fixture(scope="module")
def regression():
    X, y = datasets.make_regression(n_samples=300, n_features=6, noise=10.0,
                                    random_state=1)
    return X.astype(np.float32), y.astype(np.float32)


def kfold(n, k=3):
    return list(model_selection.KFold(k, shuffle=True, random_state=0).split(np.zeros(n)))


def by_hand(params, X, y, folds, rounds):
    """Each fold trained with train() on arrays of its rows: the
    histories ({"train": {metric: [...]}, "test": ...}) of the folds."""
    histories = []
    for train_rows, test_rows in folds:
        dtrain = gpulayer.Dataset(X[train_rows], label=y[train_rows])
        dtest = gpulayer.Dataset(X[test_rows], label=y[test_rows])
        history = {}
        gpulayer.train(params, dtrain, rounds, evals=[(dtrain, "train"), (dtest, "test")],
                       evals_result=history)
        histories.append(history)
    return histories


def test_columns_and_rows_are_xgboosts(classification):
    X, y = classification
    ours = gpulayer.cv(OURS, gpulayer.Dataset(X, label=y), 7, nfold=4,
                       metrics=["logloss", "error"])
    theirs = xgb.cv(THEIRS, xgb.DMatrix(X, label=y), 7, nfold=4, metrics=["logloss", "error"])
    assert isinstance(ours, pd.DataFrame)
    assert list(ours.columns) == list(theirs.columns) == [
        "train-logloss-mean", "train-logloss-std", "train-error-mean", "train-error-std",
        "test-logloss-mean", "test-logloss-std", "test-error-mean", "test-error-std"]
    assert ours.shape == theirs.shape == (7, 8)
    # The default metric is the objective's, and a dict without pandas' help.
    plain = gpulayer.cv(OURS, gpulayer.Dataset(X, label=y), 3, as_pandas=False)
    assert isinstance(plain, dict) and list(plain) == [
        "train-logloss-mean", "train-logloss-std", "test-logloss-mean", "test-logloss-std"]
    assert all(len(v) == 3 for v in plain.values())
    # metrics overrides eval_metric.
    auc = gpulayer.cv(dict(OURS, eval_metric="logloss"), gpulayer.Dataset(X, label=y), 2,
                      metrics="auc")
    assert list(auc.columns) == ["train-auc-mean", "train-auc-std", "test-auc-mean",
                                 "test-auc-std"]


def test_results_are_the_folds_trained_by_hand(classification):
    X, y = classification
    folds = kfold(len(y))
    result = gpulayer.cv(OURS, gpulayer.Dataset(X, label=y), 6, folds=folds)
    histories = by_hand(OURS, X, y, folds, 6)
    for data_name in ("train", "test"):
        values = np.array([h[data_name]["logloss"] for h in histories])
        np.testing.assert_array_equal(result[f"{data_name}-logloss-mean"],
                                      values.mean(axis=0))
        np.testing.assert_array_equal(result[f"{data_name}-logloss-std"],
                                      values.std(axis=0))


def test_test_metric_is_near_xgboosts_on_the_same_folds(regression):
    X, y = regression
    folds = kfold(len(y), 4)
    params = {"objective": "reg:squarederror", "max_depth": 4, "eta": 0.2, "nthread": 1}
    ours = gpulayer.cv(dict(params, device="cpu"), gpulayer.Dataset(X, label=y), 15,
                       folds=folds)
    theirs = xgb.cv(dict(params, tree_method="hist"), xgb.DMatrix(X, label=y), 15,
                    folds=folds)
    np.testing.assert_allclose(ours["test-rmse-mean"].iloc[-1],
                               theirs["test-rmse-mean"].iloc[-1], rtol=0.05)
    np.testing.assert_allclose(ours["train-rmse-mean"].iloc[-1],
                               theirs["train-rmse-mean"].iloc[-1], rtol=0.05)


def test_folds_from_a_splitter_equal_the_same_folds_as_lists(classification):
    X, y = classification
    splitter = model_selection.KFold(3, shuffle=True, random_state=0)
    dtrain = gpulayer.Dataset(X, label=y)
    pd.testing.assert_frame_equal(gpulayer.cv(OURS, dtrain, 3, folds=splitter),
                                  gpulayer.cv(OURS, dtrain, 3, folds=kfold(len(y))))


def test_default_folds_cover_every_row_once(classification):
    X, y = classification
    dtrain = gpulayer.Dataset(X, label=y)
    for shuffle in (True, False):
        folds = _folds(dtrain, 4, False, None, 0, shuffle)
        tests = np.concatenate([test for _, test in folds])
        assert sorted(tests.tolist()) == list(range(len(y)))
        for train_rows, test_rows in folds:
            assert not set(train_rows) & set(test_rows)
            assert len(train_rows) + len(test_rows) == len(y)
    # XGBoost's: numpy's permutation for the seed, cut in nfold parts.
    expected = np.array_split(np.random.RandomState(5).permutation(len(y)), 4)
    for (_, test_rows), part in zip(_folds(dtrain, 4, False, None, 5, True), expected):
        np.testing.assert_array_equal(test_rows, part)
    unshuffled = _folds(dtrain, 4, False, None, 0, False)
    np.testing.assert_array_equal(unshuffled[0][1], np.arange(75))


def test_stratified_folds_keep_the_class_shares(classification):
    X, y = classification
    dtrain = gpulayer.Dataset(X, label=y)
    share = y.mean()
    for _, test_rows in _folds(dtrain, 5, True, None, 0, True):
        assert abs(y[test_rows].mean() - share) <= 1.0 / len(test_rows)
    result = gpulayer.cv(OURS, dtrain, 3, nfold=5, stratified=True)
    expected = model_selection.StratifiedKFold(5, shuffle=True, random_state=0).split(y, y)
    pd.testing.assert_frame_equal(result, gpulayer.cv(OURS, dtrain, 3, folds=list(expected)))


@pytest.fixture(scope="module")
def ranking():
    rng = np.random.default_rng(4)
    sizes = rng.integers(3, 9, 30)
    qid = np.repeat(np.arange(30), sizes)
    X = rng.normal(size=(qid.size, 5)).astype(np.float32)
    y = np.clip(np.round(X[:, 0] + rng.normal(0, 0.5, qid.size) + 1), 0, 3)
    return X, y.astype(np.float32), qid


def test_ranking_folds_keep_queries_whole(ranking):
    X, y, qid = ranking
    dtrain = gpulayer.Dataset(X, label=y, qid=qid)
    folds = _folds(dtrain, 3, False, None, 0, True)
    for train_rows, test_rows in folds:
        assert not set(qid[train_rows]) & set(qid[test_rows])
        for rows in (train_rows, test_rows):  # each query whole, and together
            for q in np.unique(qid[rows]):
                at = np.flatnonzero(qid[rows] == q)
                assert len(at) == np.count_nonzero(qid == q)
                assert np.all(np.diff(at) == 1)
    assert sorted(np.concatenate([t for _, t in folds]).tolist()) == list(range(len(y)))
    params = {"objective": "rank:ndcg", "eval_metric": "ndcg@5", "max_depth": 3,
              "nthread": 1, "device": "cpu"}
    result = gpulayer.cv(params, dtrain, 4, nfold=3)
    assert list(result.columns) == ["train-ndcg@5-mean", "train-ndcg@5-std",
                                    "test-ndcg@5-mean", "test-ndcg@5-std"]
    assert ((result > 0) & (result <= 1)).iloc[:, ::2].all().all()
    # GroupKFold is given the queries.
    grouped = gpulayer.cv(params, dtrain, 2, folds=model_selection.GroupKFold(3))
    assert grouped.shape == (2, 4)
    # A fold that splits a query is refused, as are stratified folds.
    rows = np.arange(len(y))
    with pytest.raises(ValueError, match="takes part of query 0"):
        gpulayer.cv(params, dtrain, 2, folds=[(rows[2:], rows[:2])])
    with pytest.raises(ValueError, match="stratified folds would split queries"):
        gpulayer.cv(params, dtrain, 2, stratified=True)
    with pytest.raises(ValueError, match="nfold=31 is more than the 30 queries"):
        gpulayer.cv(params, dtrain, 2, nfold=31)


def early_stop_round(means, rounds):
    """XGBoost's rule on a minimised metric: the best round once `rounds`
    rounds have not improved on it, or None."""
    best = 0
    for i in range(1, len(means)):
        if means[i] < means[best]:
            best = i
        elif i - best >= rounds:
            return best
    return None


def test_early_stopping_ends_at_the_best_mean_round(classification):
    X, y = classification
    folds = kfold(len(y))
    params = dict(OURS, eta=0.6, max_depth=4)
    dtrain = gpulayer.Dataset(X, label=y)
    full = gpulayer.cv(params, dtrain, 60, folds=folds)
    best = early_stop_round(full["test-logloss-mean"].to_numpy(), 4)
    assert best is not None and best + 4 < 60
    stopped = gpulayer.cv(params, dtrain, 60, folds=folds, early_stopping_rounds=4)
    assert len(stopped) == best + 1
    # Folds trained in steps give the figures of folds trained in one go.
    pd.testing.assert_frame_equal(stopped, full.iloc[:best + 1])
    # The parameter (or its alias) is early stopping on the mean too.
    alias = gpulayer.cv(dict(params, early_stopping_round=4), dtrain, 60, folds=folds)
    pd.testing.assert_frame_equal(alias, stopped)
    # Not stopping keeps every round.
    assert len(gpulayer.cv(params, dtrain, 5, folds=folds, early_stopping_rounds=4)) == 5


def test_callbacks_get_the_means_and_may_stop(classification, capsys):
    X, y = classification
    seen = []

    def callback(round_index, results):
        seen.append((round_index, [(r.data_name, r.metric_name) for r in results],
                     results[-1].value))
        return round_index == 12

    dtrain = gpulayer.Dataset(X, label=y)
    result = gpulayer.cv(OURS, dtrain, 30, callbacks=[callback], verbose_eval=5,
                         show_stdv=False)
    assert len(result) == 13 and [s[0] for s in seen] == list(range(13))
    assert seen[0][1] == [("train", "logloss"), ("test", "logloss")]
    assert [s[2] for s in seen] == result["test-logloss-mean"].tolist()
    lines = capsys.readouterr().out.splitlines()
    # As xgboost.cv: the monitor of verbose_eval comes after the callbacks
    # given, and is not called for the round one of them stops at; the last
    # round it saw is printed at the end.
    assert [line.split("\t")[0] for line in lines] == ["[0]", "[5]", "[10]", "[11]"]
    assert lines[0] == ("[0]\ttrain-logloss:%.5f\ttest-logloss:%.5f" % (
        result["train-logloss-mean"][0], result["test-logloss-mean"][0]))
    gpulayer.cv(OURS, dtrain, 2, verbose_eval=True)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("[0]\ttrain-logloss:") and "+" in first
    with pytest.raises(TypeError, match="callback\\(round, results\\)"):
        gpulayer.cv(OURS, dtrain, 2, callbacks=[object()])


def test_custom_objective_and_metric_pass_through(regression):
    X, y = regression
    folds = kfold(len(y))

    def squared(preds, dataset):
        return preds - dataset.get_label(), np.ones_like(preds)

    def mae(preds, dataset):
        return "mae_py", float(np.mean(np.abs(preds - dataset.get_label())))

    params = {"objective": "reg:squarederror", "max_depth": 3, "nthread": 1,
              "device": "cpu", "base_score": 0.5}
    custom = gpulayer.cv(params, gpulayer.Dataset(X, label=y), 4, folds=folds, obj=squared,
                         custom_metric=mae)
    builtin = gpulayer.cv(dict(params, eval_metric=["rmse", "mae"]),
                          gpulayer.Dataset(X, label=y), 4, folds=folds)
    assert list(custom.columns) == ["train-rmse-mean", "train-rmse-std", "train-mae_py-mean",
                                    "train-mae_py-std", "test-rmse-mean", "test-rmse-std",
                                    "test-mae_py-mean", "test-mae_py-std"]
    np.testing.assert_allclose(custom["test-mae_py-mean"], builtin["test-mae-mean"],
                               rtol=1e-5)


def test_bad_input_is_refused_clearly(classification, tmp_path):
    X, y = classification
    dtrain = gpulayer.Dataset(X[:20], label=y[:20])
    rows = np.arange(20)
    with pytest.raises(ValueError, match="nfold must be at least 2, got 1"):
        gpulayer.cv(OURS, dtrain, 2, nfold=1)
    with pytest.raises(ValueError, match="nfold=21 is more than the 20 rows"):
        gpulayer.cv(OURS, dtrain, 2, nfold=21)
    with pytest.raises(ValueError, match="nfold=21 is more than the 20 rows"):
        gpulayer.cv(OURS, dtrain, 2, nfold=21, stratified=True)
    with pytest.raises(ValueError, match=r"folds\[0\] must be a \(train_index, test_index\) "
                                         "pair, got tuple of 3"):
        gpulayer.cv(OURS, dtrain, 2, folds=[(rows[:10], rows[10:], rows)])
    with pytest.raises(ValueError, match=r"folds\[1\]: test_index must be a non-empty 1-D"):
        gpulayer.cv(OURS, dtrain, 2, folds=[(rows[:10], rows[10:]),
                                            (rows[10:], rows.reshape(4, 5))])
    with pytest.raises(ValueError, match=r"folds\[0\]: train_index holds row 20, out of"):
        gpulayer.cv(OURS, dtrain, 2, folds=[(rows + 1, rows[:3])])
    with pytest.raises(ValueError, match="folds must be a scikit-learn splitter"):
        gpulayer.cv(OURS, dtrain, 2, folds=3)
    with pytest.raises(TypeError, match="dtrain must be a gpulayer.Dataset"):
        gpulayer.cv(OURS, X, 2)
    path = tmp_path / "d.csv"
    path.write_text("y,a\n" + "".join(f"{i % 2},{i}\n" for i in range(9)))
    with pytest.raises(ValueError, match="pandas.read_csv"):
        gpulayer.cv(OURS, gpulayer.Dataset.from_file(path, label="y"), 2)
