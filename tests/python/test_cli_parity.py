"""The Python package and the gpulayer command agree: the same data and
parameters give the same model, and the same model the same predictions."""

import subprocess

import numpy as np
import pytest

import gpulayer

pd = pytest.importorskip("pandas")


def run(cli, *args):
    result = subprocess.run([cli, *map(str, args)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def read_predictions(path):
    rows = [line.split(",") for line in path.read_text().splitlines()]
    return np.array(rows, dtype=np.float64).squeeze(axis=1 if len(rows[0]) == 1 else ())


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A CSV with a numeric label, numeric features with gaps, and a
    categorical text column."""
    rng = np.random.default_rng(3)
    n = 800
    df = pd.DataFrame({
        "y": np.zeros(n),
        "a": rng.normal(size=n).astype(np.float32),
        "b": rng.uniform(0, 10, size=n).astype(np.float32),
        "colour": rng.choice(["red", "green", "blue"], n),
    })
    df.loc[rng.random(n) < 0.1, "a"] = np.nan
    df["y"] = (np.nan_to_num(df["a"]) + (df["colour"] == "red") * 2
               + rng.normal(0, 0.3, n) > 0.5).astype(int)
    folder = tmp_path_factory.mktemp("cli")
    path = folder / "train.csv"
    # %.9g keeps every float32 value exact.
    df.to_csv(path, index=False, float_format="%.9g", na_rep="")
    return df, path, folder


PARAMS = {"objective": "binary:logistic", "eta": 0.2, "max_depth": 4,
          "num_round": 12, "nthread": 2, "device": "cpu"}


def cli_train(cli, data, model, params):
    args = ["train", "--data", data, "--label", "y", "--model", model, "--quiet"]
    for key, value in params.items():
        args += ["--param", f"{key}={value}"]
    run(cli, *args)


def test_python_predicts_what_the_command_predicts(cli, files):
    df, path, folder = files
    model, out = folder / "cli_model.json", folder / "cli_pred.txt"
    cli_train(cli, path, model, PARAMS)
    run(cli, "predict", "--model", model, "--data", path, "--label", "y",
        "--output", out)
    expected = read_predictions(out)
    bst = gpulayer.Booster(model_file=model)
    from_file = bst.predict(gpulayer.Dataset.from_file(path, label="y"))
    np.testing.assert_allclose(from_file, expected, rtol=1e-6, atol=1e-7)
    from_frame = bst.predict(df.drop(columns="y"))
    np.testing.assert_allclose(from_frame, expected, rtol=1e-6, atol=1e-7)


def test_python_training_matches_the_command(cli, files):
    df, path, folder = files
    model, out = folder / "cli_model2.json", folder / "cli_pred2.txt"
    cli_train(cli, path, model, PARAMS)
    run(cli, "predict", "--model", model, "--data", path, "--label", "y",
        "--output", out)
    dtrain = gpulayer.Dataset(df.drop(columns="y"), label=df["y"])
    bst = gpulayer.train(PARAMS, dtrain)
    np.testing.assert_allclose(bst.predict(df.drop(columns="y")), read_predictions(out),
                               rtol=1e-6, atol=1e-7)
    # A model saved by Python predicts the same through the command.
    py_model, py_out = folder / "py_model.json", folder / "py_pred.txt"
    bst.save_model(py_model)
    run(cli, "predict", "--model", py_model, "--data", path, "--label", "y",
        "--output", py_out)
    np.testing.assert_allclose(read_predictions(py_out), read_predictions(out),
                               rtol=1e-6, atol=1e-7)


def test_multiclass_probabilities_match_the_command(cli, tmp_path):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(500, 4)).astype(np.float32)
    y = np.digitize(X[:, 0] + X[:, 1], [-0.7, 0.7])
    path = tmp_path / "multi.csv"
    np.savetxt(path, np.column_stack([y, X]), delimiter=",", fmt="%.9g",
               header="y,f0,f1,f2,f3", comments="")
    params = {"objective": "multi:softprob", "num_class": 3, "num_round": 8,
              "max_depth": 3, "nthread": 2, "device": "cpu"}
    model, out = tmp_path / "m.json", tmp_path / "p.txt"
    cli_train(cli, path, model, params)
    run(cli, "predict", "--model", model, "--data", path, "--label", "y",
        "--output", out)
    expected = read_predictions(out)
    bst = gpulayer.train(params, gpulayer.Dataset(X, label=y))
    assert expected.shape == (500, 3)
    np.testing.assert_allclose(bst.predict(X), expected, rtol=1e-6, atol=1e-7)
