"""The include-layering check (scripts/check_layers.py): the tree passes, and
a crossing planted in a copy is reported with its file, line and rule."""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check_layers.py"


def run(root):
    return subprocess.run([sys.executable, str(CHECK), str(root)],
                          capture_output=True, text=True)


def copy_tree(tmp_path):
    for top in ("include", "src", "cli"):
        shutil.copytree(ROOT / top, tmp_path / top,
                        ignore=shutil.ignore_patterns("generated", "shaders"))
    return tmp_path


def test_tree_includes_go_down_the_layers():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout


def test_core_including_the_command_is_reported(tmp_path):
    root = copy_tree(tmp_path)
    model_h = root / "src" / "core" / "model" / "model.h"
    model_h.write_text('#include "commands.h"\n' + model_h.read_text())
    result = run(root)
    assert result.returncode == 1
    assert "src/core/model/model.h:1: includes cli/commands.h (command)" in result.stdout


def test_backend_including_core_is_reported(tmp_path):
    root = copy_tree(tmp_path)
    hist = root / "src" / "backend" / "cpu" / "cpu_hist.c"
    lines = hist.read_text().splitlines(keepends=True)
    lines.insert(1, '#include "booster.h"\n')
    hist.write_text("".join(lines))
    result = run(root)
    assert result.returncode == 1
    assert "src/backend/cpu/cpu_hist.c:2: includes src/core/booster/booster.h " \
           "(core:booster); " \
           "backend:cpu may include only" in result.stdout


def test_the_command_including_the_ground_floor_is_reported(tmp_path):
    root = copy_tree(tmp_path)
    main = root / "cli" / "main.c"
    main.write_text('#include "error.h"\n' + main.read_text())
    result = run(root)
    assert result.returncode == 1
    assert "cli/main.c:1: includes src/base/error.h (base); command may include " \
           "only public" in result.stdout


def test_a_core_room_including_a_room_above_it_is_reported(tmp_path):
    """The rooms go up objective, params, data, model, booster, train: the
    model including the trainer's tree grower crosses them the wrong way."""
    root = copy_tree(tmp_path)
    model_c = root / "src" / "core" / "model" / "model.c"
    model_c.write_text('#include "grow.h"\n' + model_c.read_text())
    result = run(root)
    assert result.returncode == 1
    assert ("src/core/model/model.c:1: includes src/core/train/grow.h (core:train); "
            "core:model may include only") in result.stdout
