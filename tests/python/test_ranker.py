"""GPULayerRanker (XGBRanker's API), gpulayer.evaluate, and ranking models
in the XGBoost export."""
import numpy as np
import pytest

pytest.importorskip("sklearn")
import gpulayer  # noqa: E402


def ranking_data(queries=40, seed=3):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 30, size=queries)
    qid = np.repeat(np.arange(queries) * 7 + 100, sizes)
    X = rng.normal(size=(qid.size, 5)).astype(np.float32)
    y = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.5, qid.size) + 2), 0, 4)
    return X, y.astype(np.float32), qid, sizes


def test_fit_with_qid_or_group_gives_the_same_model():
    X, y, qid, sizes = ranking_data()
    a = gpulayer.GPULayerRanker(n_estimators=8, max_depth=3).fit(X, y, qid=qid)
    b = gpulayer.GPULayerRanker(n_estimators=8, max_depth=3).fit(X, y, group=sizes)
    assert a.get_booster().save_raw() == b.get_booster().save_raw()
    assert a.predict(X).shape == (X.shape[0],)


def test_unsorted_qid_is_grouped_stably():
    X, y, qid, _ = ranking_data()
    perm = np.random.default_rng(0).permutation(qid.size)
    sorted_fit = gpulayer.GPULayerRanker(n_estimators=5).fit(X, y, qid=qid)
    shuffled = gpulayer.GPULayerRanker(n_estimators=5).fit(X[perm], y[perm], qid=qid[perm])
    # The same queries with their rows in another order: a different model
    # in general, but one that ranks as well.
    s1 = sorted_fit.score(X, y, qid=qid)
    s2 = shuffled.score(X, y, qid=qid)
    assert abs(s1 - s2) < 0.05
    assert s1 > 0.6


def test_score_is_the_default_metric_of_the_scores():
    X, y, qid, sizes = ranking_data()
    r = gpulayer.GPULayerRanker(n_estimators=10).fit(X, y, qid=qid)
    data = gpulayer.Dataset(X, label=y, group=sizes)
    expected = gpulayer.evaluate("ndcg@32", r.predict(X), data)
    assert r.score(X, y, qid=qid) == pytest.approx(expected, abs=1e-12)
    m = gpulayer.GPULayerRanker(n_estimators=10, objective="rank:map").fit(X, y >= 3, qid=qid)
    assert m.score(X, y >= 3, qid=qid) == pytest.approx(
        gpulayer.evaluate("map@32", m.predict(X), gpulayer.Dataset(X, label=y >= 3,
                                                                   group=sizes)), abs=1e-12)


def test_weights_are_per_query_and_eval_sets_take_queries():
    X, y, qid, sizes = ranking_data()
    w = np.linspace(0.5, 2.0, sizes.size)
    r = gpulayer.GPULayerRanker(n_estimators=6, eval_metric="ndcg@5")
    r.fit(X, y, qid=qid, sample_weight=w, eval_set=[(X, y)], eval_qid=[qid])
    assert len(r.evals_result_["validation_0"]["ndcg@5"]) == 6
    with pytest.raises(ValueError, match="one weight a query"):
        r.fit(X, y, qid=qid, sample_weight=np.ones(qid.size))
    with pytest.raises(ValueError, match="exactly one of qid= and group="):
        r.fit(X, y)


def test_evaluate_refuses_what_the_metric_cannot_score():
    X, y, qid, sizes = ranking_data()
    data = gpulayer.Dataset(X, label=y, group=sizes)
    with pytest.raises(gpulayer.GPULayerError, match="map"):
        gpulayer.evaluate("map@5", np.zeros(y.size), data)
    with pytest.raises(ValueError, match="predictions"):
        gpulayer.evaluate("ndcg", np.zeros(3), data)
    assert gpulayer.evaluate("rmse", y, data) == 0.0


@pytest.mark.parametrize("objective", ["rank:ndcg", "rank:pairwise", "rank:map"])
def test_xgboost_predicts_our_export_of_a_ranker(tmp_path, objective):
    xgb = pytest.importorskip("xgboost")
    X, y, qid, sizes = ranking_data(seed=8)
    X[::9, 2] = np.nan
    if objective == "rank:map":
        y = (y >= 3).astype(np.float32)
    bst = gpulayer.train({"objective": objective, "max_depth": 4, "device": "cpu",
                          "lambdarank_pair_method": "mean",
                          "lambdarank_num_pair_per_sample": 3},
                         gpulayer.Dataset(X, label=y, group=sizes), 12)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    theirs = xgb.Booster(model_file=str(path))
    assert theirs.save_config().count(objective) >= 1
    np.testing.assert_allclose(theirs.predict(xgb.DMatrix(X)),
                               bst.predict(gpulayer.Dataset(X)), rtol=1e-6, atol=1e-6)
