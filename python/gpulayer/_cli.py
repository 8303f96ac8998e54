"""The ``gpulayer`` command installed with the package: runs the command
program bundled in the package (``gpulayer/bin/gpulayer``)."""

from __future__ import annotations

import os
import sys

from ._lib import package_dir


def bundled_command() -> str | None:
    """The path of the bundled gpulayer program, or None."""
    name = "gpulayer.exe" if sys.platform == "win32" else "gpulayer"
    path = package_dir() / "bin" / name
    return str(path) if path.is_file() else None


def main() -> None:
    path = bundled_command()
    if path is None:
        sys.exit(
            "gpulayer: the command program is not bundled in this installation "
            f"(looked in {package_dir() / 'bin'}); reinstall with 'pip install ./python'"
        )
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
