"""The command checks every output path before any work: each output's
folder exists and is writable, no output is an input or another output,
and an output that is a link replaces the link's target, keeping the link.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("GPULAYER_CLI", str(ROOT / "build" / "gpulayer"))
DEMO = ROOT / "data" / "demo" / "fertility_train.csv.gz"
TRAIN = ["--label", "morekids", "--num-round", "2", "--quiet"]


def run(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "train.csv.gz"
    shutil.copy(DEMO, path)
    return path


def refused(out, *words):
    assert out.returncode == 2, out.stderr
    for word in words:
        assert word in out.stderr, out.stderr
    # Refused before any work: nothing was read or trained.
    assert "loaded" not in out.stderr and "trained" not in out.stderr


@pytest.mark.parametrize("model, report", [("m.json", "m.json"), ("./m.json", "m.json")])
def test_train_refuses_one_file_for_two_outputs(tmp_path, data, model, report):
    os.chdir(tmp_path)
    out = run("train", "--data", data, *TRAIN, "--model", model, "--report", report)
    refused(out, "--model and --report both name")
    assert not (tmp_path / "m.json").exists()


def test_train_refuses_an_input_as_an_output(tmp_path, data):
    before = data.read_bytes()
    refused(run("train", "--data", data, *TRAIN, "--model", data),
            "--model", "is the --data file")
    assert data.read_bytes() == before
    model = tmp_path / "m.json"
    assert run("train", "--data", data, *TRAIN, "--model", model).returncode == 0
    refused(run("train", "--data", data, *TRAIN, "--model-in", model,
                "--model", tmp_path / "m2.json", "--report", model),
            "--report", "is the --model-in file")
    refused(run("train", "--data", data, *TRAIN, "--valid", data,
                "--model", tmp_path / "m3.json", "--report", data),
            "--report", "is the --data file")


def test_train_checks_the_output_folder_first(tmp_path, data):
    refused(run("train", "--data", data, *TRAIN, "--model", tmp_path / "no" / "m.json"),
            "the folder", "does not exist")
    refused(run("train", "--data", data, *TRAIN, "--model", tmp_path), "is a folder")


def test_train_refuses_a_folder_it_cannot_write(tmp_path, data):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        refused(run("train", "--data", data, *TRAIN, "--model", locked / "m.json"),
                "is not writable")
    finally:
        locked.chmod(0o700)


def test_outputs_through_links_replace_the_target(tmp_path, data):
    model, link = tmp_path / "m.json", tmp_path / "link.json"
    assert run("train", "--data", data, *TRAIN, "--model", model).returncode == 0
    two_rounds = model.read_bytes()
    link.symlink_to(model.name)
    out = run("train", "--data", data, "--label", "morekids", "--num-round", "3", "--quiet",
              "--model", link)
    assert out.returncode == 0, out.stderr
    assert link.is_symlink() and os.readlink(link) == model.name
    assert model.read_bytes() != two_rounds  # the three-round model
    pred, plink = tmp_path / "p.csv", tmp_path / "plink.csv"
    pred.write_text("old\n")
    plink.symlink_to(pred.name)
    out = run("predict", "--model", model, "--data", data, "--output", plink)
    assert out.returncode == 0, out.stderr
    assert plink.is_symlink() and pred.read_text() != "old\n"


def test_predict_checks_its_output_first(tmp_path, data):
    model = tmp_path / "m.json"
    assert run("train", "--data", data, *TRAIN, "--model", model).returncode == 0
    before = data.read_bytes()
    refused(run("predict", "--model", model, "--data", data, "--output", data),
            "--output", "is the --data file")
    assert data.read_bytes() == before
    refused(run("predict", "--model", model, "--data", data, "--output", model),
            "is the --model file")
    refused(run("predict", "--model", model, "--data", data,
                "--output", tmp_path / "no" / "p.csv"), "does not exist")
