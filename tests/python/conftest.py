"""Test setup for the Python package: use the package from python/ in this
source tree, and the library and command from build/ when the environment
does not name them (scripts/test.sh sets GPULAYER_LIBRARY and GPULAYER_CLI).
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"

sys.path.insert(0, str(ROOT / "python"))

for var, built in (("GPULAYER_LIBRARY", ROOT / "build" / "libgpulayer.so"),
                   ("GPULAYER_CLI", ROOT / "build" / "gpulayer")):
    if not os.environ.get(var) and built.exists():
        os.environ[var] = str(built)


@pytest.fixture(scope="session")
def shared_data():
    """The directory of the shared real datasets (skips when absent)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared datasets not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def cli():
    """The path of the built gpulayer command (skips when absent)."""
    path = os.environ.get("GPULAYER_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("GPULAYER_CLI does not name a built gpulayer command")
    return path
