"""``info(directory)``: what a dataset directory holds, as the ``sketchprep info`` CLI reports it.

One truth: the CLI reads and checks the manifest (``sketchprep info DIR --report-json -``) and this
function returns its JSON document parsed, so Python and the command line never disagree.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any, Dict, Optional, Union

from .errors import DatasetError, SketchPrepError

try:
    from _sketchprep_cli import bundled_cli  # the wheel's console-script module, beside this package
except ImportError:  # a source tree: no bundled CLI
    def bundled_cli() -> Optional[str]:
        return None

__all__ = ["info"]


def _cli() -> str:
    """The ``sketchprep`` CLI: ``$SKETCHPREP_BIN``, else the wheel's own (``sketchprep/bin/sketchprep``),
    else ``sketchprep`` on ``PATH`` (a source tree has no bundled one)."""
    configured = os.environ.get("SKETCHPREP_BIN")
    if configured:
        if not os.access(configured, os.X_OK):
            raise SketchPrepError(f"SKETCHPREP_BIN={configured!r} is not an executable sketchprep CLI")
        return configured
    bundled = bundled_cli()
    if bundled is not None:
        return bundled
    found = shutil.which("sketchprep")
    if found is None:
        raise SketchPrepError(
            "sketchprep.info needs the sketchprep CLI: put it on PATH or set SKETCHPREP_BIN to its path "
            "(`make build` writes .build/release/sketchprep)")
    return found


def info(directory: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """What the dataset in ``directory`` holds: kind (``npy``, ``tfrecord``, ``webdataset``, ``npz``, ``imagefolder``),
    classes, ``splits`` (examples, ``per_class``, files, bytes), ``per_class``, ``config`` (the
    pipeline's settings), ``sources`` (inputs with bytes and SHA-256), ``records``, ``files``,
    ``bytes`` and ``sketchprep_version``: the document of ``sketchprep info DIR --report-json``.

    Raises ``DatasetError`` when the CLI refuses the directory (no or a damaged manifest.json), and
    ``SketchPrepError`` when no CLI is found.
    """
    result = subprocess.run([_cli(), "info", os.fspath(directory), "--report-json", "-"],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise DatasetError(result.stderr.strip() or f"sketchprep info exited with status {result.returncode}")
    return json.loads(result.stdout)
