#!/usr/bin/env python3
"""Checks the core's calls as built, where scripts/check_layers.py checks
its includes: a function of the public header is declared for every layer,
so only the object files tell who calls whom.

    python3 scripts/check_calls.py BUILD_DIR [SOURCE_DIR]

Reads the core's object files (BUILD_DIR/CMakeFiles/gpl_core.dir/src/core/
ROOM/FILE.c.o, those whose source is still in SOURCE_DIR, by default the
repository holding this script) with nm, joins each undefined symbol to the core file that
defines it, and reports every call from a room to a room above it (the
rooms' order is check_layers.py's) and every circle of files that call
each other, naming the files and one symbol of each call. Exits 1 when it
finds any, 77 (skipped) without nm or without the objects.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_layers import BELOW  # noqa: E402


def symbols(path, defined):
    args = ["nm", "--defined-only", "-g", path] if defined else ["nm", "-u", path]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


def call_graph(objects_dir, core_dir):
    files = {}
    for folder, _, names in os.walk(objects_dir):
        for name in names:
            if name.endswith(".c.o"):
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, objects_dir)[:-len(".c.o")].replace(os.sep, "/")
                # An object left by a file since moved or removed is not code.
                if "/" in rel and os.path.isfile(os.path.join(core_dir, rel + ".c")):
                    files[rel] = full
    owner = {}
    for rel, full in files.items():
        for sym in symbols(full, True):
            owner[sym] = rel
    calls = {rel: {} for rel in files}
    for rel, full in files.items():
        for sym in symbols(full, False):
            callee = owner.get(sym)
            if callee and callee != rel:
                calls[rel].setdefault(callee, sym)
    return calls


def circles(calls):
    """The strongly connected groups of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(calls):
        if v not in index:
            visit(v)
    return found


def problems(calls):
    found = []
    for caller in sorted(calls):
        room = "core:" + caller.split("/")[0]
        for callee, sym in sorted(calls[caller].items()):
            to = "core:" + callee.split("/")[0]
            if to != room and to not in BELOW.get(room, set()):
                found.append(f"src/core/{caller}.c calls {sym} of src/core/{callee}.c: "
                             f"{room} may call only the rooms below it")
    for group in circles(calls):
        steps = []
        for a in group:
            for b in group:
                if b in calls[a]:
                    steps.append(f"{a} -> {b} ({calls[a][b]})")
        found.append("these files call each other in a circle: " + "; ".join(steps))
    return found


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    source = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    core_dir = os.path.join(source, "src", "core")
    objects_dir = os.path.join(sys.argv[1], "CMakeFiles", "gpl_core.dir", "src", "core")
    if not shutil.which("nm"):
        print("SKIPPED: nm (binutils) is not installed")
        return 77
    if not os.path.isdir(objects_dir):
        print(f"SKIPPED: no core objects under {objects_dir} (build first)")
        return 77
    found = problems(call_graph(objects_dir, core_dir))
    for line in found:
        print(line)
    if found:
        print(f"check_calls: {len(found)} call(s) go up a room or round a circle "
              "(docs/architecture.md)")
        return 1
    print("check_calls: every call of the core goes down its rooms, with no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
