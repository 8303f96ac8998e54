"""The hardware run scripts where their hardware is absent: run_mac.sh off
macOS says why and exits 0 with "skipped", and the scripts are
shellcheck-clean where shellcheck is installed."""

import platform
import shutil
import subprocess
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "tests" / "hardware"
SCRIPTS = ["run_mac.sh", "run_framework_probe.sh"]


def test_run_mac_skips_off_macos(tmp_path):
    if platform.system() == "Darwin":
        pytest.skip("on macOS run_mac.sh builds and runs everything; tests/hardware/README.md")
    result = subprocess.run(["bash", str(HARDWARE / "run_mac.sh"), str(tmp_path / "r.md")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.startswith("skipped: not macOS")
    assert not (tmp_path / "r.md").exists()


@pytest.mark.parametrize("script", SCRIPTS)
def test_shellcheck_clean(script):
    if not shutil.which("shellcheck"):
        pytest.skip("shellcheck is not installed")
    result = subprocess.run(["shellcheck", str(HARDWARE / script)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout
