"""Set before any test module loads OpenMP (numpy, XGBoost, LightGBM, and
the gpulayer command, which inherits the environment): threads that spin
at each barrier wait there for a thread that is not running on a machine
shared with other jobs, and a training of a second then takes ten or more.
Passive waiting changes no result, only the time."""
import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import sys
from pathlib import Path

# The package from python/ in this checkout (test_monotone_accuracy.py trains
# through it), as tests/python/conftest.py does.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
