"""The ``sketchprep`` command of an environment the wheel is installed in: the console script
(``[project.scripts]``) that replaces itself with the bundled CLI, ``sketchprep/bin/sketchprep``
(the release binary, its C libraries grafted by ``auditwheel repair`` into ``sketchprep.libs``).

A top-level module, not part of the ``sketchprep`` package: importing the package loads numpy and
the native library (about 160 ms), which a command that only execs a program does not need.
"""
from __future__ import annotations

import os
import pathlib
import sys
from typing import List, Optional

__all__ = ["bundled_cli", "main"]


def bundled_cli() -> Optional[str]:
    """The CLI the wheel installed beside this module, or ``None`` where there is none."""
    binary = pathlib.Path(__file__).resolve().with_name("sketchprep") / "bin" / "sketchprep"
    return str(binary) if os.access(binary, os.X_OK) else None


def main(argv: Optional[List[str]] = None) -> None:
    """Runs the bundled CLI with ``argv`` (default: this command's arguments) in place of this process,
    so its exit status, signals, standard streams and working directory are the command's own."""
    binary = bundled_cli()
    if binary is None:
        sys.exit("sketchprep: this installation has no bundled CLI (sketchprep/bin/sketchprep); "
                 "install the wheel from `make wheel`, or build the CLI with `make build`")
    arguments = sys.argv[1:] if argv is None else argv
    os.execv(binary, ["sketchprep", *arguments])
