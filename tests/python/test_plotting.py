"""Pictures of a model: plot_importance, plot_metric, to_graphviz and
plot_tree, drawn with matplotlib's Agg backend and checked for what they
show; the errors when matplotlib or graphviz is missing."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpulayer

ROOT = Path(__file__).resolve().parents[2]

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is not installed "
                                 "(pip install gpulayer[plot])")
matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "nthread": 2, "device": "cpu"}
NAMES = ["noise", "strong", "weak", "middle"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(2000, 4)).astype(np.float32)
    margin = 3 * X[:, 1] + 0.4 * X[:, 2] + 1.2 * X[:, 3] + 0.8 * rng.normal(size=2000)
    y = (margin > 0).astype(np.float32)
    train = gpulayer.Dataset(X[:1500], label=y[:1500], feature_names=NAMES)
    valid = gpulayer.Dataset(X[1500:], label=y[1500:], feature_names=NAMES)
    return train, valid


@pytest.fixture(scope="module")
def booster(data):
    return gpulayer.train(PARAMS, data[0], 10)


def png_pixels(figure, path):
    """The figure saved as PNG and read back: RGB values in [0, 1]."""
    figure.savefig(path, dpi=50)
    return matplotlib.image.imread(path)[..., :3]


def has_ink(pixels):
    return bool((pixels < 0.9).any())


# ------------------------------------------------------------ importance

def bars(ax):
    """(label, bar length) from the bottom up."""
    labels = [t.get_text() for t in ax.get_yticklabels()]
    return list(zip(labels, [p.get_width() for p in ax.patches]))


@pytest.mark.parametrize("kind", ["weight", "gain", "total_cover"])
def test_importance_bars_largest_on_top(booster, kind, tmp_path):
    scores = booster.feature_importance(kind)
    ax = gpulayer.plot_importance(booster, importance_type=kind)
    shown = bars(ax)
    expected = sorted(((NAMES[f], s) for f, s in enumerate(scores) if s > 0),
                      key=lambda p: p[1])
    assert [label for label, _ in shown] == [name for name, _ in expected]
    assert np.allclose([w for _, w in shown], [s for _, s in expected])
    assert shown[-1][0] == "strong"  # on top
    assert [p.get_y() + p.get_height() / 2 for p in ax.patches] == list(range(len(shown)))
    assert [t.get_text() for t in ax.texts] == [f"{s:g}" for _, s in expected]
    assert ax.get_title() == "Feature importance"
    assert has_ink(png_pixels(ax.figure, tmp_path / "importance.png"))


def test_importance_options(booster):
    scores = booster.feature_importance("weight")
    fig, ax = plt.subplots()
    out = gpulayer.plot_importance(booster, ax=ax, max_num_features=2, show_values=False,
                                   title=None, xlabel="splits", color="red")
    assert out is ax
    top_two = sorted(scores)[-2:]
    assert [w for _, w in bars(ax)] == top_two
    assert len(ax.texts) == 0 and ax.get_title() == "" and ax.get_xlabel() == "splits"
    assert ax.patches[0].get_facecolor()[:3] == (1.0, 0.0, 0.0)
    # Unused features are left out unless asked for.
    if (scores == 0).any():
        all_bars = bars(gpulayer.plot_importance(booster, ignore_zero=False))
        assert len(all_bars) == len(NAMES)
    with pytest.raises(ValueError, match="importance_type"):
        gpulayer.plot_importance(booster, importance_type="splits")
    with pytest.raises(ValueError, match="max_num_features"):
        gpulayer.plot_importance(booster, max_num_features=0)


def test_importance_of_unnamed_features_dicts_and_estimators(data):
    X = np.random.default_rng(1).normal(size=(500, 3)).astype(np.float32)
    bst = gpulayer.train({"max_depth": 2}, gpulayer.Dataset(X, label=X[:, 2] * 2 + X[:, 0]), 3)
    labels = [label for label, _ in bars(gpulayer.plot_importance(bst, importance_type="gain"))]
    assert labels[-1] == "f2" and set(labels) <= {"f0", "f1", "f2"}
    assert bars(gpulayer.plot_importance({"a": 2.0, "b": 5.0})) == [("a", 2.0), ("b", 5.0)]
    with pytest.raises(TypeError, match="Booster or a fitted estimator"):
        gpulayer.plot_importance([1, 2])
    pytest.importorskip("sklearn")
    clf = gpulayer.GPULayerClassifier(n_estimators=5, max_depth=3).fit(X, X[:, 1] > 0)
    weights = clf.get_booster().feature_importance("weight")
    assert [w for _, w in bars(gpulayer.plot_importance(clf))] == sorted(
        w for w in weights if w > 0)


# --------------------------------------------------------------- metrics

@pytest.fixture(scope="module")
def history(data):
    train, valid = data
    result = {}
    bst = gpulayer.train(dict(PARAMS, eval_metric=["logloss", "auc"], eta=0.5), train, 30,
                         evals=[(valid, "valid"), (train, "train")], evals_result=result)
    return bst, result


def curves(ax):
    """{label: (x, y)} of the drawn learning curves."""
    return {line.get_label(): (list(line.get_xdata()), list(line.get_ydata()))
            for line in ax.lines if line.get_gid() != "best_round"}


def best_marker(ax):
    marks = [line for line in ax.lines if line.get_gid() == "best_round"]
    assert len(marks) == 1
    x = marks[0].get_xdata()
    assert x[0] == x[1]  # vertical
    return x[0]


def test_every_set_and_metric_with_the_best_round(history, tmp_path):
    _, result = history
    axes = gpulayer.plot_metric(result)
    assert len(axes) == 2 and axes[0].figure is axes[1].figure
    for ax, metric in zip(axes, ["logloss", "auc"]):
        assert ax.get_ylabel() == metric
        shown = curves(ax)
        assert set(shown) == {"valid", "train"}
        for name, (x, y) in shown.items():
            assert x == list(range(30)) and np.allclose(y, result[name][metric])
    # Judged on the first evaluation set: the lowest logloss, the highest auc.
    assert best_marker(axes[0]) == int(np.argmin(result["valid"]["logloss"]))
    assert best_marker(axes[1]) == int(np.argmax(result["valid"]["auc"]))
    assert has_ink(png_pixels(axes[0].figure, tmp_path / "curves.png"))


def test_one_metric_some_sets(history):
    _, result = history
    ax = gpulayer.plot_metric(result, metric="auc", dataset_names=["train"],
                              ylabel="@metric@ score", mark_best=False)
    assert set(curves(ax)) == {"train"} and ax.get_ylabel() == "auc score"
    assert not [line for line in ax.lines if line.get_gid() == "best_round"]
    fig, given = plt.subplots(1, 2)
    assert gpulayer.plot_metric(result, ax=given) == list(given)
    with pytest.raises(ValueError, match="no metric 'rmse'.*logloss"):
        gpulayer.plot_metric(result, metric="rmse")
    with pytest.raises(ValueError, match="no evaluation set named 'test'"):
        gpulayer.plot_metric(result, dataset_names=["test"])
    with pytest.raises(ValueError, match="2 metrics to draw .*metric="):
        gpulayer.plot_metric(result, ax=given[0])
    with pytest.raises(ValueError, match="history is empty"):
        gpulayer.plot_metric({})


def test_best_round_from_early_stopping(data):
    train, valid = data
    result = {}
    bst = gpulayer.train(dict(PARAMS, eval_metric=["auc", "logloss"], eta=1.0, max_depth=6),
                         train, 200, evals=[(train, "train"), (valid, "valid")],
                         early_stopping_rounds=3, evals_result=result)
    assert bst.best_iteration is not None
    rounds = len(result["valid"]["logloss"])
    assert rounds < 200
    # Early stopping watched the valid set; the train set, drawn first,
    # keeps improving to the last round.
    assert int(np.argmin(result["train"]["logloss"])) != bst.best_iteration
    ax = gpulayer.plot_metric(result, metric="logloss", booster=bst)
    assert best_marker(ax) == bst.best_iteration
    assert all(len(x) == rounds for x, _ in curves(ax).values())


def test_an_estimator_carries_its_history_and_best_round(data):
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(5)
    X = rng.normal(size=(1200, 3)).astype(np.float32)
    y = X[:, 0] + 0.5 * rng.normal(size=1200)
    reg = gpulayer.GPULayerRegressor(n_estimators=300, learning_rate=0.8, max_depth=6,
                                     early_stopping_rounds=3)
    reg.fit(X[:800], y[:800], eval_set=[(X[800:], y[800:])])
    ax = gpulayer.plot_metric(reg)
    (name, (x, _)), = curves(ax).items()
    assert len(x) == len(reg.evals_result_[name]["rmse"])
    assert best_marker(ax) == reg.get_booster().best_iteration


# ----------------------------------------------------------------- trees


@pytest.fixture(scope="module")
def graphviz():
    return pytest.importorskip("graphviz", reason="graphviz (the Python package) is not "
                               "installed (pip install gpulayer[plot])")

NODE = re.compile(r'^\t(\d+) \[label=(?:"((?:[^"\\]|\\.)*)"|(\S+))')
EDGE = re.compile(r'^\t(\d+) -> (\d+) \[label=(?:"([^"]*)"|(\S+))')
DUMP = re.compile(r"^\t*(\d+):(?:\[(.*)\] yes=(\d+),no=(\d+),missing=(\d+)|leaf=(\S+))")


def graph_nodes(graph):
    """{node: label} and {(parent, child): edge label} of a graph."""
    nodes, edges = {}, {}
    for line in graph.body:
        if m := EDGE.match(line):
            edges[int(m[1]), int(m[2])] = m[3] or m[4]
        elif m := NODE.match(line):
            nodes[int(m[1])] = m[2] if m[2] is not None else m[3]
    return nodes, edges


def dump_nodes(text):
    """The same from the text dump."""
    nodes, edges = {}, {}
    for line in text.splitlines():
        m = DUMP.match(line)
        node = int(m[1])
        if m[6] is not None:
            nodes[node] = f"leaf={m[6]}"
            continue
        nodes[node] = m[2]
        yes, no, missing = int(m[3]), int(m[4]), int(m[5])
        edges[node, yes] = "yes, missing" if missing == yes else "yes"
        edges[node, no] = "no, missing" if missing == no else "no"
    return nodes, edges


def test_tree_labels_and_edges(graphviz, booster):
    graph = gpulayer.to_graphviz(booster, tree=0)
    assert isinstance(graph, graphviz.Digraph)
    nodes, edges = graph_nodes(graph)
    assert nodes == dump_nodes(booster.get_dump()[0])[0]
    assert nodes[0].startswith("strong<")  # the strongest feature splits first
    leaves = [label for label in nodes.values() if label.startswith("leaf=")]
    tree = json.loads(booster.save_raw())["trees"][0]
    assert len(leaves) == sum(1 for left in tree["left"] if left < 0)
    assert edges == dump_nodes(booster.get_dump()[0])[1]
    assert set(edges.values()) <= {"yes", "no", "yes, missing", "no, missing"}


def categorical_frame(seed=4, rows=3000):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    cities = np.array([f"city{i:02d}" for i in range(40)])
    frame = pd.DataFrame({"city": rng.choice(cities, rows),
                          "colour": rng.choice(["blue", "green", "red"], rows),
                          "x": rng.normal(size=rows)})
    frame.loc[rng.random(rows) < 0.05, "x"] = np.nan
    code = np.searchsorted(cities, frame["city"])
    y = (code % 3 == 0) * 2.0 + (frame["colour"] == "red") + np.nan_to_num(frame["x"])
    return frame, y


@pytest.mark.parametrize("params", [
    {},                                   # sets of categories
    {"max_bin": 16},                      # sets of category groups
    {"categorical": "ordered"},           # thresholds on category codes
])
def test_categorical_trees_match_the_dump(graphviz, params):
    frame, y = categorical_frame()
    bst = gpulayer.train(dict(params, max_depth=4, eta=0.5), gpulayer.Dataset(frame, label=y),
                         6)
    dumps = bst.get_dump()
    labels = set()
    for t, text in enumerate(dumps):
        nodes, edges = graph_nodes(gpulayer.to_graphviz(bst, tree=t))
        assert (nodes, edges) == dump_nodes(text)
        labels |= set(nodes.values())
    assert any(re.fullmatch(r"city in \{city\d\d(, city\d\d)*\}", label) for label in labels)
    assert any(re.fullmatch(r"colour in \{[a-z, ]+\}", label) for label in labels)
    assert "no, missing" in edges.values() or "yes, missing" in edges.values()


def test_tree_options(graphviz, booster):
    text = booster.get_dump(with_stats=True)[1]
    graph = gpulayer.to_graphviz(booster, tree_idx=1, rankdir="LR", with_stats=True,
                                 yes_color="green", leaf_node_params={"shape": "ellipse"},
                                 dpi=150)
    assert "rankdir=LR" in graph.source and "dpi=150" in graph.source
    nodes, edges = graph_nodes(graph)
    stats = re.search(r"gain=(\S+),cover=(\S+)", text.splitlines()[0])
    assert nodes[0].endswith(f"\\ngain={stats[1]}\\ncover={stats[2]}")
    assert 'color=green' in graph.source and "shape=ellipse" in graph.source
    with pytest.raises(ValueError, match="tree 10 does not exist; the model has 10 trees"):
        gpulayer.to_graphviz(booster, tree=10)


def test_multiclass_trees_follow_the_dump(graphviz):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(900, 3)).astype(np.float32)
    y = np.digitize(X[:, 0] + X[:, 1], [-0.5, 0.5]).astype(np.float32)
    bst = gpulayer.train({"objective": "multi:softprob", "num_class": 3, "max_depth": 2},
                         gpulayer.Dataset(X, label=y), 2)
    dumps = bst.get_dump()
    assert len(dumps) == 6
    for t in (0, 4, 5):
        assert graph_nodes(gpulayer.to_graphviz(bst, tree=t)) == dump_nodes(dumps[t])


@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz's dot program is not installed (Debian: graphviz)")
def test_plot_tree_draws_the_rendered_tree(graphviz, booster, tmp_path):
    fig, ax = plt.subplots(figsize=(8, 4))
    assert gpulayer.plot_tree(booster, tree=2, ax=ax) is ax
    (image,) = ax.get_images()
    pixels = np.asarray(image.get_array())[..., :3]
    png = graphviz.Source(gpulayer.to_graphviz(booster, tree=2).source).pipe(format="png")
    (tmp_path / "direct.png").write_bytes(png)
    assert pixels.shape == matplotlib.image.imread(tmp_path / "direct.png")[..., :3].shape
    assert has_ink(pixels) and (pixels > 0.9).any()
    assert not ax.axison
    assert has_ink(png_pixels(fig, tmp_path / "tree.png"))
    # Left to right, the leaves stack up: a narrower picture.
    across = gpulayer.plot_tree(booster, tree=2, rankdir="LR").get_images()[0].get_array()
    assert across.shape[1] / across.shape[0] < pixels.shape[1] / pixels.shape[0]


# ------------------------------------------------------- optional extras

def hide(monkeypatch, package):
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, package, None)


def test_without_matplotlib(monkeypatch, booster, history):
    hide(monkeypatch, "matplotlib")
    for call in (lambda: gpulayer.plot_importance(booster),
                 lambda: gpulayer.plot_metric(history[1]),
                 lambda: gpulayer.plot_tree(booster)):
        with pytest.raises(ImportError, match=r"needs matplotlib.*pip install gpulayer\[plot\]"):
            call()


def test_without_graphviz(monkeypatch, booster):
    hide(monkeypatch, "graphviz")
    for call in (lambda: gpulayer.to_graphviz(booster), lambda: gpulayer.plot_tree(booster)):
        with pytest.raises(ImportError, match=r"needs graphviz.*pip install graphviz"):
            call()


def test_the_plot_extra_names_both_packages():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text())["project"]
    extra = project["optional-dependencies"]["plot"]
    assert {re.split(r"[<>=!~ ]", req)[0] for req in extra} == {"matplotlib", "graphviz"}


def test_importing_the_package_imports_neither():
    code = ("import sys, gpulayer; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('matplotlib', 'graphviz')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "python"))
                         ).stdout
    assert out.strip() == "[]"


# --------------------------------------------------------- README pictures

@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz's dot program is not installed (Debian: graphviz)")
def test_readme_pictures_are_drawn_and_shown(graphviz, tmp_path):
    pytest.importorskip("pandas")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "readme_pictures.py"),
                             "--out", str(tmp_path)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    # Early stopping on the test set ended the run before its last round.
    best, rounds = map(int, re.search(r"best round (\d+) of (\d+)", result.stdout).groups())
    assert 0 < best < rounds - 1
    readme = (ROOT / "README.md").read_text()
    for name in ("importance.png", "learning_curve.png", "tree.png"):
        drawn = matplotlib.image.imread(tmp_path / name)[..., :3]
        committed = matplotlib.image.imread(ROOT / "docs" / "images" / name)[..., :3]
        assert has_ink(drawn) and drawn.shape == committed.shape
        assert f"](docs/images/{name})" in readme
