"""monotone_constraints and max_delta_step: random constrained models of
every objective family never move the wrong way along a constrained
feature; the parameter's forms, its errors and where it is kept."""
import json

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import GPULayerError

# (objective, extra parameters, label maker); each family of gradients.
FAMILIES = [
    ("reg:squarederror", {}, lambda z, r: z + r.normal(0, 0.3, z.size)),
    ("binary:logistic", {}, lambda z, r: (z + r.logistic(size=z.size) > 0).astype(float)),
    ("count:poisson", {}, lambda z, r: r.poisson(np.exp(np.clip(z, -3, 2)))),
    ("reg:gamma", {}, lambda z, r: r.gamma(2.0, np.exp(np.clip(z, -3, 2)))),
    ("reg:tweedie", {"tweedie_variance_power": 1.4},
     lambda z, r: r.poisson(np.exp(np.clip(z, -3, 2))) * r.gamma(2.0, 0.5, z.size)),
    ("reg:pseudohubererror", {"huber_slope": 0.7}, lambda z, r: z + r.standard_t(2, z.size)),
    ("reg:absoluteerror", {}, lambda z, r: z + r.laplace(0, 0.5, z.size)),
    ("reg:quantileerror", {"quantile_alpha": [0.2, 0.8]},
     lambda z, r: z + r.normal(0, 0.5, z.size)),
    ("multi:softprob", {"num_class": 3},
     lambda z, r: np.digitize(z + r.normal(0, 0.5, z.size), [-0.5, 0.5]).astype(float)),
    ("rank:pairwise", {}, lambda z, r: np.digitize(z + r.normal(0, 0.5, z.size), [-1, 0, 1])),
]


def random_problem(seed, rows=1500, features=5):
    """Random data with missing values and ties, a label that rises and
    falls in every feature, and random signs on the features."""
    r = np.random.default_rng(seed)
    x = r.normal(size=(rows, features))
    x[:, features - 1] = np.round(x[:, features - 1] * 2)  # few distinct values
    c = [j % features for j in range(5)]
    z = (np.sin(2 * x[:, c[0]]) + x[:, c[1]] ** 2 - 0.7 * x[:, c[2]]
         + 0.5 * np.abs(x[:, c[3]]) * x[:, c[4]])
    x[r.random(x.shape) < 0.05] = np.nan
    signs = r.choice([-1, 0, 1], size=features)
    if not signs.any():
        signs[r.integers(features)] = 1
    return x.astype(np.float32), z, signs, r


def wrong_way_steps(booster, x, signs, grid):
    """The largest move against a constraint over each constrained feature
    swept along grid, from 120 rows of x, in margins (every output)."""
    worst = 0.0
    rows = x[:120]
    for f in np.flatnonzero(signs):
        sweep = np.repeat(rows, grid.size, axis=0)
        sweep[:, f] = np.tile(grid, rows.shape[0])
        m = booster.predict(gpulayer.Dataset(sweep), output_margin=True)
        m = np.asarray(m, dtype=np.float64).reshape(rows.shape[0], grid.size, -1)
        steps = np.diff(m, axis=1) * signs[f]
        worst = max(worst, float(-steps.min()))
    return worst


REFITS = ("reg:absoluteerror", "reg:quantileerror")


@pytest.mark.parametrize("objective,extra,make_label", FAMILIES, ids=[f[0] for f in FAMILIES])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("method", ["basic", "intermediate"])
def test_constrained_models_never_move_the_wrong_way(objective, extra, make_label, seed,
                                                     method):
    if method == "intermediate" and objective in REFITS:
        pytest.skip("refused: test_intermediate_refuses_the_leaf_refit")
    x, z, signs, r = random_problem(seed)
    y = make_label(z, r)
    qid = np.sort(r.integers(0, 60, size=x.shape[0])) if objective.startswith("rank:") else None
    data = gpulayer.Dataset(x, y, qid=qid)
    grow = (
        {"grow_policy": "lossguide", "max_leaves": 24, "max_depth": 0} if seed == 2 else
        {"max_depth": 7})
    params = {"objective": objective, "eta": 0.3, "nthread": 2, "min_child_weight": 0.5,
              "monotone_constraints": tuple(int(s) for s in signs), **grow, **extra}
    if seed == 2:
        params["max_delta_step"] = 0.8
    if method == "intermediate":
        params["monotone_constraints_method"] = method
    booster = gpulayer.train(params, data, num_boost_round=12)
    grid = np.linspace(-3.5, 3.5, 41, dtype=np.float32)
    assert wrong_way_steps(booster, x, signs, grid) == 0.0
    # The same data unconstrained do move the wrong way: the sweep can see it.
    free = gpulayer.train({**params, "monotone_constraints": None}, data, num_boost_round=12)
    assert wrong_way_steps(free, x, signs, grid) > 0.0


def test_intermediate_is_another_monotone_model():
    """LightGBM's intermediate method bounds a leaf by its neighbours'
    weights, not by a midpoint fixed at the split: another model, as
    monotone, and recorded in the model's parameters."""
    x, z, signs, r = random_problem(7, rows=3000)
    y = z + r.normal(0, 0.3, z.size)
    data = gpulayer.Dataset(x, y)
    params = {"max_depth": 6, "nthread": 2, "eta": 0.3,
              "monotone_constraints": tuple(int(s) for s in signs)}
    basic = gpulayer.train(params, data, 20)
    inter = gpulayer.train({**params, "monotone_constraints_method": "intermediate"}, data, 20)
    record = json.loads(inter.save_raw())["params"]
    assert record["monotone_constraints_method"] == "intermediate"
    assert "monotone_constraints_method" not in json.loads(basic.save_raw())["params"]
    assert not np.array_equal(basic.predict(data), inter.predict(data))
    grid = np.linspace(-3.5, 3.5, 41, dtype=np.float32)
    assert wrong_way_steps(inter, x, signs, grid) == 0.0


@pytest.mark.parametrize("objective", REFITS)
def test_intermediate_refuses_the_leaf_refit(objective):
    x, z, _, _ = random_problem(8, rows=300, features=3)
    with pytest.raises(GPULayerError, match="intermediate: .* use monotone_constraints_method"):
        gpulayer.train({"objective": objective, "monotone_constraints": "(1,0,0)",
                        "monotone_constraints_method": "intermediate"},
                       gpulayer.Dataset(x, z), 2)


def test_unknown_methods_are_refused():
    x, z, _, _ = random_problem(9, rows=200, features=3)
    data = gpulayer.Dataset(x, z)
    with pytest.raises(GPULayerError, match="'advanced' is not implemented"):
        gpulayer.train({"monotone_constraints_method": "advanced"}, data, 2)
    with pytest.raises(GPULayerError, match="'fast' is not basic or intermediate"):
        gpulayer.train({"mc_method": "fast"}, data, 2)


def test_forms_of_the_parameter_give_one_model():
    x, z, _, r = random_problem(3, rows=800, features=4)
    names = ["a", "b", "c", "d"]
    data = gpulayer.Dataset(x, z, feature_names=names)
    base = {"max_depth": 4, "nthread": 2}
    forms = ["(1,-1,0,0)", "[1,-1,0,0]", "1,-1", [1, -1, 0, 0], (1, -1),
             np.array([1, -1, 0, 0]), {"a": 1, "b": -1}, {0: 1, 1: -1}]
    models = [gpulayer.train({**base, "monotone_constraints": f}, data, 5).predict(data)
              for f in forms]
    for m in models[1:]:
        np.testing.assert_array_equal(models[0], m)
    unconstrained = gpulayer.train(base, data, 5).predict(data)
    assert not np.array_equal(models[0], unconstrained)


def test_the_estimators_take_the_constraints():
    from gpulayer.sklearn import GPULayerRegressor
    x, z, _, _ = random_problem(4, rows=800, features=3)
    est = GPULayerRegressor(n_estimators=8, max_depth=4, monotone_constraints=(1, -1, 0))
    est.fit(x, z)
    grid = np.linspace(-3, 3, 25, dtype=np.float32)
    assert wrong_way_steps(est.get_booster(), x, np.array([1, -1, 0]), grid) == 0.0


@pytest.mark.parametrize("value,message", [
    ("(1,2,0)", "entry 1 is '2'"),
    ("(1,-1", "after entry 1"),
    ("(1,-1) x", "follows the list"),
    ({"nope": 1}, "no feature named 'nope'"),
])
def test_bad_constraints_are_refused_with_the_reason(value, message):
    x, z, _, _ = random_problem(5, rows=200, features=3)
    data = gpulayer.Dataset(x, z, feature_names=["a", "b", "c"])
    with pytest.raises((GPULayerError, ValueError), match=message):
        gpulayer.train({"monotone_constraints": value}, data, 2)


def test_more_constraints_than_features_is_an_error():
    x, z, _, _ = random_problem(5, rows=200, features=3)
    with pytest.raises(GPULayerError, match="more entries than the data's 3 features"):
        gpulayer.train({"monotone_constraints": "(1,0,0,1)"}, gpulayer.Dataset(x, z), 2)


def test_a_constraint_on_a_categorical_feature_is_refused():
    pd = pytest.importorskip("pandas")
    r = np.random.default_rng(6)
    frame = pd.DataFrame({"size": r.normal(size=300),
                          "colour": pd.Categorical(r.choice(["red", "green", "blue"], 300))})
    data = gpulayer.Dataset(frame, r.normal(size=300))
    with pytest.raises(GPULayerError, match="feature 1 \\('colour'\\) is categorical"):
        gpulayer.train({"monotone_constraints": "(1,1)"}, data, 2)
    # 0 on the categorical feature is fine, and its splits stay free.
    gpulayer.train({"monotone_constraints": "(1,0)"}, data, 2)


def test_the_model_keeps_the_constraints(tmp_path):
    x, z, _, _ = random_problem(7, rows=500, features=3)
    data = gpulayer.Dataset(x, z)
    booster = gpulayer.train({"monotone_constraints": [0, 1, -1], "max_delta_step": 0.25},
                             data, 3)
    path = tmp_path / "model.json"
    booster.save_model(str(path))
    params = json.loads(path.read_text())["params"]
    assert params["monotone_constraints"] == "(0,1,-1)"
    assert float(params["max_delta_step"]) == 0.25
    loaded = gpulayer.Booster(model_file=str(path))
    np.testing.assert_array_equal(loaded.predict(data), booster.predict(data))


@pytest.mark.parametrize("objective", ["reg:squarederror", "binary:logistic", "reg:gamma"])
def test_max_delta_step_bounds_every_leaf(objective):
    x, z, _, r = random_problem(8, rows=600, features=3)
    y = {"reg:squarederror": 50 * z, "binary:logistic": (z > 0).astype(float),
         "reg:gamma": np.exp(z)}[objective]
    booster = gpulayer.train({"objective": objective, "max_delta_step": 0.1, "eta": 0.5,
                              "max_depth": 4, "base_score": 0.5 if objective != "reg:gamma"
                              else 1.0}, gpulayer.Dataset(x, y), 4)
    model = json.loads(booster.save_raw())
    values = [v for t in model["trees"] for v, left in zip(t["leaf_value"], t["left"])
              if left < 0]
    assert values and max(abs(v) for v in values) <= 0.5 * 0.1 * (1 + 1e-6)
    assert max(abs(v) for v in values) > 0.5 * 0.1 * (1 - 1e-6)  # the clamp was reached


def test_poisson_damping_follows_a_given_max_delta_step():
    x, z, _, r = random_problem(9, rows=600, features=3)
    y = r.poisson(np.exp(np.clip(z, -3, 2)))
    data = gpulayer.Dataset(x, y)
    default = gpulayer.train({"objective": "count:poisson"}, data, 3)
    assert json.loads(default.save_raw())["objective_params"]["max_delta_step"] == 0.7
    given = gpulayer.train({"objective": "count:poisson", "max_delta_step": 0.3}, data, 3)
    assert json.loads(given.save_raw())["objective_params"]["max_delta_step"] == 0.3


def test_continued_training_keeps_the_constraints():
    x, z, _, _ = random_problem(10, rows=600, features=3)
    data = gpulayer.Dataset(x, z)
    first = gpulayer.train({"monotone_constraints": "(1,0,-1)"}, data, 3)
    with pytest.raises(GPULayerError, match="trained with monotone_constraints \\(1,0,-1\\), "
                                            "the parameters give none"):
        gpulayer.train({}, data, 3, xgb_model=first)
    more = gpulayer.train({"monotone_constraints": [1, 0, -1]}, data, 3, xgb_model=first)
    grid = np.linspace(-3, 3, 25, dtype=np.float32)
    assert more.num_boosted_rounds() == 6
    assert wrong_way_steps(more, x, np.array([1, 0, -1]), grid) == 0.0


def split_depths(booster):
    """(depth, feature) of every split of every tree."""
    out = []
    for t in json.loads(booster.save_raw())["trees"]:
        depth = {0: 0}
        for i, (left, right, f) in enumerate(zip(t["left"], t["right"], t["feature"])):
            if left >= 0:
                out.append((depth[i], f))
                depth[left] = depth[right] = depth[i] + 1
    return out


def test_monotone_penalty_keeps_monotone_splits_off_the_top_levels():
    x, z, _, _ = random_problem(11, rows=1500, features=4)
    data = gpulayer.Dataset(x, z)
    base = {"max_depth": 6, "monotone_constraints": "(1,-1,0,0)", "nthread": 2}
    free = split_depths(gpulayer.train(base, data, 5))
    assert any(d < 2 and f in (0, 1) for d, f in free)  # the penalty has work to do
    penalised = gpulayer.train({**base, "monotone_penalty": 2}, data, 5)
    splits = split_depths(penalised)
    assert not any(d < 2 and f in (0, 1) for d, f in splits)
    assert any(f in (0, 1) for d, f in splits)  # deeper, they still split
    grid = np.linspace(-3, 3, 25, dtype=np.float32)
    assert wrong_way_steps(penalised, x, np.array([1, -1, 0, 0]), grid) == 0.0
    zero = gpulayer.train({**base, "monotone_penalty": 0}, data, 5)
    assert split_depths(zero) == free
