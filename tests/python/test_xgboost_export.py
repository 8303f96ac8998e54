"""A model exported with `gpulayer export` predicts in XGBoost what gpulayer
predicts itself.

Drives the gpulayer command (GPULAYER_CLI, default build/gpulayer under the
repository root) on the shared scikit-learn data sets in ../shared/data:
train, predict, export, then loads the export with xgboost.Booster and
compares predictions row by row. Skipped when xgboost, the command or the
data are missing.
"""
import csv
import os
import pathlib
import subprocess
import zlib

import pytest

np = pytest.importorskip("numpy")
xgb = pytest.importorskip("xgboost")

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "sklearn_small"
TOLERANCE = 1e-6


def cli_path():
    path = pathlib.Path(os.environ.get("GPULAYER_CLI", "build/gpulayer"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.skip(f"gpulayer command not found at {path} (set GPULAYER_CLI)")
    return path


def data_file(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared data not present: {path}")
    return path


def run(*args):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited with {proc.returncode}:\n"
                    f"{proc.stderr}")
    return proc


def read_features(path, label):
    """The CSV's feature columns (all but the label) as float32, NaN for
    empty fields."""
    with open(path, newline="") as f:
        header = next(csv.reader(f))
    values = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=np.float64)
    keep = [i for i, name in enumerate(header) if name != label]
    return values[:, keep].astype(np.float32)


def read_feature_names(path, label):
    with open(path, newline="") as f:
        return [name for name in next(csv.reader(f)) if name != label]


def read_predictions(path):
    return np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2)


CASES = [
    ("breast_cancer.csv", "binary:logistic", []),
    ("diabetes_raw.csv", "reg:squarederror", []),
    ("diabetes_raw.csv", "reg:absoluteerror", []),
    ("iris.csv", "multi:softprob", ["num_class=3"]),
    ("iris.csv", "multi:softmax", ["num_class=3"]),
]


@pytest.mark.parametrize("name,objective,extra", CASES,
                         ids=[f"{c[1]}-{c[0]}" for c in CASES])
def test_export_predicts_like_gpulayer(tmp_path, name, objective, extra):
    cli = cli_path()
    data = data_file(name)
    model = tmp_path / "model.json"
    exported = tmp_path / "xgboost.json"
    params = ["num_round=20", "max_depth=4"] + extra
    param_args = [a for p in params for a in ("--param", p)]
    run(cli, "train", "--data", data, "--label", "target", "--objective",
        objective, "--model", model, *param_args)
    run(cli, "export", "--model", model, "--output", exported)

    booster = xgb.Booster(model_file=str(exported))
    assert booster.feature_names == read_feature_names(data, "target")
    dmatrix = xgb.DMatrix(read_features(data, "target"), feature_names=booster.feature_names)
    for margin in (False, True):
        out = tmp_path / ("margin.csv" if margin else "pred.csv")
        run(cli, "predict", "--model", model, "--data", data, "--label",
            "target", "--output", out, *(["--margin"] if margin else []))
        ours = read_predictions(out)
        theirs = booster.predict(dmatrix, output_margin=margin)
        theirs = np.asarray(theirs, dtype=np.float64).reshape(ours.shape)
        worst = np.max(np.abs(ours - theirs))
        assert worst <= TOLERANCE, (
            f"{objective} on {name}: {'margins' if margin else 'predictions'} "
            f"differ from XGBoost's by up to {worst:g}")


def test_export_has_xgboost_structure(tmp_path):
    """The fields XGBoost itself writes, and children stored adjacently
    (XGBoost finds a right child at left child + 1)."""
    import json

    cli = cli_path()
    data = data_file("iris.csv")
    model = tmp_path / "model.json"
    exported = tmp_path / "xgboost.json"
    run(cli, "train", "--data", data, "--label", "target", "--objective",
        "multi:softprob", "--model", model, "--param", "num_round=3",
        "--param", "num_class=3")
    run(cli, "export", "--model", model, "--output", exported)
    doc = json.loads(exported.read_text())
    learner = doc["learner"]
    gbtree = learner["gradient_booster"]["model"]
    assert learner["objective"]["name"] == "multi:softprob"
    assert learner["objective"]["softmax_multiclass_param"]["num_class"] == "3"
    assert learner["learner_model_param"]["num_class"] == "3"
    assert gbtree["gbtree_model_param"]["num_trees"] == str(len(gbtree["trees"]))
    assert gbtree["tree_info"] == [t % 3 for t in range(len(gbtree["trees"]))]
    assert gbtree["iteration_indptr"] == [0, 3, 6, 9]
    for tree in gbtree["trees"]:
        left, right = tree["left_children"], tree["right_children"]
        assert tree["parents"][0] == 2147483647
        for node, child in enumerate(left):
            if child != -1:
                assert right[node] == child + 1
                assert tree["parents"][child] == node


SHARED = REPO.parent / "shared" / "data"
CATEGORICAL_CASES = [
    # file, label, objective, integer columns read as categories, columns
    # left out: categorical text columns with missing cells (credit),
    # ordinal ones of 5 to 8 levels (diamonds), and thousands of movies,
    # each its own bin (movielens) or the rarest sharing a group
    # (movielens-grouped, max_categories); the last field: parameters
    ("modeldata_credit/credit_data.csv", "Status", "binary:logistic", [], [], []),
    ("ggplot2_diamonds/diamonds.csv", "price", "reg:squarederror", [], [], []),
    ("dslabs_movielens/movielens.csv.gz", "relevance", "reg:squarederror",
     ["movieId", "userId"], ["rating", "title", "timestamp"], []),
    ("dslabs_movielens/movielens.csv.gz", "relevance", "reg:squarederror",
     ["movieId", "userId"], ["rating", "title", "timestamp"], ["max_categories=255"]),
]


@pytest.mark.parametrize("name,label,objective,as_categories,ignore,params", CATEGORICAL_CASES,
                         ids=[c[0].split("/")[0] + ("-grouped" if c[5] else "")
                              for c in CATEGORICAL_CASES])
def test_export_of_category_sets_predicts_like_gpulayer(tmp_path, name, label, objective,
                                                        as_categories, ignore, params):
    """Splits by sets of categories become XGBoost's categorical splits:
    XGBoost predicts the export on pandas categories as gpulayer does."""
    import json

    pd = pytest.importorskip("pandas")
    cli = cli_path()
    data = SHARED / name
    if not data.exists():
        pytest.skip(f"shared data not present: {data}")
    model = tmp_path / "model.json"
    exported = tmp_path / "xgboost.json"
    extra = []
    if as_categories:
        extra += ["--categorical", ",".join(as_categories)]
    if ignore:
        extra += ["--ignore", ",".join(ignore)]
    for kv in params:
        extra += ["--param", kv]
    run(cli, "train", "--data", data, "--label", label, "--objective", objective,
        "--model", model, "--param", "num_round=30", "--param", "max_depth=5",
        "--param", "max_cat_to_onehot=2", *extra)
    if as_categories:
        groups = json.loads(model.read_text()).get("category_groups")
        assert bool(groups) == bool(params), "grouped" if groups else "no category was grouped"
    run(cli, "export", "--model", model, "--output", exported)
    trees = json.loads(exported.read_text())["learner"]["gradient_booster"]["model"]["trees"]
    assert sum(len(t["categories_nodes"]) for t in trees) > 0, "no categorical split exported"

    frame = pd.read_csv(data).drop(columns=[label, *ignore])
    for col in frame.columns:
        if col in as_categories:
            # gpulayer reads their values as names: sorted as text.
            frame[col] = frame[col].astype(str).astype("category")
        elif not pd.api.types.is_numeric_dtype(frame[col]):
            frame[col] = frame[col].astype("category")
    booster = xgb.Booster(model_file=str(exported))
    dmatrix = xgb.DMatrix(frame, enable_categorical=True)
    out = tmp_path / "margin.csv"
    run(cli, "predict", "--model", model, "--data", data, "--label", label,
        "--output", out, "--margin")
    ours = read_predictions(out)[:, 0]
    theirs = np.asarray(booster.predict(dmatrix, output_margin=True), dtype=np.float64)
    worst = np.max(np.abs(ours - theirs))
    assert worst <= 1e-4 * max(1.0, np.max(np.abs(ours))), (
        f"{name}: margins differ from XGBoost's by up to {worst:g}")


def test_export_predicts_in_xgboost_with_the_models_categories(tmp_path):
    """docs/categorical.md: pandas categories in the order of
    Booster.categories(f) let XGBoost predict a frame that lacks some
    categories of the training data, and unseen ones go the missing way."""
    pd = pytest.importorskip("pandas")
    import gpulayer

    rng = np.random.default_rng(11)
    shops = [f"shop{i:02d}" for i in range(12)]
    shop = rng.choice(shops, 3000)
    x = rng.normal(size=3000)
    y = np.isin(shop, shops[::3]) * 2.0 + (shop == "shop05") * 1.0 + 0.3 * x
    train = pd.DataFrame({"x": x, "shop": pd.Categorical(shop)})
    bst = gpulayer.train({"max_depth": 4, "device": "cpu", "nthread": 2},
                         gpulayer.Dataset(train, label=y), 20)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    test = pd.DataFrame({"x": x[:40], "shop": np.where(np.arange(40) % 7 == 0, "new",
                                                        np.where(shop[:40] == "shop00",
                                                                 "shop01", shop[:40]))})
    ours = bst.predict(test, output_margin=True)
    names = bst.categories(1)
    frame = test.assign(shop=pd.Categorical(test["shop"].where(test["shop"].isin(names)),
                                            categories=names))
    theirs = xgb.Booster(model_file=str(path)).predict(
        xgb.DMatrix(frame, enable_categorical=True), output_margin=True)
    np.testing.assert_allclose(theirs, ours, rtol=1e-5, atol=1e-5)


def objective_data(objective, rows=600):
    """Features with missing cells, a weight and a label that the objective
    takes: counts, positive prices, 0/1 or classes."""
    rng = np.random.default_rng(zlib.crc32(objective.encode()))
    x = rng.normal(size=(rows, 4))
    signal = 0.8 * x[:, 0] - 0.5 * x[:, 1] + 0.3 * x[:, 2] * x[:, 3]
    if objective == "count:poisson":
        label = rng.poisson(np.exp(0.5 + 0.6 * signal)).astype(float)
    elif objective in ("reg:gamma", "reg:tweedie", "reg:squaredlogerror"):
        label = np.exp(1.0 + 0.7 * signal) * rng.gamma(4.0, 0.25, rows)
        if objective == "reg:tweedie":
            label[rng.random(rows) < 0.3] = 0.0
    elif objective.startswith("binary:") or objective == "reg:logistic":
        label = (signal + rng.logistic(size=rows) * 0.5 > 0).astype(float)
    elif objective.startswith("multi:"):
        label = np.digitize(signal + rng.normal(size=rows) * 0.3, [-0.5, 0.5]).astype(float)
    else:
        label = 3.0 + 2.0 * signal + rng.standard_t(3, rows)
    x[rng.random(x.shape) < 0.15] = np.nan
    weight = rng.uniform(0.2, 3.0, rows)
    return x.astype(np.float32), label, weight


def write_csv(path, columns):
    names = list(columns)
    values = np.column_stack([np.asarray(columns[n], dtype=np.float64) for n in names])
    with open(path, "w") as f:
        f.write(",".join(names) + "\n")
        for row in values:
            f.write(",".join("" if np.isnan(v) else repr(float(v)) for v in row) + "\n")


OBJECTIVE_CASES = [
    ("reg:squarederror", []),
    ("reg:absoluteerror", []),
    ("reg:quantileerror", ["quantile_alpha=0.3"]),
    ("reg:quantileerror", ["quantile_alpha=[0.1,0.5,0.9]"]),
    ("count:poisson", []),
    ("count:poisson", ["max_delta_step=0.4"]),
    ("reg:gamma", []),
    ("reg:tweedie", []),
    ("reg:tweedie", ["tweedie_variance_power=1.2"]),
    ("reg:squaredlogerror", []),
    ("reg:pseudohubererror", ["huber_slope=2.5"]),
    ("reg:logistic", []),
    ("binary:logistic", []),
    ("binary:logistic", ["scale_pos_weight=3.5"]),
    ("binary:logitraw", []),
    ("binary:hinge", []),
    ("multi:softprob", ["num_class=3"]),
    ("survival:cox", []),
    ("reg:squarederror", ["monotone_constraints=(1,-1,0,1)", "max_delta_step=0.3"]),
    ("reg:quantileerror", ["quantile_alpha=0.7", "monotone_constraints=(-1,1)"]),
    ("multi:softprob", ["num_class=3", "monotone_constraints=(1,0,-1)"]),
]


@pytest.mark.parametrize("objective,extra", OBJECTIVE_CASES,
                         ids=[c[0] + "".join("-" + e for e in c[1]) for c in OBJECTIVE_CASES])
def test_export_of_every_objective_predicts_like_gpulayer(tmp_path, objective, extra):
    """Weighted rows with missing values: XGBoost 3.2 loading the export
    gives our margins and our transformed predictions."""
    cli = cli_path()
    x, label, weight = objective_data(objective)
    features = {f"f{j}": x[:, j] for j in range(x.shape[1])}
    train, rows = tmp_path / "train.csv", tmp_path / "rows.csv"
    write_csv(train, {"y": label, "w": weight, **features})
    write_csv(rows, {"y": label, **features})
    model, exported = tmp_path / "model.json", tmp_path / "xgboost.json"
    params = ["num_round=15", "max_depth=4", "nthread=2"] + extra
    run(cli, "train", "--data", train, "--label", "y", "--weight", "w", "--objective",
        objective, "--model", model, "--quiet",
        *[a for p in params for a in ("--param", p)])
    run(cli, "export", "--model", model, "--output", exported)

    booster = xgb.Booster(model_file=str(exported))
    assert booster.feature_names == list(features)
    dmatrix = xgb.DMatrix(x, missing=np.nan, feature_names=list(features))
    for margin in (True, False):
        out = tmp_path / ("margin.csv" if margin else "pred.csv")
        run(cli, "predict", "--model", model, "--data", rows, "--label", "y",
            "--output", out, *(["--margin"] if margin else []))
        ours = read_predictions(out)
        theirs = booster.predict(dmatrix, output_margin=margin)
        theirs = np.asarray(theirs, dtype=np.float64).reshape(ours.shape)
        worst = np.max(np.abs(ours - theirs) / np.maximum(1.0, np.abs(ours)))
        assert worst <= TOLERANCE, (
            f"{objective} {extra}: {'margins' if margin else 'predictions'} differ "
            f"from XGBoost's by up to {worst:g} (relative)")
    constraints = [e.split("=")[1] for e in extra if e.startswith("monotone_constraints=")]
    assert booster.attr("monotone_constraints") == (constraints[0] if constraints else None)


def xgboost_saved_objective(objective, extra):
    """The objective member and learner_model_param of a model XGBoost
    itself trains with these parameters."""
    import json

    x, label, _ = objective_data(objective, rows=100)
    params = {"objective": objective}
    for item in extra:
        key, value = item.split("=")
        params[key] = ([float(v) for v in value.strip("[]").split(",")]
                       if value.startswith("[") else value if value.startswith("(")
                       else float(value))
    if "num_class" in params:
        params["num_class"] = int(params["num_class"])
    booster = xgb.train(params, xgb.DMatrix(x, label), 1)
    learner = json.loads(booster.save_raw("json"))["learner"]
    return learner["objective"], learner["learner_model_param"]


@pytest.mark.parametrize("objective,extra", OBJECTIVE_CASES,
                         ids=[c[0] + "".join("-" + e for e in c[1]) for c in OBJECTIVE_CASES])
def test_export_writes_the_objective_as_xgboost_saves_it(tmp_path, objective, extra):
    """The objective, its parameter object and the number of targets are
    those of a model XGBoost trains with the same parameters."""
    import json

    cli = cli_path()
    x, label, weight = objective_data(objective, rows=100)
    train = tmp_path / "train.csv"
    write_csv(train, {"y": label, **{f"f{j}": x[:, j] for j in range(x.shape[1])}})
    model, exported = tmp_path / "model.json", tmp_path / "xgboost.json"
    run(cli, "train", "--data", train, "--label", "y", "--objective", objective,
        "--model", model, "--quiet", "--param", "num_round=1",
        *[a for p in extra for a in ("--param", p)])
    run(cli, "export", "--model", model, "--output", exported)
    learner = json.loads(exported.read_text())["learner"]
    objective_json, model_param = xgboost_saved_objective(objective, extra)
    assert learner["objective"] == objective_json
    assert learner["learner_model_param"]["num_target"] == model_param["num_target"]
    assert learner["learner_model_param"]["num_class"] == model_param["num_class"]
    theirs = model_param["base_score"]
    ours = learner["learner_model_param"]["base_score"]
    if objective == "reg:quantileerror" and "," in theirs:
        # one base_score per quantile; softmax models keep one margin,
        # which XGBoost gives every class
        assert ours.startswith("[") and ours.count(",") == theirs.count(",")


def xgboost_types(bst):
    """Our feature types as the export writes them: "c", or "float" for a
    numeric feature ("q" in Booster.feature_types)."""
    return ["c" if t == "c" else "float" for t in bst.feature_types]


def check_xgboost_tools(booster, names):
    """get_dump (text and JSON), trees_to_dataframe and get_score work on
    the export and speak of the features by these names."""
    import json

    text = "\n".join(booster.get_dump(with_stats=True))
    used = {n for n in names if f"[{n}<" in text or f"[{n}:" in text}
    assert used, "the dump names no feature"
    assert not any(f"[f{j}<" in text or f"[f{j}:" in text for j in range(len(names))
                   if f"f{j}" not in names)
    dumped = [json.loads(t) for t in booster.get_dump(dump_format="json")]
    assert len(dumped) == len(booster.get_dump())
    frame = booster.trees_to_dataframe()
    assert set(frame["Feature"]) - {"Leaf"} == used
    assert set(booster.get_score(importance_type="weight")) == used
    return frame


def categorical_frame(rows=2000, seed=5):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    shops = [f"shop{i:02d}" for i in range(9)]
    shop = rng.choice(shops, rows)
    colour = rng.choice(["red", "green", "blue", "grey"], rows)
    x = rng.normal(size=rows)
    z = rng.normal(size=rows)
    x[rng.random(rows) < 0.1] = np.nan
    y = (np.isin(shop, shops[::3]) * 2.0 + (colour == "blue") * 1.5 + 0.5 * np.nan_to_num(x)
         - 0.3 * z)
    frame = pd.DataFrame({"x": x, "shop": pd.Categorical(shop), "z": z,
                          "colour": pd.Categorical(colour)})
    return frame, y


def in_model_order(bst, frame):
    """The frame's categorical columns as pandas categories in the model's
    order (docs/categorical.md)."""
    pd = pytest.importorskip("pandas")
    out = frame.copy()
    for f, col in enumerate(frame.columns):
        names = bst.categories(f)
        if names is not None:
            out[col] = pd.Categorical(frame[col].astype(str), categories=names)
    return out


def test_export_of_a_named_numeric_model_carries_the_names(tmp_path):
    pd = pytest.importorskip("pandas")
    import gpulayer

    x, label, _ = objective_data("reg:squarederror")
    names = ["age", "income", "height_cm", "score.2"]
    frame = pd.DataFrame(x, columns=names)
    bst = gpulayer.train({"max_depth": 4, "nthread": 2, "device": "cpu"},
                         gpulayer.Dataset(frame, label=label), 10)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    booster = xgb.Booster(model_file=str(path))
    assert booster.feature_names == bst.feature_names == names
    assert booster.feature_types == xgboost_types(bst) == ["float"] * 4
    check_xgboost_tools(booster, names)
    theirs = booster.predict(xgb.DMatrix(frame), output_margin=True)
    np.testing.assert_allclose(theirs, bst.predict(frame, output_margin=True),
                               rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("ordered", [False, True], ids=["sets", "ordered"])
def test_export_of_a_named_categorical_model_carries_names_and_types(tmp_path, ordered):
    """Categorical features are typed "c"; a model split on ordered codes
    exports categorical splits too, which XGBoost's dumps require."""
    import gpulayer

    frame, y = categorical_frame()
    params = {"max_depth": 4, "nthread": 2, "device": "cpu", "max_cat_to_onehot": 2}
    if ordered:
        params["categorical"] = "ordered"
    bst = gpulayer.train(params, gpulayer.Dataset(frame, label=y), 15)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    booster = xgb.Booster(model_file=str(path))
    assert booster.feature_names == bst.feature_names == list(frame.columns)
    assert booster.feature_types == xgboost_types(bst) == ["float", "c", "float", "c"]
    table = check_xgboost_tools(booster, list(frame.columns))
    splits = table[table["Feature"].isin(["shop", "colour"])]
    assert len(splits) > 0 and splits["Category"].notna().all()
    data = in_model_order(bst, frame).rename(columns={"x<0": "x"})
    theirs = booster.predict(xgb.DMatrix(data, enable_categorical=True), output_margin=True)
    np.testing.assert_allclose(theirs, bst.predict(frame, output_margin=True),
                               rtol=1e-5, atol=1e-5)


def test_export_of_an_unnamed_categorical_model_keeps_the_types(tmp_path):
    """Without names the export still types each feature, so that XGBoost
    loads its categorical splits and dumps them under f0, f1..."""
    import json

    import gpulayer

    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(size=1500), rng.integers(0, 6, 1500),
                         rng.normal(size=1500)]).astype(np.float32)
    y = x[:, 0] + np.isin(x[:, 1], [1, 4]) * 2.0 - 0.5 * x[:, 2]
    bst = gpulayer.train({"max_depth": 4, "nthread": 2, "device": "cpu"},
                         gpulayer.Dataset(x, label=y, categorical_feature=[1]), 10)
    assert bst.feature_names is None
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    learner = json.loads(path.read_text())["learner"]
    assert learner["feature_names"] == []
    assert learner["feature_types"] == ["float", "c", "float"]
    booster = xgb.Booster(model_file=str(path))
    assert booster.feature_names is None
    assert booster.feature_types == xgboost_types(bst)
    table = check_xgboost_tools(booster, ["f0", "f1", "f2"])
    assert table[table["Feature"] == "f1"]["Category"].notna().all()
    # the values 0..5 are the codes of their names "0".."5"
    assert bst.categories(1) == [str(v) for v in range(6)]
    theirs = booster.predict(xgb.DMatrix(x), output_margin=True)
    np.testing.assert_allclose(theirs, bst.predict(x, output_margin=True),
                               rtol=1e-6, atol=1e-6)


def test_export_leaves_out_names_xgboost_refuses(tmp_path):
    """Names with '[', ']' or '<', which XGBoost refuses, are left out; the
    types stay."""
    import gpulayer

    frame, y = categorical_frame(rows=600)
    frame = frame.rename(columns={"x": "x<0"})
    bst = gpulayer.train({"max_depth": 3, "nthread": 2, "device": "cpu"},
                         gpulayer.Dataset(frame, label=y), 5)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    booster = xgb.Booster(model_file=str(path))
    assert booster.feature_names is None
    assert booster.feature_types == ["float", "c", "float", "c"]
    check_xgboost_tools(booster, ["f0", "f1", "f2", "f3"])
    # a model without names takes a frame with any names
    data = in_model_order(bst, frame).rename(columns={"x<0": "x"})
    theirs = booster.predict(xgb.DMatrix(data, enable_categorical=True), output_margin=True)
    np.testing.assert_allclose(theirs, bst.predict(frame, output_margin=True),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("objective", ["reg:squarederror", "binary:logistic",
                                       "multi:softprob", "categorical"])
def test_shap_tree_explainer_on_the_export_gives_our_contributions(tmp_path, objective):
    """shap.TreeExplainer on the export of a named model gives GPUlayer's
    pred_contribs and bias. shap turns a frame of pandas categories into
    an XGBoost DMatrix without enable_categorical, so the categorical
    model is explained on a DMatrix."""
    shap = pytest.importorskip("shap")
    pd = pytest.importorskip("pandas")
    import gpulayer

    params = {"max_depth": 4, "nthread": 2, "device": "cpu"}
    if objective == "categorical":
        frame, label = categorical_frame(rows=800)
        params["max_cat_to_onehot"] = 2
    else:
        x, label, _ = objective_data(objective, rows=400)
        frame = pd.DataFrame(x, columns=["age", "income", "height", "score"])
        params["objective"] = objective
        if objective.startswith("multi:"):
            params["num_class"] = 3
    bst = gpulayer.train(params, gpulayer.Dataset(frame, label=label), 8)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(path)
    explainer = shap.TreeExplainer(xgb.Booster(model_file=str(path)))
    data = (xgb.DMatrix(in_model_order(bst, frame), enable_categorical=True)
            if objective == "categorical" else frame)
    theirs = np.asarray(explainer.shap_values(data), dtype=np.float64)
    ours = np.asarray(bst.predict(frame, pred_contribs=True), dtype=np.float64)
    if objective.startswith("multi:"):
        # shap: rows x features x classes; ours: rows x classes x (features + 1)
        ours = ours.reshape(len(frame), 3, -1)
        theirs = np.moveaxis(theirs, -1, 1)
    np.testing.assert_allclose(theirs, ours[..., :-1], rtol=0, atol=1e-5)
    np.testing.assert_allclose(np.asarray(explainer.expected_value, dtype=np.float64)
                               .reshape(-1), ours[0, ..., -1].reshape(-1), rtol=0, atol=1e-5)
