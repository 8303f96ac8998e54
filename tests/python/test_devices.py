"""Device discovery and placement through the Python package."""

import json
import os
import subprocess

import pytest

import gpulayer
from gpulayer.devices import parse_bytes


def test_devices_lists_the_cpu_first():
    devices = gpulayer.devices()
    assert devices, "discovery reports at least the CPU"
    cpu = devices[0]
    assert cpu.accelerator == "cpu" and cpu.label == "cpu:0"
    assert cpu.memory_kind == "host" and cpu.memory_bytes > 0
    assert cpu.backend_built and cpu.backend_available
    for dev in devices:
        assert dev.accelerator in {"cpu", "cuda", "mps", "vulkan"}
        if dev.accelerator == "mps":
            assert dev.memory_kind == "unified"


def test_discovery_report_has_notes():
    report = gpulayer.discovery()
    assert set(report) >= {"devices", "notes"}
    for note in report["notes"]:
        assert note["runtime"] and note["message"]


def test_place_on_cpu_and_auto():
    placement = gpulayer.place("cpu")
    assert placement and placement.placed
    assert placement.devices == ["cpu:0"]
    assert placement.why
    auto = gpulayer.place()
    assert auto.placed and auto.accelerator in {"cpu", "cuda", "mps", "vulkan"}


def test_refused_placement_gives_every_reason():
    cuda = [d for d in gpulayer.devices() if d.accelerator == "cuda"]
    huge = gpulayer.place("cpu", min_memory="1000000T")
    assert not huge.placed
    assert huge.reasons and all(huge.reasons.values())
    if not cuda:
        refused = gpulayer.place("cuda")
        assert not refused
        assert "cpu:0" in refused.reasons
        with pytest.raises(gpulayer.GPULayerError):
            gpulayer.place("cuda", check=True)


def test_distributed_mps_is_invalid():
    decision = gpulayer.place("mps", job="distributed", num_processes=2)
    assert not decision.placed and decision.why


def test_bad_arguments():
    with pytest.raises(ValueError):
        gpulayer.place("cpu", memory_kind="sideways")
    with pytest.raises(ValueError):
        gpulayer.place("tpu")
    assert parse_bytes("8G") == 8 * 2**30
    assert parse_bytes("1.5GiB") == int(1.5 * 2**30)
    assert parse_bytes("8GB") == 8 * 10**9
    assert parse_bytes(512) == 512
    with pytest.raises(ValueError):
        parse_bytes("8 parsecs")


def test_diagnose_and_support_matrix():
    assert isinstance(gpulayer.diagnose(), dict)
    matrix = gpulayer.support_matrix()
    assert matrix
    assert "cpu" in gpulayer.support_matrix("text")


def test_devices_agree_with_the_command(cli):
    result = subprocess.run([cli, "devices", "--json"], capture_output=True, text=True,
                            timeout=60, env=dict(os.environ))
    if result.returncode != 0 and "unknown command" in (result.stderr + result.stdout):
        pytest.skip("this gpulayer command has no 'devices' subcommand yet")
    assert result.returncode == 0, result.stderr
    from_cli = [(d["accelerator"], d["index"]) for d in json.loads(result.stdout)["devices"]]
    assert from_cli == [(d.accelerator, d.index) for d in gpulayer.devices()]


def _run_cli(cli, *args):
    result = subprocess.run([cli, *args], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ))
    if "unknown command" in result.stderr:
        pytest.skip(f"this gpulayer command has no '{args[0]}' subcommand yet")
    return result


def _steady(text):
    """Lines that do not carry memory figures (free memory moves between
    two discoveries)."""
    return [line for line in text.splitlines()
            if not any(word in line for word in ("usable", "GiB", "MiB", "bytes"))]


def test_text_reports_are_what_the_command_prints(cli):
    table = gpulayer.discovery("text")
    assert table.startswith("DEVICE") and "cpu:0" in table
    result = _run_cli(cli, "devices")
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[1:] if line[:1] not in " \n"] \
        == [line.split()[0] for line in table.splitlines()[1:] if line[:1] not in " \n"]

    summary = gpulayer.diagnose("text")
    assert isinstance(summary, str) and summary
    result = _run_cli(cli, "diagnose")
    assert result.returncode == 0, result.stderr
    assert _steady(result.stdout) == _steady(summary)

    with pytest.raises(ValueError):
        gpulayer.discovery("markdown")
    with pytest.raises(ValueError):
        gpulayer.diagnose("yaml")


def test_placement_explanation_is_what_place_prints(cli):
    placement = gpulayer.place("cpu")
    assert placement.explanation.startswith("request: accelerator=cpu\nplaced: ")
    assert "cpu:0" in placement.explanation
    result = _run_cli(cli, "place", "cpu")
    assert result.returncode == 0, result.stderr
    assert _steady(result.stdout) == _steady(placement.explanation)

    refused = gpulayer.place("cpu", min_memory="1000000T")
    assert refused.explanation.startswith("request: ")
    assert "refused: " in refused.explanation
    result = _run_cli(cli, "place", "cpu", "--memory", "1000000T")
    assert result.returncode == 1
    assert _steady(result.stdout) == _steady(refused.explanation)

    from_json = json.loads(_run_cli(cli, "place", "cpu", "--json").stdout)
    assert from_json["assignments"] == placement.assignments


def test_place_takes_the_text_form():
    placement = gpulayer.place("cpu,memory=1K")
    assert placement.placed and placement.request["min_memory_bytes"] == 1024
    # Items in the text override the keyword arguments.
    ranks = gpulayer.place("cpu, nproc=3", num_processes=1)
    assert ranks.request["job"] == "distributed" and ranks.request["nproc"] == 3
    assert [a["rank"] for a in ranks.assignments] == [0, 1, 2]
    with pytest.raises(ValueError):
        gpulayer.place("cpu,colour=blue")
    with pytest.raises(ValueError):
        gpulayer.place("cpu,memory=lots")


def test_place_for_the_backend():
    chosen = gpulayer.place(backend=True)
    assert chosen.placed
    label = chosen.devices[0]
    device = next(d for d in gpulayer.devices() if d.label == label)
    assert device.backend_available
