"""docs/architecture.md names every file of the core's rooms, and names no
core file that is gone: the picture of the code stays true to it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "core"


def test_every_core_file_is_in_its_room_in_the_architecture_doc():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| `([a-z]+)/`[^|]*\|[^|]*\| (.*) \|$", doc, re.M)}
    rooms = sorted(p.name for p in CORE.iterdir() if p.is_dir())
    assert sorted(rows) == rooms
    for room in rooms:
        on_disk = {p.name for p in (CORE / room).iterdir()
                   if p.suffix == ".c" or p.name in ("reader.h", "train_hooks.h")}
        named = set(re.findall(r"`([a-z_]+\.[ch])`", rows[room]))
        assert on_disk - named == set(), f"{room}/ files the doc does not name"
        assert named - on_disk - {"file_atomic.c"} == set(), f"{room}/ names that are gone"
    assert not [p for p in CORE.iterdir() if p.is_file()], "a core file outside the rooms"
