"""Pictures of a model: feature importance, learning curves and trees, with
XGBoost's and LightGBM's names and defaults.

matplotlib and graphviz are optional (``pip install gpulayer[plot]``):
they are imported by the functions that draw, never with the package.
"""

from __future__ import annotations

import importlib
import re
from io import BytesIO
from typing import Mapping, NamedTuple, Sequence

import numpy as np

from . import _lib
from .booster import Booster
from .training import _is_maximize

__all__ = ["plot_importance", "plot_metric", "plot_tree", "to_graphviz"]


def _require(module: str, package: str, function: str):
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{function} needs {package}, an optional dependency of gpulayer: "
            f"pip install gpulayer[plot] (or pip install {package})") from exc


def _pyplot(function: str):
    return _require("matplotlib.pyplot", "matplotlib", function)


def _booster(model, function: str) -> Booster:
    """A Booster, or a fitted estimator's."""
    if isinstance(model, Booster):
        return model
    get_booster = getattr(model, "get_booster", None)
    if callable(get_booster):
        return get_booster()
    raise TypeError(f"{function}: expected a gpulayer.Booster or a fitted estimator, "
                    f"got {type(model).__name__}")


def _feature_label(model: Booster, f: int) -> str:
    """The feature's name, or f<index> for an unnamed one, as the dump
    writes it."""
    return _lib.take_buffer("gpulayer_booster_feature_label", model.handle, f).decode(
        "utf-8", "replace")


# ------------------------------------------------------------- importance


def plot_importance(booster, *, importance_type: str = "weight",
                    max_num_features: int | None = None, ax=None, height: float = 0.2,
                    xlim: tuple | None = None, ylim: tuple | None = None,
                    title: str | None = "Feature importance",
                    xlabel: str | None = "Importance score",
                    ylabel: str | None = "Features", ignore_zero: bool = True,
                    grid: bool = True, show_values: bool = True,
                    values_format: str = "{v:g}", **kwargs):
    """Horizontal bars of feature importance, the largest on top.

    Parameters
    ----------
    booster : Booster, fitted estimator or dict
        The model, or ``{feature name: importance}``.
    importance_type : str
        As :meth:`Booster.feature_importance`: 'weight' (splits on the
        feature), 'gain', 'cover', 'total_gain' or 'total_cover'.
    max_num_features : int, optional
        Show only this many, the largest.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    ignore_zero : bool
        Leave out features the trees never split on (XGBoost's get_score
        lists only those; LightGBM's ignore_zero).
    show_values, values_format
        Write each value at the end of its bar, formatted with
        ``values_format.format(v=value)``.
    height, xlim, ylim, title, xlabel, ylabel, grid
        As in xgboost.plot_importance; a None title or label is left out.
    **kwargs
        Passed to ``ax.barh``.

    Returns
    -------
    matplotlib Axes
    """
    plt = _pyplot("plot_importance")
    if isinstance(booster, Mapping):
        scores = {str(k): float(v) for k, v in booster.items()}
    else:
        model = _booster(booster, "plot_importance")
        values = model.feature_importance(importance_type)
        scores = {_feature_label(model, f): float(v) for f, v in enumerate(values)}
    if ignore_zero:
        scores = {k: v for k, v in scores.items() if v != 0}
    if not scores:
        raise ValueError("plot_importance: no feature has an importance to show "
                         "(the trees have no splits)")
    if max_num_features is not None and int(max_num_features) < 1:
        raise ValueError(f"max_num_features must be >= 1, got {max_num_features!r}")
    # Ascending, so that the largest lands at the top; ties read in feature
    # order from the top down.
    order = {k: i for i, k in enumerate(scores)}
    pairs = sorted(scores.items(), key=lambda kv: (kv[1], -order[kv[0]]))
    if max_num_features is not None:
        pairs = pairs[-int(max_num_features):]
    labels = [k for k, _ in pairs]
    values = np.array([v for _, v in pairs])

    if ax is None:
        _, ax = plt.subplots(1, 1)
    ylocs = np.arange(len(values))
    ax.barh(ylocs, values, align="center", height=height, **kwargs)
    if show_values:
        pad = 0.01 * float(np.max(np.abs(values)))
        for x, y in zip(values, ylocs):
            ax.text(x + pad, float(y), values_format.format(v=x), va="center")
    ax.set_yticks(ylocs)
    ax.set_yticklabels(labels)
    ax.set_xlim(_limits(xlim, "xlim", (0.0, float(values.max()) * 1.1 or 1.0)))
    ax.set_ylim(_limits(ylim, "ylim", (-1, len(values))))
    _titles(ax, title, xlabel, ylabel)
    ax.grid(grid)
    return ax


def _limits(given, name: str, default: tuple) -> tuple:
    if given is None:
        return default
    if not isinstance(given, tuple) or len(given) != 2:
        raise ValueError(f"{name} must be a tuple of 2 elements, got {given!r}")
    return given


def _titles(ax, title, xlabel, ylabel) -> None:
    if title is not None:
        ax.set_title(title)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)


# ---------------------------------------------------------------- metrics


def _best_round(values: Sequence[float], metric: str) -> int | None:
    """The round of the best value (the first on a tie), lower or higher
    being better by the metric's name as early stopping decides; None
    when every value is NaN."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0 or np.all(np.isnan(values)):
        return None
    return int(np.nanargmax(values) if _is_maximize(metric) else np.nanargmin(values))


def _history(evals_result) -> tuple[dict, Booster | None]:
    """The evaluation history and, for a fitted estimator, its booster."""
    if isinstance(evals_result, Mapping):
        return dict(evals_result), None
    history = getattr(evals_result, "evals_result_", None)
    if isinstance(history, Mapping):
        return dict(history), _booster(evals_result, "plot_metric")
    raise TypeError("plot_metric: evals_result must be the dict train(evals_result=...) "
                    "filled or a fitted estimator trained with eval_set, got "
                    f"{type(evals_result).__name__}")


def plot_metric(evals_result, metric: str | None = None,
                dataset_names: Sequence[str] | None = None, ax=None, *,
                booster=None, xlim: tuple | None = None, ylim: tuple | None = None,
                title: str | None = "Metric during training",
                xlabel: str | None = "Iterations", ylabel: str | None = "@metric@",
                figsize: tuple | None = None, dpi: int | None = None, grid: bool = True,
                mark_best: bool = True):
    """Learning curves: each evaluation set's metric after every round,
    with the best round marked by a dashed vertical line.

    Parameters
    ----------
    evals_result : dict or fitted estimator
        The history ``train(..., evals_result=...)`` filled,
        ``{set name: {metric: [value per round]}}``, or an estimator
        fitted with an eval_set (its ``evals_result_``).
    metric : str, optional
        The metric to draw; by default every metric, one axes each.
    dataset_names : list of str, optional
        The evaluation sets to draw; by default all of them.
    ax : matplotlib Axes, or a list of them, optional
        Where to draw: one Axes per metric. A new figure when None.
    booster : Booster or fitted estimator, optional
        Its ``best_iteration`` (early stopping's best round) is the round
        marked; an estimator given as evals_result is used the same way.
        Without one, the round marked is the best value of the first set
        drawn: the lowest, or the highest for auc, aucpr, ndcg, map and
        pre, as early stopping decides.
    mark_best : bool
        Draw the best round's line.
    xlim, ylim, title, xlabel, ylabel, figsize, dpi, grid
        As in lightgbm.plot_metric; ``@metric@`` in ylabel is replaced by
        the metric's name.

    Returns
    -------
    matplotlib Axes, or a list of them when several metrics are drawn.
    """
    plt = _pyplot("plot_metric")
    history, model = _history(evals_result)
    if booster is not None:
        model = _booster(booster, "plot_metric")
    if not history:
        raise ValueError("plot_metric: the evaluation history is empty "
                         "(train with evals=[...] and evals_result={})")
    names = list(history) if dataset_names is None else list(dataset_names)
    if not names:
        raise ValueError("plot_metric: dataset_names is empty")
    for name in names:
        if name not in history:
            raise ValueError(f"plot_metric: no evaluation set named {name!r} in the "
                             f"history; it has {list(history)}")
    metrics = list(dict.fromkeys(m for n in names for m in history[n]))
    if metric is not None:
        if metric not in metrics:
            raise ValueError(f"plot_metric: no metric {metric!r} in the history; it has "
                             f"{metrics}")
        metrics = [metric]

    if ax is None:
        _, made = plt.subplots(1, len(metrics), squeeze=False, dpi=dpi,
                               figsize=figsize or (6.4 * len(metrics), 4.8))
        axes = list(made[0])
    else:
        axes = list(ax) if isinstance(ax, (list, tuple, np.ndarray)) else [ax]
        if len(axes) != len(metrics):
            raise ValueError(
                f"plot_metric: {len(metrics)} metrics to draw ({', '.join(metrics)}) "
                f"need as many axes, got {len(axes)}; name one with metric=")
    fixed_best = model.best_iteration if model is not None else None

    for axes_i, name in zip(axes, metrics):
        sets = [n for n in names if name in history[n]]
        for n in sets:
            values = history[n][name]
            axes_i.plot(np.arange(len(values)), values, label=n)
        best = (fixed_best if fixed_best is not None
                else _best_round(history[sets[0]][name], name))
        if mark_best and best is not None:
            line = axes_i.axvline(best, color="gray", linestyle="--", linewidth=1,
                                  label=f"best round ({best})")
            line.set_gid("best_round")
        axes_i.legend(loc="best")
        if xlim is not None:
            axes_i.set_xlim(_limits(xlim, "xlim", None))
        if ylim is not None:
            axes_i.set_ylim(_limits(ylim, "ylim", None))
        _titles(axes_i, title, xlabel,
                ylabel.replace("@metric@", name) if ylabel is not None else None)
        axes_i.grid(grid)
    return axes[0] if len(axes) == 1 else axes


# ------------------------------------------------------------------ trees


def _escape(text: str) -> str:
    """Text for a dot label: backslashes are dot's escapes."""
    return text.replace("\\", "\\\\")


# A node line of the text dump (gpulayer_booster_dump_tree), after the
# tabs of its depth: a split "3:[age<41.5] yes=7,no=8,missing=7" or a leaf
# "7:leaf=0.25", with_stats adding ",gain=...,cover=..." or ",cover=...".
# The split's text may hold any character of a name: it ends at the last
# "] yes=".
_DUMP_SPLIT = re.compile(
    r"\t*(\d+):\[(.*)\] yes=(\d+),no=(\d+),missing=(\d+)(?:,gain=([^,]*),cover=(.*))?")
_DUMP_LEAF = re.compile(r"\t*(\d+):leaf=([^,]*)(?:,cover=(.*))?")


class _DumpNode(NamedTuple):
    node: int
    label: str  # as dot reads it: lines joined by "\n"
    children: tuple[int, int, int] | None  # yes, no, missing; None for a leaf


def _dump_nodes(text: str) -> list[_DumpNode]:
    """The nodes of one tree's text dump, in its order (depth first, yes
    before no), each labelled with its split or leaf and any statistics."""
    nodes = []
    for line in text.split("\n"):  # a name may hold other line breaks
        if not line:
            continue
        if m := _DUMP_SPLIT.fullmatch(line):
            lines = [m[2]] + ([f"gain={m[6]}", f"cover={m[7]}"] if m[6] is not None else [])
            children = (int(m[3]), int(m[4]), int(m[5]))
        elif m := _DUMP_LEAF.fullmatch(line):
            lines = [f"leaf={m[2]}"] + ([f"cover={m[3]}"] if m[3] is not None else [])
            children = None
        else:
            raise ValueError(f"to_graphviz: unexpected line in the tree dump: {line!r}")
        nodes.append(_DumpNode(int(m[1]), "\\n".join(_escape(x) for x in lines), children))
    return nodes


_CONDITION_NODE = {"shape": "box", "style": "filled,rounded", "fillcolor": "#e8f0fa"}
_LEAF_NODE = {"shape": "box", "style": "filled", "fillcolor": "#fdf0e0"}


def to_graphviz(booster, tree: int = 0, rankdir: str | None = None, *,
                yes_color: str | None = None, no_color: str | None = None,
                condition_node_params: Mapping[str, str] | None = None,
                leaf_node_params: Mapping[str, str] | None = None,
                with_stats: bool = False, tree_idx: int | None = None, **kwargs):
    """One tree of the model as a ``graphviz.Digraph``.

    Split nodes read ``feature<threshold`` (``feature in {a, b}`` for a
    categorical split: the categories that go to yes), with the feature's
    name where the model knows it; leaves read ``leaf=value``. Edges are
    labelled yes, no, and missing on the side missing values take. The
    labels and edges are read from :meth:`Booster.get_dump`.

    Parameters
    ----------
    booster : Booster or fitted estimator
    tree : int
        The tree's index (0-based; a multi-output model has one tree per
        output each round). ``tree_idx`` is XGBoost's name for it.
    rankdir : str, optional
        Graphviz's direction: "TB" (top to bottom, the default) or "LR".
    yes_color, no_color : str, optional
        Edge colours; XGBoost's blue and red by default.
    condition_node_params, leaf_node_params : dict, optional
        Graphviz node attributes, e.g. ``{"shape": "box", "fillcolor":
        "#78bceb", "style": "filled"}``.
    with_stats : bool
        Add gain and cover to the labels.
    **kwargs
        More graph attributes, e.g. ``dpi="150"`` or ``size="8,8"``.

    Returns
    -------
    graphviz.Digraph; ``.render()``, ``.pipe(format="png")`` or, in
    Jupyter, display it.
    """
    graphviz = _require("graphviz", "graphviz", "to_graphviz")
    model = _booster(booster, "to_graphviz")
    index = tree if tree_idx is None else tree_idx
    trees = int(_lib.get().gpulayer_booster_num_trees(model.handle))
    if not isinstance(index, (int, np.integer)) or not 0 <= index < trees:
        raise ValueError(f"to_graphviz: tree {index!r} does not exist; the model has "
                         f"{trees} trees (0..{trees - 1})")
    text = model.get_dump(with_stats=with_stats)[int(index)]

    graph_attr = {k: str(v) for k, v in kwargs.items()}
    if rankdir is not None:
        graph_attr["rankdir"] = rankdir
    graph = graphviz.Digraph(graph_attr=graph_attr)
    condition = dict(_CONDITION_NODE, **(condition_node_params or {}))
    leaf = dict(_LEAF_NODE, **(leaf_node_params or {}))
    colour = {"yes": yes_color or "#0000FF", "no": no_color or "#FF0000"}
    for node in _dump_nodes(text):
        graph.node(str(node.node), label=node.label,
                   **(leaf if node.children is None else condition))
        if node.children is None:
            continue
        yes, no, missing = node.children
        for side, child in (("yes", yes), ("no", no)):
            graph.edge(str(node.node), str(child), color=colour[side],
                       label=side + (", missing" if child == missing else ""))
    return graph


def plot_tree(booster, tree: int = 0, ax=None, rankdir: str | None = None, **kwargs):
    """Draw one tree in a matplotlib Axes: :func:`to_graphviz` rendered to
    PNG by Graphviz's ``dot`` program (Debian package graphviz), shown
    with imshow.

    Parameters
    ----------
    booster : Booster or fitted estimator
    tree : int
        The tree's index (``tree_idx``, XGBoost's name, also works).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    rankdir : str, optional
        "TB" (default) or "LR".
    **kwargs
        Passed to :func:`to_graphviz` (colours, node attributes,
        with_stats, graph attributes such as ``dpi="150"``).

    Returns
    -------
    matplotlib Axes
    """
    plt = _pyplot("plot_tree")
    image = _require("matplotlib.image", "matplotlib", "plot_tree")
    graph = to_graphviz(booster, tree, rankdir, **kwargs)
    png = graph.pipe(format="png")
    if ax is None:
        _, ax = plt.subplots(1, 1)
    ax.imshow(image.imread(BytesIO(png)))
    ax.axis("off")
    return ax
