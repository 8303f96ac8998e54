"""The one table of training parameters and everything made from it: the
parser (defaults, ranges, aliases, "did you mean"), `gpulayer params` in
its three forms, docs/parameters.md, `train --help`, and the arguments of
the scikit-learn estimators. A parameter added, renamed or documented in
one place and not the others fails here."""
import inspect
import json
import os
import subprocess

import pytest

import gpulayer
from gpulayer import Booster
from gpulayer.errors import GPULayerError
from gpulayer.params import canonical_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))
needs_cli = pytest.mark.skipif(not os.path.exists(CLI),
                               reason=f"the gpulayer command is not built ({CLI})")

TABLE = gpulayer.parameters()


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def test_names_and_aliases_are_unique_and_documented():
    seen = set()
    for p in TABLE:
        for name in [p["name"], *p["aliases"]]:
            assert name not in seen, name
            seen.add(name)
        for field in ("group", "type", "range", "applies", "doc"):
            assert p[field], (p["name"], field)
    assert canonical_names()["learning_rate"] == "eta"
    assert canonical_names()["n_estimators"] == "num_round"
    for lightgbm, ours in (("num_leaves", "max_leaves"), ("feature_fraction", "colsample_bytree"),
                           ("lambda_l2", "lambda"), ("min_split_gain", "gamma"),
                           ("num_iterations", "num_round"), ("num_threads", "nthread")):
        assert canonical_names()[lightgbm] == ours
    # LightGBM samples rows only with bagging_freq > 0: a parameter of its
    # own, not subsample's alias.
    assert canonical_names()["bagging_fraction"] == "bagging_fraction"
    assert canonical_names()["subsample_freq"] == "bagging_freq"


@pytest.mark.parametrize("p", [p for p in TABLE
                               if p["default_value"] and not p["default_value"].startswith("(")],
                         ids=lambda p: p["name"])
def test_the_table_default_is_the_library_default(p):
    """Setting the documented default changes nothing a fresh booster reads."""
    fresh, set_ = Booster(), Booster()
    set_.set_param(p["name"], p["default_value"])
    for q in TABLE:
        assert set_.get_param(q["name"]) == fresh.get_param(q["name"]), (p["name"], q["name"])


def test_aliases_set_and_read_the_same_parameter():
    b = Booster()
    for p in TABLE:
        for alias in p["aliases"]:
            assert b.get_param(alias) == b.get_param(p["name"])
    b.set_param("learning_rate", "0.05")
    assert b.get_param("eta") == "0.050000000000000003"


@pytest.mark.parametrize("p", [p for p in TABLE if p["type"] in ("number", "integer")],
                         ids=lambda p: p["name"])
def test_out_of_range_names_the_parameter_and_the_range(p):
    rng = p["range"]
    if p["type"] == "integer":
        lo, hi = (int(x) for x in rng.split(".."))
        outside = [str(lo - 1), str(hi + 1)]
    else:
        lo_text, hi_text = rng[1:-1].split(", ")
        outside = [lo_text] if rng[0] == "(" else []
        outside += [hi_text] if rng[-1] == ")" and hi_text != "inf" else []
        outside += ["1e309"] if hi_text == "inf" else [str(float(hi_text) * 2 + 1)]
        outside += [] if lo_text == "-inf" else [str(float(lo_text) - 1)]
    for value in outside:
        with pytest.raises(GPULayerError) as e:
            Booster().set_param(p["name"], value)
        msg = str(e.value)
        assert p["name"] in msg and (rng in msg or "not a number" in msg), msg


@pytest.mark.parametrize("typo,meant", [("max_dept", "max_depth"), ("learnin_rate", "learning_rate"),
                                        ("colsample_by_tree", "colsample_bytree"),
                                        ("subsmple", "subsample"), ("etaa", "eta")])
def test_an_unknown_parameter_gets_the_nearest_name(typo, meant):
    with pytest.raises(GPULayerError, match=f"unknown parameter '{typo}' \\(did you mean '{meant}'"):
        Booster().set_param(typo, "1")


def test_an_unknown_parameter_far_from_every_name_gets_no_guess():
    with pytest.raises(GPULayerError) as e:
        Booster().set_param("zzzzzz", "1")
    assert "did you mean" not in str(e.value) and "gpulayer params" in str(e.value)


@needs_cli
def test_the_command_lists_the_table():
    listed = json.loads(run("params", "--json").stdout)
    assert [p["name"] for p in listed] == [p["name"] for p in TABLE]
    assert [p["aliases"] for p in listed] == [p["aliases"] for p in TABLE]
    text = run("params").stdout
    assert all(f"  {p['name']}" in text for p in TABLE)
    one = run("params", "reg_lambda")
    assert one.returncode == 0 and "lambda (also reg_lambda, lambda_l2)" in one.stdout
    assert "eta" not in one.stdout
    assert run("params", "no_such").returncode == 1


@needs_cli
def test_docs_parameters_md_is_the_table():
    with open(os.path.join(ROOT, "docs", "parameters.md")) as f:
        doc = f.read()
    assert doc == run("params", "--markdown").stdout, (
        "docs/parameters.md differs from the table: gpulayer params --markdown > "
        "docs/parameters.md")


@needs_cli
def test_train_help_lists_every_parameter():
    help_text = run("train", "--help").stdout
    for p in TABLE:
        assert f"\n  {p['name']} " in help_text, p["name"]


@needs_cli
def test_train_suggests_the_nearest_parameter():
    r = run("train", "--data", os.path.join(ROOT, "data", "demo", "fertility_train.csv.gz"),
            "--param", "max_dept=3", "--model", os.devnull)
    assert r.returncode == 2 and "did you mean 'max_depth'" in r.stderr


def test_estimator_arguments_are_the_table():
    from gpulayer import sklearn as gsk
    names = canonical_names()
    for cls in (gsk.GPULayerRegressor, gsk.GPULayerClassifier, gsk.GPULayerRanker):
        args = {name for name, p in inspect.signature(cls.__init__).parameters.items()
                if name != "self" and p.kind is not p.VAR_KEYWORD}
        unknown = args - set(names) - set(gsk._ESTIMATOR_ONLY)
        assert not unknown, f"{cls.__name__} arguments the library does not know: {unknown}"
        reached = {names[a] for a in args if a in names}
        missing = {p["name"] for p in TABLE} - reached - set(gsk._NOT_ARGUMENTS)
        assert not missing, f"{cls.__name__} lacks arguments for: {missing}"


def test_estimator_passes_aliases_under_the_library_names():
    from gpulayer.sklearn import GPULayerRegressor
    params = GPULayerRegressor(learning_rate=0.05, reg_lambda=2.0, max_bin=64)._booster_params()
    assert params["eta"] == 0.05 and params["lambda"] == 2.0 and params["max_bin"] == 64
    assert "learning_rate" not in params and "importance_type" not in params
