"""The ranking objectives' gradients are XGBoost's: both libraries train on
the same rows with the same bins (integer features of 8 values, so every
value is a bin of its own in both) and a learning rate of 1, and the
margins after each of the first rounds must agree to float rounding. A
difference in pair choice (topk, ties among equal scores in the first
round), normalisation or gain would move whole leaves.

lambdarank_pair_method=mean draws random partners, from another stream
than XGBoost's, and is not compared (docs/ranking.md)."""
import numpy as np
import pytest

import gpulayer

xgb = pytest.importorskip("xgboost")

ROUNDS = 5


def ranking_data(seed=1, queries=40):
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(queries), rng.integers(5, 40, queries))
    X = rng.integers(0, 8, size=(len(qid), 4)).astype(np.float64)
    grade = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(0.0, 1.5, len(qid))) / 2.5
    return X, np.clip(grade, 0, 4).astype(int).astype(np.float64), qid


@pytest.mark.parametrize("objective", ["rank:ndcg", "rank:pairwise", "rank:map"])
@pytest.mark.parametrize("extra", [
    {},
    {"ndcg_exp_gain": False},
    {"lambdarank_normalization": False},
    {"lambdarank_score_normalization": False},
    {"lambdarank_num_pair_per_sample": 4},
], ids=["defaults", "linear-gain", "no-normalization", "no-score-normalization", "top4"])
def test_margins_equal_xgboosts(objective, extra):
    X, grade, qid = ranking_data()
    label = (grade >= 2).astype(np.float64) if objective == "rank:map" else grade
    params = dict(objective=objective, eta=1.0, max_depth=2, reg_lambda=1.0,
                  min_child_weight=0.0, max_bin=256, base_score=0.0, nthread=1, **extra)
    dx = xgb.DMatrix(X, label, qid=qid)
    dg = gpulayer.Dataset(X, label=label, qid=qid)
    for rounds in range(1, ROUNDS + 1):
        theirs = xgb.train({**params, "tree_method": "hist"}, dx, rounds)
        ours = gpulayer.train(params, dg, rounds)
        a = theirs.predict(xgb.DMatrix(X), output_margin=True)
        b = ours.predict(X, output_margin=True)
        scale = float(np.max(np.abs(a)))
        assert scale > 0.1  # the trees moved the margins
        assert np.max(np.abs(a - b)) <= 1e-5 * max(scale, 1.0), (
            f"{objective} {extra} round {rounds}: largest margin difference "
            f"{np.max(np.abs(a - b)):.3g} (margins up to {scale:.3g})")
