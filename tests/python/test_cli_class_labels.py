"""The gpulayer command with class names as labels: train, save the names
in the model, predict by name, and refuse mixed or unseen labels naming
file, line, column and value. Names map to codes as the scikit-learn
estimators map them (sorted), so both train the same model."""
import csv
import io
import json
import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))

if not os.path.exists(CLI):
    pytest.skip(f"the gpulayer command is not built ({CLI})", allow_module_level=True)

NAMES = np.array(["versicolor", "setosa", "virginica, var. b"], dtype=object)


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def data(seed=0, rows=120, names=NAMES):
    rng = np.random.RandomState(seed)
    X = rng.rand(rows, 3).astype(np.float32)
    y = names[np.minimum((X[:, 0] * len(names)).astype(int), len(names) - 1)]
    return X, y


def write_csv(path, X, y):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "species", "b", "c"])
        for row, label in zip(X, y):
            w.writerow([repr(float(row[0])), label, repr(float(row[1])), repr(float(row[2]))])
    return str(path)


def train(tmp_path, path, *extra, model="m.json"):
    out = str(tmp_path / model)
    r = run("train", "--data", path, "--label", "species", "--num-round", "5",
            "--nthread", "2", "--device", "cpu", "--model", out, "-q", *extra)
    return r, out


def predict(model, path, *extra):
    r = run("predict", "--model", model, "--data", path, "--label", "species", *extra)
    assert r.returncode == 0, r.stderr
    return list(csv.reader(io.StringIO(r.stdout)))


def test_multiclass_names_round_trip(tmp_path):
    X, y = data()
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "multi:softprob")
    assert r.returncode == 0, r.stderr
    saved = json.load(open(model))
    assert saved["class_names"] == ["setosa", "versicolor", "virginica, var. b"]
    assert saved["num_class"] == 3
    rows = predict(model, path)
    assert rows[0] == ["setosa", "versicolor", "virginica, var. b"]
    proba = np.array(rows[1:], dtype=np.float64)
    assert proba.shape == (120, 3)
    assert (np.array(rows[0], dtype=object)[proba.argmax(axis=1)] == y).mean() > 0.9

    rs, model_softmax = train(tmp_path, path, "--objective", "multi:softmax",
                              "--param", "num_class=3", model="s.json")
    assert rs.returncode == 0, rs.stderr
    names = [row[0] for row in predict(model_softmax, path)]
    assert len(names) == 120 and set(names) <= set(NAMES)
    assert names == list(np.array(rows[0], dtype=object)[proba.argmax(axis=1)])


def test_command_and_estimator_agree(tmp_path):
    sk = pytest.importorskip("gpulayer.sklearn")
    X, y = data(seed=1)
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "multi:softprob")
    assert r.returncode == 0, r.stderr
    proba = np.array(predict(model, path)[1:], dtype=np.float32)
    clf = sk.GPULayerClassifier(n_estimators=5, n_jobs=2).fit(X, y)
    assert list(clf.classes_) == json.load(open(model))["class_names"]
    np.testing.assert_allclose(proba, clf.predict_proba(X), rtol=1e-6)
    # The estimator's model names its classes for the command too.
    saved = str(tmp_path / "estimator.json")
    clf.get_booster().save_model(saved)
    assert predict(saved, path)[0] == list(clf.classes_)


def test_binary_names(tmp_path):
    X, y = data(seed=2, names=np.array(["yes", "no"], dtype=object))
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "binary:logistic")
    assert r.returncode == 0, r.stderr
    assert json.load(open(model))["class_names"] == ["no", "yes"]
    rows = predict(model, path)
    assert rows[0] == ["yes"]  # the probability of the second class
    p = np.array(rows[1:], dtype=np.float64).ravel()
    assert (np.where(p > 0.5, "yes", "no") == y).mean() > 0.9
    r, hinge = train(tmp_path, path, "--objective", "binary:hinge", model="h.json")
    assert r.returncode == 0, r.stderr
    assert {row[0] for row in predict(hinge, path)} <= {"no", "yes"}


def test_validation_set_uses_the_training_classes(tmp_path):
    X, y = data(seed=3)
    path = write_csv(tmp_path / "train.csv", X, y)
    keep = y != "setosa"
    valid = write_csv(tmp_path / "valid.csv", X[keep], y[keep])
    r, _ = train(tmp_path, path, "--objective", "multi:softprob", "--valid", valid,
                 "--param", "eval_metric=merror")
    assert r.returncode == 0, r.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("a,species,b,c\n0.1,setosa,0.2,0.3\n0.5,rose,0.5,0.5\n")
    r, _ = train(tmp_path, path, "--objective", "multi:softprob", "--valid", str(bad))
    assert r.returncode != 0
    assert f"{bad}: line 3, column 2 ('species'): label 'rose' is not a class" in r.stderr


def test_errors_name_file_line_column_and_value(tmp_path):
    X, y = data(seed=4)
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "multi:softprob")
    assert r.returncode == 0, r.stderr
    unseen = tmp_path / "unseen.csv"
    unseen.write_text("a,species,b,c\n0.1,setosa,0.2,0.3\n0.5,rose,0.5,0.5\n")
    r = run("predict", "--model", model, "--data", str(unseen), "--label", "species")
    assert r.returncode != 0
    assert (f"{unseen}: line 3, column 2 ('species'): label 'rose' is not a class of the "
            "model") in r.stderr

    mixed = tmp_path / "mixed.csv"
    mixed.write_text("a,species,b,c\n0.1,setosa,0.2,0.3\n0.5,2,0.5,0.5\n")
    r, out = train(tmp_path, str(mixed), "--objective", "multi:softprob", model="x.json")
    assert r.returncode != 0 and not os.path.exists(out)
    assert f"{mixed}: line 3, column 2 ('species'): label '2' is a number" in r.stderr

    r, _ = train(tmp_path, path, "--objective", "multi:softprob", "--param", "num_class=4",
                 model="y.json")
    assert r.returncode != 0 and "num_class=4 was given, but the labels hold 3" in r.stderr
    r, _ = train(tmp_path, path, model="z.json")
    assert r.returncode != 0 and "needs numbers" in r.stderr


def test_numeric_labels_unchanged(tmp_path):
    X, _ = data(seed=5)
    y = (X[:, 0] > 0.5).astype(int)
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "binary:logistic")
    assert r.returncode == 0, r.stderr
    assert "class_names" not in json.load(open(model))
    rows = predict(model, path)
    assert len(rows) == 120 and float(rows[0][0]) > 0


def test_distributed_training_refuses_names(tmp_path):
    import shutil
    mpirun = shutil.which("mpirun")
    if not mpirun:
        pytest.skip("mpirun not found (Debian: openmpi-bin)")
    probe = run("train", "--data", write_csv(tmp_path / "n.csv", *data(rows=4)), "--dist", "on",
                "--model", str(tmp_path / "probe.json"), "-q")
    if "built without MPI" in probe.stderr:
        pytest.skip("the gpulayer command was built without MPI")
    X, y = data(seed=6)
    path = write_csv(tmp_path / "train.csv", X, y)
    model = tmp_path / "d.json"
    r = subprocess.run([mpirun, "--oversubscribe", "--allow-run-as-root", "-np", "2", CLI,
                        "train", "--data", path, "--label", "species", "--objective",
                        "multi:softprob", "--num-round", "2", "--nthread", "1",
                        "--model", str(model), "-q"],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode != 0 and not model.exists()
    assert "distributed training on class names is not supported yet" in r.stderr


def test_python_reads_the_names(tmp_path):
    gpulayer = pytest.importorskip("gpulayer")
    X, y = data(seed=7)
    path = write_csv(tmp_path / "train.csv", X, y)
    r, model = train(tmp_path, path, "--objective", "multi:softprob")
    assert r.returncode == 0, r.stderr
    names = ["setosa", "versicolor", "virginica, var. b"]
    assert gpulayer.Booster(model_file=model).class_names == names
    ds = gpulayer.Dataset.from_file(path, label="species")
    codes = ds.get_label()
    np.testing.assert_array_equal(np.array(names, dtype=object)[codes.astype(int)], y)
    trained = gpulayer.train({"objective": "multi:softprob", "num_round": 2}, ds)
    assert trained.class_names == names
    numeric = gpulayer.train({"num_round": 1}, gpulayer.Dataset(X, label=X[:, 0]))
    assert numeric.class_names is None
