#!/usr/bin/env python3
"""Checks that every #include of the library and the command goes down the
layers (docs/architecture.md), never up or sideways; the core's rooms
(src/core/objective, params, data, model, booster, train, report) are
layers too.

    python3 scripts/check_layers.py [SOURCE_DIR]

Each quoted include is resolved as the compiler would find it in this tree
(the including file's folder first, then any file of the tree whose path
ends with the included name; header names are unique). Includes of files
outside the tree (system, metal-cpp, generated) are not checked. Prints
one line per crossing, naming the file, the line and the rule, and exits 1
when there is any; tests/, bench/ and python/ are not checked.
"""
import os
import re
import sys

# (path prefix, layer), most specific first.
LAYERS = [
    ("include/", "public"),
    ("src/base/", "base"),
    ("src/backend/common/", "backend-common"),
    ("src/backend/gpu_kernels/", "kernels"),
    ("src/backend/cpu/", "backend:cpu"),
    ("src/backend/cuda/", "backend:cuda"),
    ("src/backend/vulkan/", "backend:vulkan"),
    ("src/backend/metal/", "backend:metal"),
    ("src/backend/", "backend-interface"),
    ("src/device/", "device"),
    ("src/distributed/", "distributed"),
    ("src/core/objective/", "core:objective"),
    ("src/core/params/", "core:params"),
    ("src/core/data/", "core:data"),
    ("src/core/model/", "core:model"),
    ("src/core/booster/", "core:booster"),
    ("src/core/train/", "core:train"),
    ("src/core/report/", "core:report"),
    ("cli/", "command"),
]

# What each layer may include besides itself. The public header holds the
# status codes and types every layer shares, so all may include it.
BELOW = {
    "public": set(),
    "base": {"public"},
    "backend-interface": {"public", "base"},
    "backend-common": {"public", "base", "backend-interface"},
    "kernels": {"public", "base", "backend-interface"},
    "device": {"public", "base"},
    "distributed": {"public", "base", "backend-interface"},
    "command": {"public"},
}
# The core's rooms, from the ground up (CMakeLists.txt's GPL_CORE_ROOMS):
# each may include the rooms below it; distributed training sits on all.
_below = {"public", "base", "backend-interface", "device"}
for _room in ("objective", "params", "data", "model", "booster", "train", "report"):
    BELOW["core:" + _room] = set(_below)
    _below.add("core:" + _room)
    BELOW["distributed"].add("core:" + _room)
for _name in ("cpu", "cuda", "vulkan", "metal"):
    BELOW["backend:" + _name] = {"public", "base", "backend-interface",
                                 "backend-common", "kernels"}

# Single files one layer shares with another on purpose, with the reason.
SHARED_FILES = {
    # The probe executable reports a Mac's GPU with the Metal backend's own
    # capability code, so that discovery and the backend's checks agree.
    ("src/device/probe/", "src/backend/metal/metal_caps.h"),
    # The level plan the GPU hosts share fills the kernels' tables, in the
    # layout their ABI header defines.
    ("src/backend/common/level_plan.", "src/backend/gpu_kernels/gpu_kernel_abi.h"),
}

SOURCE_EXTENSIONS = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".m", ".mm",
                     ".comp", ".glsl", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    for prefix, layer in LAYERS:
        if rel.startswith(prefix):
            return layer
    return None


def tree_files(root):
    files = []
    for top in ("include", "src", "cli"):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d != "generated"]
            for name in names:
                if name.endswith(SOURCE_EXTENSIONS):
                    full = os.path.join(folder, name)
                    files.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(files)


def resolve(rel, included, files):
    local = os.path.normpath(os.path.join(os.path.dirname(rel), included))
    local = local.replace(os.sep, "/")
    if local in files:
        return local
    matches = [f for f in files if f == included or f.endswith("/" + included)]
    return matches[0] if len(matches) == 1 else None


def crossings(root):
    files = tree_files(root)
    known = set(files)
    found = []
    for rel in files:
        layer = layer_of(rel)
        if layer is None:
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(rel, m.group(1), known)
                if target is None:
                    continue
                to = layer_of(target)
                if to is None or to == layer or to in BELOW[layer]:
                    continue
                if any(rel.startswith(a) and target == b for a, b in SHARED_FILES):
                    continue
                allowed = ", ".join(sorted(BELOW[layer])) or "nothing else"
                found.append(f"{rel}:{number}: includes {target} ({to}); "
                             f"{layer} may include only {allowed}")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    found = crossings(os.path.abspath(root))
    for line in found:
        print(line)
    if found:
        print(f"check_layers: {len(found)} include(s) cross a layer the wrong way "
              "(docs/architecture.md)")
        return 1
    print("check_layers: every include goes down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
