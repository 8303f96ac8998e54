"""The text dump of trees: numeric and categorical splits by name."""

import re

import numpy as np
import pytest

import gpulayer

pd = pytest.importorskip("pandas")

PARAMS = {"objective": "reg:squarederror", "max_depth": 3, "nthread": 2,
          "device": "cpu"}


def shop_data(rows=1500, seed=0):
    """A numeric column x and an integer-coded column shop (NaN in a few
    rows); the label depends on the shop."""
    rng = np.random.default_rng(seed)
    shop = rng.choice([3, 17, 5, 40, 2, 8], size=rows).astype(np.float64)
    x = rng.normal(size=rows)
    y = np.where(np.isin(shop, [3, 40, 8]), 2.0, -1.0) + 0.1 * x
    shop[:15] = np.nan
    return x, shop, y


def test_get_dump_shows_splits_by_name():
    x, shop, y = shop_data()
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(pd.DataFrame({"x": x, "shop": shop}),
                                                  label=y, categorical_feature=["shop"]), 3)
    dump = bst.get_dump()
    assert len(dump) == 3
    lines = dump[0].splitlines()
    node = re.compile(r"^(\t*)(\d+):(?:\[(shop in \{[0-9, ]+\}|x<[-0-9.e]+)\] "
                      r"yes=(\d+),no=(\d+),missing=(\d+)|leaf=[-0-9.e]+)$")
    assert all(node.match(line) for line in lines), lines
    assert any("shop in {" in line for line in lines)
    assert any(line.startswith("\t") and "x<" in line for line in lines)
    stats = bst.get_dump(with_stats=True)[0].splitlines()
    assert re.search(r"\] yes=1,no=2,missing=[12],gain=[0-9.e+]+,cover=1500$", stats[0])
    assert all("cover=" in line for line in stats)
    cut = bst.get_dump(max_depth=1)[0].splitlines()
    assert re.match(r"^\t\d+:\.\.\.$", cut[1]) and len(cut) == 3
    # An unnamed feature reads f<index>.
    arr = gpulayer.train(PARAMS, gpulayer.Dataset(np.column_stack([x, shop]), label=y,
                                                  categorical_feature=[1]), 1)
    assert arr.get_dump()[0].startswith("0:[f1 in {")


def test_dump_model_writes_every_tree(tmp_path):
    x, shop, y = shop_data()
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(np.column_stack([x, shop]), label=y,
                                                  categorical_feature=[1]), 2)
    path = tmp_path / "dump.txt"
    bst.dump_model(path)
    text = path.read_text()
    assert text == "".join(f"booster[{t}]:\n{d}" for t, d in enumerate(bst.get_dump()))
    assert gpulayer.Booster().get_dump() == []
    with pytest.raises(gpulayer.errors.GPULayerError, match="has no model"):
        gpulayer.Booster().dump_model(tmp_path / "none.txt")


def test_ordered_category_codes_dump_as_sets_of_names():
    """With categorical=ordered a categorical feature is split at a code
    threshold; the dump lists the categories below it by name."""
    rng = np.random.default_rng(4)
    colour = rng.choice(["blue", "green", "red"], 600)
    y = (colour == "blue") * 2.0
    bst = gpulayer.train({**PARAMS, "categorical": "ordered"},
                         gpulayer.Dataset(pd.DataFrame({"colour": colour}), label=y), 1)
    assert bst.get_dump()[0].startswith("0:[colour in {blue}] yes=1,no=2,missing=")
