"""Query groups (ranking) wherever data enter: Dataset(qid=, group=),
Dataset.from_file(qid_column=, group_file=), LibSVM qid:N tokens, and the
command's --qid, --group and --valid-group; every refusal names where."""
import os
import subprocess

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError, ParseError

X = np.arange(12, dtype=np.float32).reshape(6, 2)
Y = [0, 1, 2, 0, 1, 0]
CSV = "y,q,a,b\n" + "".join(
    f"{i % 3},{i // 4},{i},{(i * 7) % 5}\n" for i in range(24))  # 6 queries of 4


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------- in memory


def test_qid_and_group_make_the_same_groups():
    by_qid = gpulayer.Dataset(X, Y, qid=np.array([3, 3, 4, 4, 4, 9]))
    by_group = gpulayer.Dataset(X, Y, group=[2, 3, 1])
    for ds in (by_qid, by_group):
        assert ds.num_groups() == 3
        assert ds.get_group().tolist() == [2, 3, 1]
    plain = gpulayer.Dataset(X, Y)
    assert plain.num_groups() == 0 and plain.get_group().size == 0


def test_groups_on_sparse_data_and_column_selection():
    sp = pytest.importorskip("scipy.sparse")
    ds = gpulayer.Dataset(sp.csr_matrix(X), Y, qid=[1.0, 1.0, 1.0, 2.0, 2.0, 2.0])
    assert ds.get_group().tolist() == [3, 3]
    assert ds.select_columns([1]).get_group().tolist() == [3, 3]


def test_set_and_clear_groups():
    ds = gpulayer.Dataset(X, Y)
    ds.set_group([6])
    assert ds.get_group().tolist() == [6]
    ds.set_qid(None)
    assert ds.num_groups() == 0


def test_in_memory_refusals():
    with pytest.raises(ValueError, match="qid or group, not both"):
        gpulayer.Dataset(X, Y, qid=[1] * 6, group=[6])
    with pytest.raises(InvalidArgumentError,
                       match=r"row 4 \(counted from 1\): qid 1 follows qid 2, but query 1 "
                             r"had rows before"):
        gpulayer.Dataset(X, Y, qid=[1, 1, 2, 1, 2, 5])
    with pytest.raises(InvalidArgumentError, match="row 3 .*qid 0 follows qid 1: qids must "
                                                   "be non-decreasing"):
        gpulayer.Dataset(X, Y, qid=[1, 1, 0, 0, 2, 5])
    with pytest.raises(InvalidArgumentError,
                       match="add up to 5 rows, but the data have 6 rows"):
        gpulayer.Dataset(X, Y, group=[3, 2])
    with pytest.raises(InvalidArgumentError, match="group 2 has size 0"):
        gpulayer.Dataset(X, Y, group=[6, 0])
    with pytest.raises(ValueError, match="position 2 .* holds nan"):
        gpulayer.Dataset(X, Y, qid=[1, 1, np.nan, 2, 2, 2])
    with pytest.raises(ValueError, match="position 0 .* holds 1.5"):
        gpulayer.Dataset(X, Y, qid=[1.5, 2, 2, 2, 2, 2])
    with pytest.raises(ValueError, match="qid has 5 values, the data 6 rows"):
        gpulayer.Dataset(X, Y, qid=[1] * 5)


# ------------------------------------------------------------------ files


def test_from_file_qid_column_and_group_file(tmp_path):
    path = write(tmp_path, "r.csv", CSV)
    ds = gpulayer.Dataset.from_file(path, label="y", qid_column="q")
    assert ds.shape == (24, 2)  # the qid column is not a feature
    assert ds.feature_names == ["a", "b"]
    assert ds.get_group().tolist() == [4] * 6
    by_index = gpulayer.Dataset.from_file(path, label="y", qid_column=1)
    assert by_index.get_group().tolist() == [4] * 6
    sizes = write(tmp_path, "r.query", "10\n14\n")
    ds = gpulayer.Dataset.from_file(path, label="y", ignore_columns=["q"], group_file=sizes)
    assert ds.get_group().tolist() == [10, 14]


def test_from_file_refusals(tmp_path):
    bad = write(tmp_path, "bad.csv", "y,q,a\n1,2,0\n0,1,1\n")
    with pytest.raises(ParseError, match=r"bad.csv: line 3, column 2 \('q'\): qid 1 follows "
                                         "qid 2"):
        gpulayer.Dataset.from_file(bad, label="y", qid_column="q")
    text = write(tmp_path, "text.csv", "y,q,a\n1,abc,0\n")
    with pytest.raises(ParseError, match=r"line 2, column 2 \('q'\): qid 'abc' is not a "
                                         "number"):
        gpulayer.Dataset.from_file(text, label="y", qid_column="q")
    nan = write(tmp_path, "nan.csv", "y,q,a\n1,NaN,0\n")
    with pytest.raises(ParseError, match="line 2, column 2 .*the qid is missing"):
        gpulayer.Dataset.from_file(nan, label="y", qid_column="q")
    path = write(tmp_path, "r.csv", CSV)
    sizes = write(tmp_path, "r.query", "10\n10\n")
    with pytest.raises(InvalidArgumentError,
                       match="add up to 20 rows, but the data have 24 rows"):
        gpulayer.Dataset.from_file(path, label="y", ignore_columns="q", group_file=sizes)
    with pytest.raises(InvalidArgumentError, match="given twice"):
        gpulayer.Dataset.from_file(path, label="y", qid_column="q", group_file=sizes)


def test_libsvm_qid_tokens(tmp_path):
    path = write(tmp_path, "r.svm", "1 qid:1 0:1\n0 qid:1 1:2\n2 qid:3 0:4\n")
    assert gpulayer.Dataset.from_file(path).get_group().tolist() == [2, 1]
    mixed = write(tmp_path, "mixed.svm", "1 qid:1 0:1\n0 1:2\n")
    with pytest.raises(ParseError, match="mixed.svm: line 2: this row has no qid:N token, "
                                         "but line 1 has one"):
        gpulayer.Dataset.from_file(mixed)


# ---------------------------------------------------------------- command


@pytest.fixture
def run(cli):
    def _run(*args):
        return subprocess.run([cli, *args], capture_output=True, text=True)
    return _run


def test_cli_reads_groups_of_train_and_valid(tmp_path, run):
    path = write(tmp_path, "r.csv", CSV)
    model = str(tmp_path / "m.json")
    r = run("train", "--data", path, "--label", "y", "--qid", "q", "--valid", path,
            "--num-round", "2", "--model", model)
    assert r.returncode == 0, r.stderr
    assert "24 rows x 2 features, 6 query groups" in r.stderr
    sizes = write(tmp_path, "r.query", "12\n12\n")
    r = run("train", "--data", path, "--label", "y", "--ignore", "q", "--group", sizes,
            "--valid", path, "--valid-group", sizes, "--num-round", "2", "--model", model)
    assert r.returncode == 0, r.stderr
    assert "2 query groups" in r.stderr

    # predict leaves the qid column out, as training did.
    plain = write(tmp_path, "plain.csv", "y,a,b\n" + "".join(
        f"{i % 3},{i},{(i * 7) % 5}\n" for i in range(24)))
    r = run("train", "--data", path, "--label", "y", "--qid", "q", "--num-round", "3",
            "--model", model, "--quiet")
    assert r.returncode == 0, r.stderr
    with_qid = run("predict", "--model", model, "--data", path, "--label", "y", "--qid", "q")
    without = run("predict", "--model", model, "--data", plain, "--label", "y")
    assert with_qid.returncode == 0, with_qid.stderr
    assert with_qid.stdout == without.stdout


def test_cli_refusals(tmp_path, run):
    path = write(tmp_path, "r.csv", CSV)
    model = str(tmp_path / "m.json")
    short = write(tmp_path, "short.query", "12\n")
    r = run("train", "--data", path, "--label", "y", "--ignore", "q", "--group", short,
            "--model", model)
    assert r.returncode == 1
    assert "the group sizes add up to 12 rows, but the data have 24 rows" in r.stderr
    bad_valid = write(tmp_path, "v.csv", "y,q,a,b\n1,5,0,0\n0,4,1,1\n")
    r = run("train", "--data", path, "--label", "y", "--qid", "q", "--valid", bad_valid,
            "--model", model)
    assert r.returncode == 1
    assert "v.csv: line 3, column 2 ('q'): qid 4 follows qid 5" in r.stderr
    r = run("train", "--data", path, "--label", "y", "--qid", "q", "--valid-group", short,
            "--model", model)
    assert r.returncode == 2
    assert "1 --valid-group files for 0 --valid sets" in r.stderr
    assert not os.path.exists(model)


def test_cli_help_names_the_options(run):
    out = run("train", "--help").stdout
    for flag in ("--qid COL", "--group FILE", "--valid-group FILE"):
        assert flag in out
    assert "--qid COL" in run("predict", "--help").stdout


# ----------------------------------------------------- groups reach training


def ranking_file(tmp_path):
    """A CSV of 30 queries of 2 to 9 rows, grades 0..4, and its group file."""
    rng = np.random.default_rng(1)
    sizes = rng.integers(2, 10, size=30)
    lines, qid = ["y,q,a,b"], np.repeat(np.arange(30), sizes)
    a, b = rng.random(qid.size), rng.random(qid.size)
    for q, x1, x2 in zip(qid, a, b):
        lines.append(f"{min(4, int(x1 * 3 + x2 * 2))},{q},{x1:.4f},{x2:.4f}")
    csv = write(tmp_path, "rk.csv", "\n".join(lines) + "\n")
    query = write(tmp_path, "rk.query", "\n".join(map(str, sizes)) + "\n")
    return csv, query, sizes


def test_every_way_in_trains_the_same_ranking_model(tmp_path, run):
    csv, query, sizes = ranking_file(tmp_path)
    common = ["--label", "y", "--objective", "rank:ndcg", "--num-round", "4", "--quiet"]
    models = {}
    for name, extra in (("qid", ["--qid", "q"]), ("group", ["--ignore", "q", "--group", query]),
                        ("none", ["--ignore", "q"])):
        path = str(tmp_path / f"{name}.json")
        r = run("train", "--data", csv, *common, *extra, "--model", path)
        assert r.returncode == 0, r.stderr
        models[name] = open(path, "rb").read()
    assert models["qid"] == models["group"]
    assert models["qid"] != models["none"]  # one query of every row is another task

    params = {"objective": "rank:ndcg", "num_round": 4, "device": "cpu"}
    from_file = gpulayer.Dataset.from_file(csv, label="y", qid_column="q")
    plain = gpulayer.Dataset.from_file(csv, label="y", ignore_columns="q")
    X = np.loadtxt(csv, delimiter=",", skiprows=1, dtype=np.float32)
    raws = [gpulayer.train(params, ds, 4).save_raw() for ds in (
        from_file,
        gpulayer.Dataset(X[:, 2:], X[:, 0], qid=X[:, 1].astype(np.int64),
                         feature_names=["a", "b"]),
        gpulayer.Dataset(X[:, 2:], X[:, 0], group=sizes, feature_names=["a", "b"]))]
    assert raws[0] == raws[1] == raws[2]
    assert gpulayer.train(params, plain, 4).save_raw() != raws[0]


def test_distributed_slices_keep_whole_queries(tmp_path, cli):
    import shutil
    from gpulayer import distributed
    mpirun = shutil.which("mpirun")
    if not mpirun or not distributed.is_built():
        pytest.skip("needs mpirun and a library built with MPI")
    path = write(tmp_path, "r.csv", CSV)  # 24 rows: each of 2 ranks takes 12

    def train(*extra):
        return subprocess.run(
            [mpirun, "--oversubscribe", "--allow-run-as-root", "-np", "2", cli, "train",
             "--data", path, "--label", "y", "--num-round", "2", "--quiet",
             "--model", str(tmp_path / "m.json"), *extra],
            capture_output=True, text=True, timeout=300)

    ok = train("--qid", "q")  # queries of 4 rows: the cut at row 12 falls between two
    assert ok.returncode == 0, ok.stderr
    cut = train("--ignore", "q", "--group", write(tmp_path, "cut.query", "5\n5\n5\n5\n4\n"))
    assert cut.returncode != 0
    assert ("rank 0 of 2 takes rows 1 to 12 of " in cut.stderr
            and "cut query group 3 (rows 11 to 15) in two" in cut.stderr), cut.stderr


def test_read_shard_takes_the_rank_group_file(tmp_path):
    from gpulayer import distributed
    write(tmp_path, "part0.csv", CSV)
    write(tmp_path, "part0.query", "20\n4\n")
    ds = distributed.read_shard(str(tmp_path / "part%d.csv"), label="y",
                                ignore_columns="q", group_file=tmp_path / "part%d.query")
    assert ds.get_group().tolist() == [20, 4]


def test_config_file_keys(tmp_path, run):
    path = write(tmp_path, "r.csv", CSV)
    sizes = write(tmp_path, "r.query", "12\n12\n")
    config = write(tmp_path, "c.conf", f"data = {path}\nlabel = y\nignore = q\n"
                                       f"group = {sizes}\nvalid = {path}\n"
                                       f"valid_group = {sizes}\nnum_round = 1\n")
    r = run("train", "--config", config, "--model", str(tmp_path / "m.json"))
    assert r.returncode == 0, r.stderr
    assert "2 query groups" in r.stderr
    config = write(tmp_path, "q.conf", f"data = {path}\nlabel = y\nqid = q\nnum_round = 1\n")
    r = run("train", "--config", config, "--model", str(tmp_path / "m.json"))
    assert r.returncode == 0, r.stderr
    assert "6 query groups" in r.stderr
