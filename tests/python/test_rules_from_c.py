"""Rules the Python package takes from the C library instead of keeping its
own copy: each is checked against a second way into the same C rule, on
inputs near its edges, so that a Python copy that drifted from C fails
here; and the package's sources are checked for such a copy."""

import importlib
import inspect

import pytest

import gpulayer

# The modules by name: gpulayer.devices is also a function of the package.
devices = importlib.import_module("gpulayer.devices")

# ------------------------------------------------------------ byte sizes

SIZES = ["0", "4096", "1B", "1b", "2K", "2k", "2KiB", "2kib", "3M", "3MiB", "3G", "3GiB",
         "1T", "1TiB", "2KB", "2kb", "3MB", "3GB", "1TB", "1.5GiB", "0.5K", "1e3",
         "1e3K", ".5G", "8 G", " 8G", "8gIb"]
BAD_SIZES = ["", "8 parsecs", "-1", "-1G", "inf", "nan", "G", "8GiBs", "1e30T"]


def request_bytes(text):
    """The size as `gpulayer place --memory` reads it: the C request parser."""
    decision = gpulayer.place(f"cpu,memory={text}")
    return decision.request["min_memory_bytes"]


@pytest.mark.parametrize("text", SIZES)
def test_byte_sizes_are_read_as_the_request_parser_reads_them(text):
    assert devices.parse_bytes(text) == request_bytes(text)


@pytest.mark.parametrize("text", BAD_SIZES)
def test_byte_sizes_refused_as_the_request_parser_refuses_them(text):
    with pytest.raises(ValueError) as python:
        devices.parse_bytes(text)
    with pytest.raises(ValueError) as c:
        request_bytes(text)
    assert str(python.value) in str(c.value)


def test_byte_units():
    assert [devices.parse_bytes(f"1{u}") for u in ("K", "M", "G", "T")] == [
        2**10, 2**20, 2**30, 2**40]
    assert [devices.parse_bytes(f"1{u}iB") for u in ("K", "M", "G", "T")] == [
        2**10, 2**20, 2**30, 2**40]
    assert [devices.parse_bytes(f"1{u}B") for u in ("K", "M", "G", "T")] == [
        10**3, 10**6, 10**9, 10**12]


def test_no_byte_unit_table_in_python():
    source = inspect.getsource(devices).lower()
    assert '"kib"' not in source and "2**30" not in source
