"""The gpulayer command end to end: train/predict, config files, progress
output, and clear errors on bad input (file, line and column named; no
crash, no model written)."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))
DEMO = os.path.join(ROOT, "data", "demo")

if not os.path.exists(CLI):
    pytest.skip(f"the gpulayer command is not built ({CLI})", allow_module_level=True)


def run(*args, check=False):
    return subprocess.run([CLI, *args], capture_output=True, text=True, check=check)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


SMALL = "y,a,b\n" + "".join(f"{i % 2},{i},{(i * 7) % 5}\n" for i in range(40))


def test_help_for_every_command():
    for cmd in ("train", "predict", "importance", "export", "dump"):
        r = run(cmd, "--help")
        assert r.returncode == 0 and "usage: gpulayer " + cmd in r.stdout
    r = run("--help")
    assert r.returncode == 0 and "train" in r.stdout
    assert run("no-such-command").returncode == 2


def test_demo_data_train_predict_roundtrip(tmp_path):
    model, pred = str(tmp_path / "m.json"), str(tmp_path / "p.csv")
    r = run("train", "--data", os.path.join(DEMO, "fertility_train.csv.gz"), "--label",
            "morekids", "--valid", os.path.join(DEMO, "fertility_test.csv.gz"),
            "--objective", "binary:logistic", "--param", "eval_metric=auc",
            "--num-round", "5", "--device", "cpu", "--model", model)
    assert r.returncode == 0, r.stderr
    # Piped output: plain progress lines, one a round with metrics.
    assert "[5/5] valid-auc:" in r.stderr and "\r" not in r.stderr
    assert "model saved to" in r.stderr
    r = run("predict", "--model", model, "--data", os.path.join(DEMO, "fertility_test.csv.gz"),
            "--label", "morekids", "--output", pred)
    assert r.returncode == 0, r.stderr
    p = np.loadtxt(pred)
    assert len(p) == 50931 and np.all((p > 0) & (p < 1))


def test_config_file_and_flags(tmp_path):
    data = write(tmp_path, "d.csv", SMALL)
    conf = write(tmp_path, "t.conf",
                 f"# training config\ndata = {data}\nlabel = y\nobjective = binary:logistic\n"
                 "num_round = 3\nmax_depth = 2\n")
    model = str(tmp_path / "m.json")
    r = run("train", "--config", conf, "--num-round", "4", "--model", model, "--device", "cpu")
    assert r.returncode == 0, r.stderr
    assert "trained 4 rounds" in r.stderr  # the flag wins over the file
    bad = write(tmp_path, "bad.conf", "data = x.csv\nthis line is wrong\n")
    r = run("train", "--config", bad)
    assert r.returncode == 2 and "bad.conf:2" in r.stderr


def test_config_that_is_a_directory_is_refused(tmp_path):
    """A directory opens for reading but reads nothing: it passed as an
    empty config, and training went on without the settings meant."""
    data = write(tmp_path, "d.csv", SMALL)
    folder = tmp_path / "conf.d"
    folder.mkdir()
    model = tmp_path / "m.json"
    r = run("train", "--data", data, "--config", str(folder), "--model", str(model))
    assert r.returncode == 1
    assert f"cannot read config file {folder}: Is a directory" in r.stderr
    assert not model.exists()


@pytest.mark.parametrize("name,text,args,needles", [
    ("empty.csv", "", [], ["empty.csv", "empty"]),
    ("header.csv", "y,a\n", [], ["header.csv", "no data rows"]),
    ("ragged.csv", "y,a,b\n1,2,3\n0,1\n", [], ["ragged.csv", "line 3"]),
    ("text.csv", "y,a\n1,2\nabc,3\n", [], ["text.csv", "line 3", "column 1", "not a number"]),
    ("nan.csv", "y,a\n1,2\nnan,3\n", [], ["nan.csv", "line 3"]),
    ("range.csv", "y,a\n1,2\n3,3\n", ["--objective", "binary:logistic"], ["label 3", "[0, 1]"]),
    ("class.csv", "y,a\n0,2\n4,3\n", ["--objective", "multi:softprob", "--param", "num_class=3"],
     ["label 4", "num_class=3"]),
    ("nolabel.csv", "y,a\n0,2\n1,3\n", ["--label", "target"], ["target", "not found"]),
])
def test_bad_input_is_refused_clearly(tmp_path, name, text, args, needles):
    path = write(tmp_path, name, text)
    model = str(tmp_path / "m.json")
    r = run("train", "--data", path, "--model", model, "--device", "cpu", *args)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert r.stderr.strip().splitlines()[-1].startswith("gpulayer train: ")
    for needle in needles:
        assert needle in r.stderr, r.stderr
    assert not os.path.exists(model)


def test_unreadable_path_and_bad_params(tmp_path):
    r = run("train", "--data", str(tmp_path / "missing.csv"))
    assert r.returncode == 1 and "missing.csv" in r.stderr and "No such file" in r.stderr
    data = write(tmp_path, "d.csv", SMALL)
    r = run("train", "--data", data, "--param", "max_dept=3")
    assert r.returncode == 2 and "unknown parameter 'max_dept'" in r.stderr
    r = run("train", "--data", data, "--eta", "-1")
    assert r.returncode == 2 and "out of range" in r.stderr
    r = run("train", "--data", data, "--param", "eta")
    assert r.returncode == 2 and "KEY=VALUE" in r.stderr


# Each numeric option with texts that are not a number in its range. A
# lax parse took '--rounds abc' (and '12x', '', '-1') as "all rounds".
BAD_NUMBERS = ["abc", "12x", "", "1e999", " 3"]
NUMERIC_OPTIONS = [
    ("predict", "--rounds", BAD_NUMBERS + ["-1", "99999999999"]),
    ("explain", "--rounds", BAD_NUMBERS + ["-1"]),
    ("predict", "--nthread", BAD_NUMBERS + ["-1"]),
    ("explain", "--nthread", BAD_NUMBERS + ["-1"]),
    ("dump", "--tree", BAD_NUMBERS + ["-1"]),
    ("dump", "--max-depth", BAD_NUMBERS + ["-1"]),
    ("train", "--num-round", BAD_NUMBERS + ["-1"]),
    ("train", "--max-depth", BAD_NUMBERS + ["-1"]),
    ("train", "--early-stopping", BAD_NUMBERS + ["-1"]),
    ("train", "--nthread", BAD_NUMBERS + ["-1"]),
    ("train", "--eta", BAD_NUMBERS + ["-1"]),
    ("train", "--dist-timeout", BAD_NUMBERS + ["-1", "0", "inf", "nan"]),
]


@pytest.mark.parametrize("command, option, texts", NUMERIC_OPTIONS,
                         ids=[f"{c}{o}" for c, o, _ in NUMERIC_OPTIONS])
def test_numeric_options_parse_strictly(tmp_path, command, option, texts):
    """A usage error (exit 2) naming the option and the text, for all of
    them, and nothing written."""
    data = write(tmp_path, "d.csv", SMALL)
    model = str(tmp_path / "m.json")
    assert run("train", "--data", data, "--num-round", "2", "--model", model,
               "--quiet").returncode == 0
    out = str(tmp_path / "out.txt")
    base = {"predict": ["--model", model, "--data", data, "--label", "y", "--output", out],
            "explain": ["--model", model, "--data", data, "--label", "y", "--output", out],
            "dump": ["--model", model, "--output", out],
            "train": ["--data", data, "--model", out, "--quiet"]}[command]
    for text in texts:
        r = run(command, *base, option, text)
        assert r.returncode == 2, (option, text, r.stderr)
        assert f"gpulayer {command}: {option}" in r.stderr or \
            f"parameter {option[2:].replace('-', '_')}" in r.stderr, (option, text, r.stderr)
        assert f"'{text}'" in r.stderr or f" {text} " in r.stderr, (option, text, r.stderr)
        assert not os.path.exists(out)
    good = [option, "0.5" if option == "--eta" else "1"]
    if option == "--max-depth" and command == "dump":
        good += ["--tree", "0"]
    if option == "--early-stopping":
        good += ["--valid", data]
    r = run(command, *base, *good)
    assert r.returncode == 0, r.stderr


def test_predict_refuses_damaged_model(tmp_path):
    data = write(tmp_path, "d.csv", SMALL)
    model = str(tmp_path / "m.json")
    run("train", "--data", data, "--label", "y", "--model", model, "--device", "cpu",
        "--quiet", check=True)
    text = open(model).read()
    for name, damaged in (("trunc.json", text[: len(text) // 2]), ("foreign.json", '{"learner": {}}'),
                          ("flip.json", text.replace('"leaf_value":[', '"leaf_value":[9', 1))):
        bad = write(tmp_path, name, damaged)
        r = run("predict", "--model", bad, "--data", data)
        assert r.returncode == 1 and name in r.stderr, r.stderr
    # the wrong number of features
    other = write(tmp_path, "other.csv", "y,a\n1,2\n")
    r = run("predict", "--model", model, "--data", other, "--label", "y")
    assert r.returncode == 1 and "no column 'b'" in r.stderr


def test_predict_refuses_text_in_a_numeric_column(tmp_path):
    """A typo in a numeric column used to turn the column into category codes
    that the model read as numbers: wrong predictions, exit 0."""
    rows = ["y,a,b"] + [f"{i % 2},{i * 0.5},{(i * 7) % 5}" for i in range(150)]
    train = write(tmp_path, "train.csv", "\n".join(rows) + "\n")
    rows[11] = "1,abc,3"
    test = write(tmp_path, "test.csv", "\n".join(rows) + "\n")
    model, out = str(tmp_path / "m.json"), str(tmp_path / "p.csv")
    assert run("train", "--data", train, "--label", "y", "--model", model,
               "--quiet").returncode == 0
    r = run("predict", "--model", model, "--data", test, "--output", out)
    assert r.returncode != 0
    assert "test.csv: line 12, column 2 ('a'): 'abc' is not a number" in r.stderr
    assert "must be numeric (a numeric column of the model" in r.stderr
    assert not os.path.exists(out)
    r = run("predict", "--model", model, "--data", test, "--output", out,
            "--bad-numbers", "missing")
    assert r.returncode == 0, r.stderr
    assert "1 cells that are not numbers" in r.stderr and "line 12" in r.stderr
    assert len(open(out).read().split()) == 150


def test_train_refuses_a_numeric_column_with_a_typo(tmp_path):
    """A typo in a numeric training column silently made it categorical."""
    rows = ["y,a,c"] + [f"{i % 2},{i * 0.5},{'red' if i % 3 else 'blue'}"
                        for i in range(150)]
    rows[40] = "1,2..5,red"
    data = write(tmp_path, "train.csv", "\n".join(rows) + "\n")
    model = str(tmp_path / "m.json")
    r = run("train", "--data", data, "--label", "y", "--model", model, "--quiet")
    assert r.returncode == 1
    assert ("gpulayer train: " + data + ": line 41, column 2 ('a'): the column looks "
            "numeric, but 1 of its cells are not numbers, the first here: '2..5'"
            in r.stderr), r.stderr
    r = run("train", "--data", data, "--label", "y", "--model", model, "--quiet",
            "--bad-numbers", "missing")
    assert r.returncode == 0 and "1 cells that are not numbers" in r.stderr
    saved = json.load(open(model))
    assert "2..5" not in json.dumps(saved)
    r = run("train", "--data", data, "--label", "y", "--model", model, "--quiet",
            "--categorical", "a")
    assert r.returncode == 0 and "2..5" in open(model).read(), r.stderr
    r = run("train", "--data", data, "--bad-numbers", "maybe")
    assert r.returncode == 2 and "error or missing" in r.stderr


def test_a_mostly_numeric_column_read_as_categorical_is_named(tmp_path):
    """Placeholder text ('-') in a fifth of a numeric column makes it
    categorical: every distinct number a category. That is said, naming the
    column and its share of numbers, with the two ways out, and each way out
    silences it."""
    rows = ["y,x"] + [f"{int(i % 7 < 3)},{'-' if i % 5 == 0 else i * 0.25}"
                      for i in range(400)]
    data = write(tmp_path, "d.csv", "\n".join(rows) + "\n")
    model = str(tmp_path / "m.json")
    common = ("train", "--data", data, "--label", "y", "--num-round", "2", "--quiet",
              "--model", model)
    r = run(*common)
    assert r.returncode == 0, r.stderr
    assert "column 2 ('x') is read as categorical, but 320 of its 400 cells (80.0%) " \
           "are numbers; the first text is at line 2: '-'" in r.stderr
    assert "--numeric" in r.stderr and "--categorical" in r.stderr
    r = run(*common, "--categorical", "x")
    assert r.returncode == 0 and "read as categorical" not in r.stderr, r.stderr
    r = run(*common, "--numeric", "x", "--bad-numbers", "missing")
    assert r.returncode == 0 and "read as categorical" not in r.stderr, r.stderr
    assert "80 cells that are not numbers in numeric columns were read as missing" \
        in r.stderr
    r = run(*common, "--numeric", "x")
    assert r.returncode == 1
    assert "line 2, column 2 ('x'): '-' is not a number" in r.stderr


def test_libsvm_with_a_huge_index_is_refused_within_the_memory_limit(tmp_path):
    """Two lines with index 30,000,000 used to crash in the binning (exit 139)
    or ask for gigabytes. The file is held sparse (its five entries), and the
    bin cuts of 30,000,001 features are estimated against the limit first:
    with two rows a feature has at most three value bins, whatever max_bin."""
    data = write(tmp_path, "big.svm", "1 30000000:1 1:2\n0 1:3 2:1\n")
    model = str(tmp_path / "m.json")
    env = dict(os.environ, GPULAYER_MEMORY_LIMIT="300M")
    r = subprocess.run([CLI, "train", "--data", data, "--format", "libsvm", "--model", model,
                        "--quiet"], capture_output=True, text=True, env=env)
    assert r.returncode == 1, r.stderr
    assert "dense matrix" not in r.stderr
    assert "finding the bin cuts of 30000001 features needs 343.3 MiB" in r.stderr
    assert "than the 300.0 MiB that GPULAYER_MEMORY_LIMIT allows" in r.stderr
    assert not os.path.exists(model)


def test_model_declaring_millions_of_features_is_refused_at_once(tmp_path):
    """A LightGBM header may declare any feature count: what each feature
    takes is checked against the memory limit before any is walked (this
    took seconds, and a category table of every feature 78 GiB)."""
    model = write(tmp_path, "wide.txt", "tree\nversion=v4\nnum_class=1\n"
                  "num_tree_per_iteration=1\nlabel_index=0\nmax_feature_idx=81985529\n"
                  "objective=regression\n\nTree=0\nnum_leaves=1\nleaf_value=0.5\n"
                  "\nend of trees\n")
    env = dict(os.environ, GPULAYER_MEMORY_LIMIT="64M")
    r = subprocess.run([CLI, "dump", "--model", model], capture_output=True, text=True, env=env)
    assert r.returncode == 1, r.stderr
    assert "the imported model's feature tables needs 2.9 GiB" in r.stderr


def test_memory_limit_must_be_a_size(tmp_path):
    data = write(tmp_path, "small.csv", SMALL)
    env = dict(os.environ, GPULAYER_MEMORY_LIMIT="lots")
    r = subprocess.run([CLI, "train", "--data", data, "--model", str(tmp_path / "m.json"),
                        "--quiet"], capture_output=True, text=True, env=env)
    assert r.returncode == 1
    assert "GPULAYER_MEMORY_LIMIT: memory size 'lots' is not a non-negative number" in r.stderr


def _fertility_rows(name, n):
    import gzip
    root = os.path.join(os.path.dirname(__file__), "..", "..", "data", "demo")
    with gzip.open(os.path.join(root, name), "rt") as f:
        return [next(f).rstrip("\n").split(",") for _ in range(n + 1)]


def _valid_logloss(stderr):
    last = [line for line in stderr.splitlines() if "valid-logloss:" in line][-1]
    return float(last.split("valid-logloss:")[1].split()[0])


def test_valid_set_columns_are_matched_by_name(tmp_path):
    """--valid matched columns by position (and category codes by the
    valid file's own dictionary): a reordered file gave a wrong metric."""
    train = _fertility_rows("fertility_train.csv.gz", 3000)
    valid = _fertility_rows("fertility_test.csv.gz", 3000)
    # Only rows with gender1 'male': the valid file's dictionary differs.
    valid = [valid[0]] + [r for r in valid[1:] if r[1] == "male"]
    order = [3, 7, 0, 2, 1, 6, 5, 4]
    text = lambda rows: "\n".join(",".join(r) for r in rows) + "\n"
    paths = {
        "train": write(tmp_path, "train.csv", text(train)),
        "valid": write(tmp_path, "valid.csv", text(valid)),
        "shuffled": write(tmp_path, "shuffled.csv", text([[r[j] for j in order]
                                                          for r in valid])),
    }
    model = str(tmp_path / "m.json")
    args = ["train", "--data", paths["train"], "--label", "morekids", "--objective",
            "binary:logistic", "--param", "eval_metric=logloss", "--num-round", "5",
            "--model", model, "--nthread", "2"]
    metrics = {}
    for name in ("valid", "shuffled"):
        r = run(*args, "--valid", paths[name])
        assert r.returncode == 0, r.stderr
        metrics[name] = _valid_logloss(r.stderr)
    assert metrics["valid"] == metrics["shuffled"]
    # The metric agrees with prediction, which maps names and categories.
    out = str(tmp_path / "p.txt")
    r = run("predict", "--model", model, "--data", paths["shuffled"], "--label",
            "morekids", "--output", out)
    assert r.returncode == 0, r.stderr
    p = np.loadtxt(out).astype(np.float64)
    y = np.array([float(r[0]) for r in valid[1:]])
    logloss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    assert abs(logloss - metrics["valid"]) < 1e-5
    # A renamed column is refused, naming both sides.
    renamed = [valid[0][:3] + ["years"] + valid[0][4:]] + valid[1:]
    r = run(*args, "--valid", write(tmp_path, "renamed.csv", text(renamed)))
    assert r.returncode == 1
    assert "1 training columns missing: 'age'" in r.stderr, r.stderr
    assert "1 not in the training data: 'years'" in r.stderr


def test_model_text_is_valid_utf8(tmp_path):
    """Latin-1 names and categories were written raw into the model, which
    Python's json could not read."""
    uber = "\u00fcber"
    rows = ["y,caf\u00e9,c"] + [f"{i % 2},{i},{uber if i % 3 else 'x'}"
                               for i in range(60)]
    data = tmp_path / "utf8.csv"
    data.write_bytes(("\n".join(rows) + "\n").encode("utf-8"))
    model = str(tmp_path / "m.json")
    r = run("train", "--data", str(data), "--model", model, "--quiet")
    assert r.returncode == 0, r.stderr
    with open(model, encoding="utf-8") as f:
        saved = json.load(f)
    assert saved["feature_names"] == ["caf\u00e9", "c"]
    assert saved["categories"][1] == ["x", "\u00fcber"]
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    r = run("train", "--data", str(latin1), "--model", str(tmp_path / "l.json"))
    assert r.returncode == 1
    assert "line 1, column 2: the column name is not valid UTF-8" in r.stderr, r.stderr
    assert not os.path.exists(tmp_path / "l.json")


def test_unknown_format_is_one_prefixed_line(tmp_path):
    """--format parquet printed its message without "gpulayer train: " and
    then an empty "gpulayer train: " line."""
    data = write(tmp_path, "d.csv", "y,a\n1,2\n0,3\n")
    for cmd in (["train"], ["predict", "--model", str(tmp_path / "m.json")]):
        r = run(*cmd, "--data", data, "--format", "parquet")
        assert r.returncode == 2
        assert r.stderr == (f"gpulayer {cmd[0]}: unknown format 'parquet' "
                            "(auto, csv, tsv, libsvm)\n"), r.stderr


def test_binary_input_is_refused_at_once(tmp_path):
    """--data /dev/zero read forever; a long line filled memory."""
    r = subprocess.run([CLI, "train", "--data", "/dev/zero"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert "'/dev/zero': it is a character device, not a file" in r.stderr
    zeros = tmp_path / "zeros.csv"
    zeros.write_bytes(bytes(4096))
    r = subprocess.run([CLI, "train", "--data", str(zeros)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert "zeros.csv': line 1, column 1 (byte of the line): a NUL byte" in r.stderr
    long = tmp_path / "long.csv"
    long.write_text("y,a\n1," + "7" * (3 << 20) + "\n")
    r = subprocess.run([CLI, "train", "--data", str(long)], capture_output=True,
                       text=True, timeout=60,
                       env=dict(os.environ, GPULAYER_MEMORY_LIMIT="1M"))
    assert r.returncode == 1
    # Larger than the limit: refused before it is read.
    assert "needs 3.0 MiB of host memory, more than the 1.0 MiB" in r.stderr, r.stderr


CATEGORICAL = "y,colour,x\n" + "".join(
    f"{3 if i % 3 == 0 else -1},{['red', 'green', 'blue'][i % 3]},{(i * 7) % 11}\n"
    for i in range(120))


def test_dump_prints_categorical_splits_by_name(tmp_path):
    data = write(tmp_path, "d.csv", CATEGORICAL)
    model = str(tmp_path / "m.json")
    r = run("train", "--data", data, "--num-round", "2", "--max-depth", "2",
            "--device", "cpu", "--model", model, "--quiet")
    assert r.returncode == 0, r.stderr
    r = run("dump", "--model", model)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("booster[0]:\n0:[colour in {red}] yes=1,no=2,missing=2\n")
    assert "booster[1]:\n" in r.stdout
    r = run("dump", "--model", model, "--tree", "1", "--with-stats", "--max-depth", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "booster" not in r.stdout and ",gain=" in lines[0] and ",cover=120" in lines[0]
    out = str(tmp_path / "dump.txt")
    assert run("dump", "--model", model, "--output", out).returncode == 0
    assert open(out).read() == run("dump", "--model", model).stdout
    r = run("dump", "--model", model, "--tree", "2")
    assert r.returncode == 1 and "tree 2 does not exist; the model has 2 trees" in r.stderr
    r = run("dump", "--model", model, "--tree", "x")
    assert r.returncode == 2 and "--tree must be a non-negative integer (at most 2147483647), got 'x'" in r.stderr
    assert run("dump").returncode == 2


def test_verbose_train_prints_the_first_tree_to_depth_3(tmp_path):
    text = "y,colour,x\n" + "".join(
        f"{(i % 3) * 5 + (i * 7) % 11},{['red', 'green', 'blue'][i % 3]},{(i * 7) % 11}\n"
        for i in range(300))
    data = write(tmp_path, "d.csv", text)
    r = run("train", "--data", data, "--num-round", "2", "--max-depth", "6",
            "--device", "cpu", "--model", str(tmp_path / "m.json"), "--verbose")
    assert r.returncode == 0, r.stderr
    summary = r.stderr.split("first tree, to depth 3 ('gpulayer dump' prints every tree):\n")
    assert len(summary) == 2, r.stderr
    lines = summary[1].splitlines()
    assert lines[0].startswith("0:[colour in {") or lines[0].startswith("0:[x<")
    assert any("colour in {" in line for line in lines)
    assert any(line.startswith("\t\t\t") and line.endswith(":...") for line in lines)
    assert not any(line.startswith("\t\t\t\t") for line in lines)
    quiet = run("train", "--data", data, "--num-round", "2", "--device", "cpu",
                "--model", str(tmp_path / "m.json"))
    assert "first tree" not in quiet.stderr


def test_importance_marks_categorical_features(tmp_path):
    text = "y,colour,x\n" + "".join(
        f"{(i % 3) * 5 + (i * 7) % 11},{['red', 'green', 'blue'][i % 3]},{(i * 7) % 11}\n"
        for i in range(300))
    data, model = write(tmp_path, "d.csv", text), str(tmp_path / "m.json")
    assert run("train", "--data", data, "--num-round", "3", "--device", "cpu",
               "--model", model, "--quiet").returncode == 0
    r = run("importance", "--model", model, "--type", "weight")
    assert r.returncode == 0, r.stderr
    kinds = {line.split("\t")[0]: line.split("\t")[2] for line in r.stdout.splitlines()}
    assert kinds == {"colour": "categorical", "x": "numeric"}
    r = run("importance", "--model", model, "--json")
    features = json.loads(r.stdout)["features"]
    assert {f["feature"]: f["categorical"] for f in features} == {"colour": True, "x": False}


def test_categorical_split_mode_is_a_parameter_not_a_column(tmp_path):
    """--param categorical=ordered was taken for a list of columns and
    failed with "categorical column 'ordered' not found"."""
    data = write(tmp_path, "d.csv", CATEGORICAL)
    model = tmp_path / "m.json"
    for how in (["--param", "categorical=ordered"],
                ["--config", write(tmp_path, "t.conf", "categorical = ordered\n")]):
        r = run("train", "--data", data, "--num-round", "1", "--device", "cpu",
                "--model", str(model), "--quiet", "--categorical", "x", *how)
        assert r.returncode == 0, r.stderr
        saved = json.loads(model.read_text())
        assert saved["params"]["categorical"] == "ordered"
        assert saved["categories"][1] is not None  # x is still categorical
    r = run("train", "--data", data, "--num-round", "1", "--device", "cpu",
            "--model", str(model), "--quiet", "--param", "categorical=x")
    assert r.returncode == 0, r.stderr
    assert json.loads(model.read_text())["params"]["categorical"] == "partition"


def test_train_help_lists_the_categorical_parameters():
    r = run("train", "--help")
    assert r.returncode == 0
    for name, default in (("categorical", "(default partition)"),
                          ("max_cat_to_onehot", "(default 4)"),
                          ("max_cat_threshold", "(default 64)"),
                          ("cat_smooth", "(default 1)"), ("cat_l2", "(default 0)"),
                          ("min_data_per_group", "(default 10)")):
        entry = re.search(rf"\n  {name} +(.*(?:\n {{10,}}.*)*)", r.stdout)
        assert entry, f"{name} is not listed"
        assert default in " ".join(entry.group(1).split()), name


def test_train_help_lists_every_objective_its_parameters_and_the_metrics(tmp_path):
    data = write(tmp_path, "d.csv", SMALL)
    refused = run("train", "--data", data, "--objective", "no:such", "--quiet",
                  "--model", str(tmp_path / "m.json"))
    allowed = re.search(r"allowed: ([^)]*)\)", refused.stderr)
    assert refused.returncode != 0 and allowed, refused.stderr
    objectives = allowed.group(1).split(", ")
    assert "count:poisson" in objectives
    r = run("train", "--help")
    assert r.returncode == 0
    for name in objectives:
        assert re.search(rf"\n  {re.escape(name)} ", r.stdout), f"{name} is not listed"
    for param, default in (("huber_slope", "(default 1)"), ("max_delta_step", "(default: 0; 0.7 for count:poisson)"),
                           ("tweedie_variance_power", "(default 1.5)"),
                           ("quantile_alpha", "(default 0.5)")):
        entry = re.search(rf"\n  {param} +(.*(?:\n {{10,}}.*)*)", r.stdout)
        assert entry and default in " ".join(entry.group(1).split()), param
    metrics = re.search(r"\nmetrics \(eval_metric\): (.*?); default", r.stdout, re.S)
    assert metrics, "no metric list"
    listed = [m.strip() for m in metrics.group(1).replace("\n", " ").split(",")]
    for name in ("rmse", "rmsle", "mae", "mape", "mphe", "logloss", "error", "error@t",
                 "auc", "aucpr", "mlogloss", "merror", "poisson-nloglik", "gamma-nloglik",
                 "gamma-deviance", "tweedie-nloglik@rho", "quantile", "ndcg", "ndcg@k",
                 "map", "map@k", "pre", "pre@k"):
        assert name in listed, f"metric {name} is not listed"


def test_predict_refuses_to_write_over_its_inputs(tmp_path):
    data = write(tmp_path, "d.csv", SMALL)
    model = str(tmp_path / "m.json")
    run("train", "--data", data, "--label", "y", "--num-round", "2", "--quiet",
        "--model", model, check=True)
    before = {p: open(p, "rb").read() for p in (data, model)}
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    for output, named in ((data, "--data"), (model, "--model"), (str(link), "--data")):
        for cmd in ("predict", "explain"):
            r = run(cmd, "--model", model, "--data", data, "--label", "y", "--output", output)
            assert r.returncode == 2 and f"is the {named} file" in r.stderr, r.stderr
    assert {p: open(p, "rb").read() for p in (data, model)} == before


def test_predict_replaces_its_output_whole(tmp_path):
    data = write(tmp_path, "d.csv", SMALL)
    model = str(tmp_path / "m.json")
    out = tmp_path / "p.csv"
    out.write_text("old predictions\n")
    run("train", "--data", data, "--label", "y", "--num-round", "2", "--quiet",
        "--model", model, check=True)
    run("predict", "--model", model, "--data", data, "--label", "y", "--output", str(out),
        check=True)
    assert len(out.read_text().splitlines()) == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "m.json", "p.csv"]


def test_predict_finds_many_columns_by_name_in_any_order(tmp_path):
    """Columns are looked up by name through a sorted index: a model of
    2,000 features predicts the same on its file with the columns reversed
    and an extra column, and a missing feature is still named."""
    rng = np.random.default_rng(3)
    X = rng.random((60, 2000))
    names = [f"f{i}" for i in range(2000)]
    header = "y," + ",".join(names)
    lines = [header] + [f"{int(r[0] > 0.5)}," + ",".join(f"{v:.4f}" for v in r) for r in X]
    data = write(tmp_path, "d.csv", "\n".join(lines) + "\n")
    model = str(tmp_path / "m.json")
    run("train", "--data", data, "--label", "y", "--num-round", "3", "--quiet",
        "--model", model, check=True)
    flipped = ["extra," + ",".join(reversed(names))] + [
        "0," + ",".join(f"{v:.4f}" for v in reversed(r)) for r in X]
    other = write(tmp_path, "flipped.csv", "\n".join(flipped) + "\n")
    a, b = str(tmp_path / "a.csv"), str(tmp_path / "b.csv")
    run("predict", "--model", model, "--data", data, "--label", "y", "--output", a, check=True)
    run("predict", "--model", model, "--data", other, "--label", "extra", "--output", b,
        check=True)
    assert open(a).read() == open(b).read()
    lacking = ["y," + ",".join(names[:-1])] + [
        f"0," + ",".join(f"{v:.4f}" for v in r[:-1]) for r in X]
    short = write(tmp_path, "short.csv", "\n".join(lacking) + "\n")
    r = run("predict", "--model", model, "--data", short, "--label", "y", "--output", b)
    assert r.returncode == 1 and "no column 'f1999'" in r.stderr, r.stderr


def test_a_label_beyond_float_range_is_named_so(tmp_path):
    """1e39 parses to infinity in a float: the message says the number is
    too large rather than calling the text "not finite"."""
    data = write(tmp_path, "d.csv", "y,x\n1,2\n1e39,3\n0,4\n")
    r = run("train", "--data", data, "--label", "y", "--model", str(tmp_path / "m.json"))
    assert r.returncode == 1
    assert "line 3, column 1 ('y'): label '1e39' is beyond the float range" in r.stderr, \
        r.stderr
    data = write(tmp_path, "w.csv", "y,w,x\n1,1,2\n0,inf,3\n")
    r = run("train", "--data", data, "--label", "y", "--weight", "w",
            "--model", str(tmp_path / "m.json"))
    assert r.returncode == 1 and "weight 'inf' is not finite" in r.stderr, r.stderr


def test_a_driver_manifest_that_points_nowhere_is_named():
    """Where the Vulkan loader finds no driver, the note names the manifest
    variables and a file of theirs that does not exist."""
    env = dict(os.environ, VK_ICD_FILENAMES="/nowhere/icd.json")
    env.pop("VK_DRIVER_FILES", None)
    r = subprocess.run([CLI, "devices"], capture_output=True, text=True, env=env)
    assert r.returncode == 0
    if "VK_ERROR_INCOMPATIBLE_DRIVER" not in r.stdout + r.stderr:
        pytest.skip("no Vulkan loader here, or it found a driver anyway")
    assert "VK_ICD_FILENAMES is '/nowhere/icd.json', and /nowhere/icd.json does not exist" \
        in r.stdout + r.stderr


def test_row_messages_name_the_files_line(tmp_path):
    """A label the objective refuses was named by its row, counted from 1
    ("row 11"), while the reader names lines ("line 12"); blank lines,
    comments and quoted fields across lines moved the two further apart.
    Every message about a row of a file now names its line."""
    csv = write(tmp_path, "d.csv", 'y,a,b\n1,2,3\n\n0,1,2\n"1",5,"x\ny"\n0,1,4\n7,3,3\n')
    r = run("train", "--data", csv, "--label", "y", "--model", str(tmp_path / "m.json"),
            "--param", "objective=binary:logistic", "--quiet")
    assert r.returncode != 0
    assert "d.csv: line 8 has label 7, but binary:logistic needs labels in [0, 1]" in r.stderr
    svm = write(tmp_path, "d.svm", "1 1:2\n# a comment\n\n0 1:3\n5 2:1\n")
    r = run("train", "--data", svm, "--model", str(tmp_path / "m.json"),
            "--param", "objective=binary:logistic", "--quiet")
    assert "d.svm: line 5 has label 5" in r.stderr


def test_config_refuses_a_line_longer_than_it_reads(tmp_path):
    """A config line past 4,094 characters came back in pieces, each read
    as a line of its own: the tail of a long value could set a parameter."""
    tail = "x" * 4100 + "\nmax_depth = 3\n"
    conf = write(tmp_path, "c.conf", "objective = binary:logistic\neval_metric = " + tail)
    r = run("train", "--config", conf, "--data", os.path.join(ROOT, "data", "demo",
            "fertility_train.csv.gz"), "--model", str(tmp_path / "m.json"), "--quiet")
    assert r.returncode == 2
    assert "c.conf:2: the line is longer than 4094 characters" in r.stderr
    assert not os.path.exists(tmp_path / "m.json")
