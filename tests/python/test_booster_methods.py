"""XGBoost's Booster methods on gpulayer.Booster: the same names, arguments
and output formats as xgboost's, and values that agree with the model's
own dumps, predictions and training."""

import json
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification, make_regression

import gpulayer

xgb = pytest.importorskip("xgboost")


@pytest.fixture(scope="module")
def reg():
    X, y = make_regression(n_samples=300, n_features=6, n_informative=4, random_state=0)
    return X.astype(np.float32), y.astype(np.float32)


@pytest.fixture(scope="module")
def multi():
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, n_classes=3,
                               random_state=0)
    return X.astype(np.float32), y.astype(np.float32)


PARAMS = {"max_depth": 3, "eta": 0.3}


def both(X, y, params, rounds, names=None):
    """The same model trained by gpulayer and by xgboost."""
    bst = gpulayer.train(params, gpulayer.Dataset(X, label=y, feature_names=names), rounds)
    xbst = xgb.train(params, xgb.DMatrix(X, label=y, feature_names=names), rounds)
    return bst, xbst


# ------------------------------------------------------------ attributes

def test_best_score_is_the_watched_metric_at_the_best_round(multi):
    X, y = multi
    y = (y > 0).astype(np.float32)
    train, valid = gpulayer.Dataset(X[:200], label=y[:200]), gpulayer.Dataset(X[200:],
                                                                              label=y[200:])
    history = {}
    bst = gpulayer.train({"objective": "binary:logistic", "eta": 0.6}, train, 60,
                         evals=[(train, "train"), (valid, "valid")],
                         early_stopping_rounds=3, evals_result=history)
    assert bst.best_iteration is not None and bst.best_iteration < bst.num_rounds - 1
    assert bst.best_score == history["valid"]["logloss"][bst.best_iteration]
    assert bst.attributes() == {"best_iteration": str(bst.best_iteration),
                                "best_score": repr(bst.best_score)}
    plain = gpulayer.train({"objective": "binary:logistic"}, train, 2)
    assert plain.best_score is None and plain.attributes() == {}


def test_attributes_set_delete_save_load_copy(reg, tmp_path):
    X, y = reg
    bst, xbst = both(X, y, PARAMS, 2)
    for b in (bst, xbst):
        b.set_attr(owner="team", version=3)
        b.set_attr(owner=None)
        assert b.attr("version") == "3" and b.attr("owner") is None
        assert b.attributes() == {"version": "3"}
    bst.set_attr(note='quote " and\nnewline ü')
    path = tmp_path / "m.json"
    bst.save_model(path)
    loaded = gpulayer.Booster(model_file=path)
    assert loaded.attributes() == bst.attributes()
    assert gpulayer.Booster().load_model(path).attr("note") == 'quote " and\nnewline ü'
    assert gpulayer.Booster().load_raw(bst.save_raw()).attributes() == bst.attributes()
    assert bst.copy().attributes() == bst.attributes()
    assert pickle.loads(pickle.dumps(bst)).attributes() == bst.attributes()
    np.testing.assert_array_equal(loaded.predict(X), bst.predict(X))
    # Saved again, the model text is the same.
    assert loaded.save_raw() == bst.save_raw()


def test_set_attr_best_iteration_sets_the_prediction_round(reg):
    X, y = reg
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 5)
    bst.set_attr(best_iteration=1)
    assert bst.best_iteration == 1
    np.testing.assert_array_equal(bst.predict(X), bst.predict(X, iteration_range=(0, 2)))
    bst.set_attr(best_iteration=None)
    assert bst.best_iteration is None


# --------------------------------------------------------- configuration

def test_save_config_load_config_round_trip(reg):
    X, y = reg
    bst = gpulayer.Booster({"eta": 0.05, "max_depth": 4, "lambda": 2.5,
                            "eval_metric": ["rmse", "mae"], "subsample": 0.8})
    config = bst.save_config()
    assert isinstance(config, str)
    params = json.loads(config)["params"]
    assert params["max_depth"] == "4" and params["eval_metric"] == ["rmse", "mae"]
    other = gpulayer.Booster()
    other.load_config(config)
    assert other.save_config() == config
    data = gpulayer.Dataset(X, label=y)
    a = gpulayer.train(json.loads(config)["params"] | {"num_round": 3}, data)
    b = gpulayer.train(json.loads(other.save_config())["params"] | {"num_round": 3}, data)
    assert a.save_raw() == b.save_raw()


def test_save_raw_takes_xgboosts_raw_format(reg):
    X, y = reg
    bst = gpulayer.train({"max_depth": 3}, gpulayer.Dataset(X, label=y), 2)
    assert bst.save_raw(raw_format="json") == bst.save_raw()
    for other in ("ubj", "deprecated"):
        with pytest.raises(gpulayer.errors.InvalidArgumentError,
                           match=f"raw_format '{other}'.*export_xgboost"):
            bst.save_raw(raw_format=other)


# ------------------------------------------------------ importance, dumps

@pytest.mark.parametrize("kind", ["weight", "gain", "cover", "total_gain", "total_cover"])
def test_get_score_keys_and_values(reg, kind):
    X, y = reg
    names = [f"x{i}" for i in range(X.shape[1])]
    bst, xbst = both(X[:, :], y, {"max_depth": 2}, 2, names)
    score = bst.get_score(importance_type=kind)
    xscore = xbst.get_score(importance_type=kind)
    assert all(isinstance(v, float) for v in score.values())
    assert set(score) <= set(names) and set(xscore) <= set(names)
    values = bst.feature_importance(kind)
    assert score == {names[f]: values[f] for f in range(len(names))
                     if bst.feature_importance("weight")[f] > 0}


def test_get_score_weight_counts_the_splits_of_the_dump(reg):
    X, y = reg
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 4)
    counts = {}
    for tree in bst.get_dump():
        for feature in re.findall(r"\[(f\d+)<", tree):
            counts[feature] = counts.get(feature, 0) + 1
    assert bst.get_score() == {k: float(v) for k, v in counts.items()}
    assert bst.get_fscore() == bst.get_score()
    assert all(k.startswith("f") for k in bst.get_score())


def test_get_score_total_gain_sums_the_dump_gains(reg):
    X, y = reg
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 3)
    gains = {}
    for tree in bst.get_dump(with_stats=True):
        for feature, gain in re.findall(r"\[(f\d+)<[^\]]*\][^\n]*gain=([^,]+)", tree):
            gains[feature] = gains.get(feature, 0.0) + float(gain)
    score = bst.get_score(importance_type="total_gain")
    assert set(score) == set(gains)
    for k in score:
        assert score[k] == pytest.approx(gains[k], rel=1e-6)


@pytest.mark.parametrize("with_stats", [False, True])
def test_json_dump_has_xgboosts_layout(reg, with_stats):
    X, y = reg
    bst, xbst = both(X, y, PARAMS, 2)
    dumps = bst.get_dump(with_stats=with_stats, dump_format="json")
    xdumps = xbst.get_dump(with_stats=with_stats, dump_format="json")
    assert len(dumps) == len(xdumps) == 2

    def keys(node, out):
        out.add(tuple(sorted(node)))
        for child in node.get("children", []):
            keys(child, out)
        return out

    for ours, theirs in zip(dumps, xdumps):
        assert keys(json.loads(ours), set()) == keys(json.loads(theirs), set())
    # The JSON holds the text dump's nodes and numbers.
    text = bst.get_dump(with_stats=with_stats)[0]
    root = json.loads(dumps[0])
    assert text.startswith(f"0:[f{root['split'][1:]}<")
    nodes = []

    def walk(node):
        nodes.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(root)
    assert len(nodes) == len(text.strip().splitlines())
    for node in nodes:
        if "leaf" in node:
            assert f"{node['nodeid']}:leaf=" in text
        else:
            assert (f"{node['nodeid']}:[{node['split']}<" in text
                    and f"yes={node['yes']},no={node['no']},missing={node['missing']}" in text)


def test_json_dump_renders_xgboosts_own_text_as_xgboost_does(reg):
    """The renderer, given XGBoost's text dump, writes XGBoost's JSON dump
    character for character."""
    from gpulayer import _tree_dump
    X, y = reg
    _, xbst = both(X, y, PARAMS, 3)
    for with_stats in (False, True):
        for text, expected in zip(xbst.get_dump(with_stats=with_stats),
                                  xbst.get_dump(with_stats=with_stats, dump_format="json")):
            assert _tree_dump.render_json(_tree_dump.parse_tree(text), with_stats) == expected


def test_dump_with_a_feature_map(reg, tmp_path):
    X, y = reg
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 2)
    fmap = tmp_path / "fmap.txt"
    fmap.write_text("".join(f"{i}\tcol_{i}\tq\n" for i in range(X.shape[1])))
    renamed = bst.get_dump(str(fmap))
    assert renamed == [re.sub(r"\[f(\d+)<", r"[col_\1<", t) for t in bst.get_dump()]
    assert set(bst.get_score(str(fmap))) == {f"col_{k[1:]}" for k in bst.get_score()}
    with pytest.raises(TypeError, match="with_stats"):
        bst.get_dump(True)
    with pytest.raises(ValueError, match="dump_format"):
        bst.get_dump(dump_format="dot")


def test_categorical_split_in_json_and_dataframe():
    rng = np.random.default_rng(0)
    colour = rng.choice(["blue", "green", "red", "white"], 400)
    y = np.isin(colour, ["blue", "red"]) * 5.0 + rng.normal(0, 0.1, 400)
    df = pd.DataFrame({"colour": pd.Categorical(colour), "x": rng.normal(size=400)})
    bst = gpulayer.train({"max_depth": 1, "max_cat_to_onehot": 1}, gpulayer.Dataset(df, label=y), 1)
    root = json.loads(bst.get_dump(dump_format="json")[0])
    assert root["split"] == "colour"
    names = bst.get_dump()[0].split("{")[1].split("}")[0].split(", ")
    assert [bst.categories(0)[c] for c in root["split_condition"]] == names
    frame = bst.trees_to_dataframe()
    assert frame.loc[0, "Category"] == [str(c) for c in root["split_condition"]]
    assert np.isnan(frame.loc[0, "Split"])


def test_trees_to_dataframe_columns_and_values(reg):
    X, y = reg
    bst, xbst = both(X, y, PARAMS, 3)
    frame, xframe = bst.trees_to_dataframe(), xbst.trees_to_dataframe()
    assert list(frame.columns) == list(xframe.columns)
    assert [str(t) for t in frame.dtypes] == [str(t) for t in xframe.dtypes]
    dumps = bst.get_dump(with_stats=True)
    assert len(frame) == sum(len(d.strip().splitlines()) for d in dumps)
    leaves = frame[frame.Feature == "Leaf"]
    splits = frame[frame.Feature != "Leaf"]
    assert leaves.Yes.isna().all() and leaves.Split.isna().all()
    assert (splits.Yes == splits.Tree.astype(str) + "-" + splits.Yes.str.split("-").str[1]).all()
    # Gain of the splits is total_gain per feature; covers of the root are the rows.
    total = splits.groupby("Feature").Gain.sum().to_dict()
    for k, v in bst.get_score(importance_type="total_gain").items():
        assert total[k] == pytest.approx(v, rel=1e-6)
    assert (frame[frame.Node == 0].Cover == len(y)).all()
    # A leaf's Gain is its value: the margins of a row are the sum of its leaves.
    leaf = bst.predict(X[:5], pred_leaf=True).astype(int)
    values = leaves.set_index("ID").Gain
    margins = [sum(values[f"{t}-{n}"] for t, n in enumerate(row)) for row in leaf]
    base = bst.predict(X[:5], output_margin=True) - np.array(margins)
    assert np.ptp(base) < 1e-3


# ------------------------------------------------------------ evaluation

def test_eval_format_and_value(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)
    bst, xbst = both(X, y, PARAMS, 3)
    text = bst.eval(data)
    xtext = xbst.eval(xgb.DMatrix(X, label=y))
    pattern = r"\[0\]\teval-rmse:[0-9.e+-]+"
    assert re.fullmatch(pattern, text) and re.fullmatch(pattern, xtext)
    rmse = np.sqrt(np.mean((bst.predict(X).astype(np.float64) - y) ** 2))
    assert float(text.split(":")[1]) == pytest.approx(rmse, rel=1e-5)


def test_eval_set_matches_training_history(multi):
    X, y = multi
    train, valid = gpulayer.Dataset(X[:200], label=y[:200]), gpulayer.Dataset(X[200:],
                                                                              label=y[200:])
    for params in ({"objective": "multi:softprob", "num_class": 3},
                   {"objective": "multi:softmax", "num_class": 3,
                    "eval_metric": ["merror", "mlogloss"]}):
        history = {}
        bst = gpulayer.train(params | {"max_depth": 2}, train, 3,
                             evals=[(train, "train"), (valid, "valid")], evals_result=history)
        text = bst.eval_set([(train, "train"), (valid, "valid")], iteration=2)
        fields = text.split("\t")
        assert fields[0] == "[2]"
        expected = [f"{name}-{metric}" for name in ("train", "valid")
                    for metric in history[name]]
        assert [f.split(":")[0] for f in fields[1:]] == expected
        for f in fields[1:]:
            key, value = f.split(":")
            name, metric = key.split("-", 1)
            assert float(value) == pytest.approx(history[name][metric][-1], rel=1e-5)


def test_eval_set_with_feval(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)
    bst = gpulayer.train(PARAMS, data, 2)

    def max_error(preds, dataset):
        return "maxerr", float(np.max(np.abs(preds - dataset.get_label())))

    text = bst.eval_set([(data, "d")], 1, feval=max_error)
    assert text.split("\t")[2] == f"d-maxerr:{max_error(bst.predict(X), data)[1]:f}"


# --------------------------------------------------------------- update

def test_update_adds_one_round_as_training_does(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)
    params = {"max_depth": 3, "eta": 0.3, "subsample": 0.7, "seed": 3}
    bst = gpulayer.train(params, data, 3)
    bst.update(data, 3)
    assert bst.num_rounds == 4
    assert bst.save_raw() == gpulayer.train(params, data, 4).save_raw()
    xbst = xgb.train(params, xgb.DMatrix(X, label=y), 3)
    xbst.update(xgb.DMatrix(X, label=y), 3)
    assert xbst.num_boosted_rounds() == bst.num_boosted_rounds()


def test_update_with_a_custom_objective(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)

    def squared(preds, dataset):
        return preds - dataset.get_label(), np.ones_like(preds)

    bst = gpulayer.train(PARAMS, data, 2, obj=squared)
    before = bst.predict(X)
    bst.update(data, 2, fobj=squared)
    assert bst.num_rounds == 3
    assert np.mean((bst.predict(X) - y) ** 2) < np.mean((before - y) ** 2)


def test_boost_adds_the_round_its_gradients_give(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)

    def squared(preds, dataset):
        return preds - dataset.get_label(), np.ones_like(preds)

    bst = gpulayer.train(PARAMS, data, 2, obj=squared)
    same = bst.copy()
    seen = []  # the margins training hands the objective
    same.update(data, 2, fobj=lambda preds, dataset: squared(seen.append(preds) or preds,
                                                             dataset))
    grad, hess = squared(seen[0], data)
    bst.boost(data, 2, grad, hess)
    assert bst.num_rounds == 3
    assert bst.save_raw() == same.save_raw()
    # XGBoost's signature, the same call
    xbst = xgb.train(PARAMS, xgb.DMatrix(X, label=y), 2, obj=squared)
    xbst.boost(xgb.DMatrix(X, label=y), 2, grad=grad, hess=hess)
    again = bst.copy()
    again.boost(data, 3, grad=np.zeros_like(grad), hess=hess)
    assert again.num_rounds == 4
    assert xbst.num_boosted_rounds() == bst.num_boosted_rounds()


def test_boost_refuses_gradients_of_the_wrong_shape(reg):
    X, y = reg
    data = gpulayer.Dataset(X, label=y)
    bst = gpulayer.train(PARAMS, data, 1)
    with pytest.raises(gpulayer.errors.InvalidArgumentError, match="grad has shape .* hess has shape"):
        bst.boost(data, 1, np.zeros(len(y)), np.ones(len(y) - 1))
    with pytest.raises(gpulayer.errors.InvalidArgumentError, match="grad has shape"):
        bst.boost(data, 1, np.zeros(len(y) - 1), np.ones(len(y) - 1))
    with pytest.raises(gpulayer.errors.InvalidArgumentError, match="give grad and hess"):
        bst.boost(data, 1)
    with pytest.raises(gpulayer.errors.InvalidArgumentError, match="give both"):
        bst.boost(data, 1, grad=np.zeros(len(y)))
    assert bst.num_rounds == 1


# -------------------------------------------------------------- slicing

def base_margin(bst):
    """Each output's starting margin (a softmax model's class intercepts)."""
    doc = json.loads(bst.save_raw())
    return np.array(doc.get("base_margins", [doc["base_margin"]]), dtype=np.float32)


def test_slices_predict_as_their_rounds(multi):
    X, y = multi
    bst, xbst = both(X, y, {"objective": "multi:softprob", "num_class": 3, "max_depth": 2}, 6)
    base = base_margin(bst)
    for cut in (slice(1, 4), slice(0, 6, 2), slice(2, None)):
        part, xpart = bst[cut], xbst[cut]
        assert part.num_boosted_rounds() == xpart.num_boosted_rounds()
        # Each round's trees, alone with the base score, add up to the slice.
        margin = base + sum(bst[r].predict(X, output_margin=True) - base
                            for r in range(*cut.indices(6)))
        np.testing.assert_allclose(part.predict(X, output_margin=True), margin, atol=1e-5)
    np.testing.assert_array_equal(bst[0:3].predict(X), bst.predict(X, iteration_range=(0, 3)))
    assert len(list(bst)) == 6 and all(b.num_rounds == 1 for b in bst)
    assert bst[...].save_raw() == bst[0:6].save_raw()
    with pytest.raises(IndexError):
        bst[4:9]
    with pytest.raises(ValueError):
        bst[3:1]


def test_multi_softmax_slices_and_leaves_count_every_class(multi):
    """multi:softmax predicts one column but grows a tree a class a round."""
    X, y = multi
    bst = gpulayer.train({"objective": "multi:softmax", "num_class": 3, "max_depth": 2},
                         gpulayer.Dataset(X, y), 4)
    assert bst[0:2].num_rounds == 2
    np.testing.assert_array_equal(bst[0:2].predict(X), bst.predict(X, iteration_range=(0, 2)))
    np.testing.assert_array_equal(bst[1:3].predict(X), bst.predict(X, iteration_range=(1, 3)))
    assert bst.predict(X, pred_leaf=True).shape == (len(X), 12)


def test_slice_drops_best_round_keeps_other_attributes(multi):
    X, y = multi
    data = gpulayer.Dataset(X, label=(y > 0).astype(np.float32))
    bst = gpulayer.train({"objective": "binary:logistic", "eta": 1.0}, data, 40,
                         evals=[(data, "d")], early_stopping_rounds=1)
    bst.set_attr(owner="team")
    assert bst.best_iteration is not None
    part = bst[0:2]
    assert part.best_iteration is None and part.best_score is None
    assert part.attributes() == {"owner": "team"}


def test_iteration_range_from_a_later_round(multi):
    X, y = multi
    y = (y > 0).astype(np.float32)
    bst = gpulayer.train({"objective": "binary:logistic", "max_depth": 2},
                         gpulayer.Dataset(X, label=y), 6)
    full = bst.predict(X, output_margin=True, iteration_range=(0, 5))
    head = bst.predict(X, output_margin=True, iteration_range=(0, 2))
    tail = bst.predict(X, output_margin=True, iteration_range=(2, 5))
    np.testing.assert_allclose(tail, full - head + base_margin(bst), atol=1e-5)
    prob = bst.predict(X, iteration_range=(2, 5))
    np.testing.assert_allclose(prob, 1 / (1 + np.exp(-tail.astype(np.float64))), atol=1e-6)
    np.testing.assert_array_equal(bst.predict(X, iteration_range=(2, 0)),
                                  bst.predict(X, iteration_range=(2, 6)))


def test_pred_leaf_matches_xgboost_on_the_exported_model(multi, tmp_path):
    X, y = multi
    for params in ({"objective": "multi:softprob", "num_class": 3, "max_depth": 3},
                   {"max_depth": 4}):
        bst = gpulayer.train(params, gpulayer.Dataset(X, label=y), 4)
        path = tmp_path / "x.json"
        bst.export_xgboost(path)
        xbst = xgb.Booster(model_file=str(path))
        leaves = bst.predict(X, pred_leaf=True)
        xleaves = xbst.predict(xgb.DMatrix(X), pred_leaf=True)
        assert leaves.dtype == xleaves.dtype and leaves.shape == xleaves.shape
        np.testing.assert_array_equal(leaves, xleaves)
        np.testing.assert_array_equal(bst.predict(X, pred_leaf=True, iteration_range=(0, 2)),
                                      xleaves[:, :2 * bst.num_outputs])
        np.testing.assert_array_equal(bst.predict(X, pred_leaf=True, iteration_range=(1, 3)),
                                      xleaves[:, bst.num_outputs:3 * bst.num_outputs])


def test_pred_leaf_ignores_the_rows_base_margins(reg):
    X, y = reg
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 3)
    with_margin = gpulayer.Dataset(X, base_margin=np.full(len(X), 1000.0))
    np.testing.assert_array_equal(bst.predict(with_margin, pred_leaf=True),
                                  bst.predict(X, pred_leaf=True))


def test_docs_porting_md_names_only_methods_the_booster_has():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "porting.md").read_text()
    section = text.split("## XGBoost's `Booster` methods")[1].split("\n\n")[2]
    names = {n for row in section.splitlines()[2:]
             for n in re.findall(r"`(?:bst\.)?([a-z_]+)", row.split("|")[1])}
    names -= {"bst", "iter"}
    assert len(names) > 12
    for name in names:
        assert hasattr(gpulayer.Booster, name), name


def test_num_iteration_is_lightgbms_count_of_rounds():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(200, 3))
    y = X[:, 0] + rng.normal(size=200)
    bst = gpulayer.train({"nthread": 1}, gpulayer.Dataset(X, label=y), 6)
    np.testing.assert_array_equal(bst.predict(X, num_iteration=3), bst.predict(X, num_rounds=3))
    np.testing.assert_array_equal(bst.predict(X, num_iteration=0), bst.predict(X))
    with pytest.raises(ValueError, match="one of num_iteration"):
        bst.predict(X, num_iteration=2, num_rounds=3)
