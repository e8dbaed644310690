"""The commands that work on files: ``preprocess``, ``parity``, ``verify`` and ``info`` run the
bundled ``sketchprep`` CLI (the wheel's ``sketchprep/bin/sketchprep``) and return what it reports
as plain Python objects: ``preprocess`` the dataset's ``manifest.json`` (read and checked by the
native library), the others the JSON document of their ``--report-json``. A failing command raises
:class:`~sketchprep.errors.CommandError` with the CLI's message; ``info`` and ``verify`` raise
:class:`~sketchprep.errors.DatasetError` for a directory they refuse.

Why a process and not the C ABI (docs/python.md): these commands own files, threads, signals and
partial outputs (atomic writes, the output lock, interrupt cleanup, ``--jobs`` worker threads); the
CLI process is where that code runs and is tested, and a crash or a Ctrl-C stays in it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from ._paths import PathsLike, path_list
from .errors import CommandError, DatasetError, SketchPrepError

try:
    from _sketchprep_cli import bundled_cli  # the wheel's console-script module, beside this package
except ImportError:  # a source tree: no bundled CLI
    def bundled_cli() -> Optional[str]:
        return None

__all__ = ["preprocess", "parity", "verify", "info", "cli_path"]

PathLike = Union[str, "os.PathLike[str]"]
#: ``progress``: called with each progress or status line the command prints on stderr.
Progress = Callable[[str], None]


def cli_path() -> str:
    """The ``sketchprep`` CLI the API runs: ``$SKETCHPREP_BIN``, else the wheel's own
    (``sketchprep/bin/sketchprep``), else ``sketchprep`` on ``PATH`` (a source tree has no bundled one)."""
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
            "this needs the sketchprep CLI: put it on PATH or set SKETCHPREP_BIN to its path "
            "(`make build` writes .build/release/sketchprep)")
    return found


def preprocess(pipeline: PathLike, *, inputs: Optional[PathsLike] = None, output: Optional[PathLike] = None,
               jobs: Optional[int] = None, categories: Optional[Iterable[str]] = None, limit: Optional[int] = None,
               format: Optional[str] = None, strict: bool = False,  # noqa: A002 (the CLI's name)
               progress: Optional[Progress] = None, extra_args: Iterable[str] = ()) -> Dict[str, Any]:
    """``sketchprep preprocess --pipeline PIPELINE`` (``inputs`` → ``--input``, ``output`` → ``--output``,
    ``jobs``, ``categories`` → ``--category``, ``limit``, ``format``, ``strict``; ``extra_args`` are
    passed as they are): the same bytes as the command line. ``inputs`` is one path (``str``,
    ``bytes`` or ``os.PathLike``) or an iterable of them; None or none: the pipeline's own inputs.
    Returns the dataset's manifest."""
    arguments = ["--pipeline", os.fspath(pipeline)]
    for path in path_list(inputs) if inputs is not None else ():
        arguments += ["--input", path]
    if output is not None:
        arguments += ["--output", os.fspath(output)]
    for word in categories or ():
        arguments += ["--category", word]
    arguments += _common(jobs, limit, strict)
    if format is not None:
        arguments += ["--format", format]
    arguments += list(extra_args)
    stdout, _ = _run("preprocess", arguments, progress)
    written = re.search(r"^\s*manifest: (.+)$", stdout, re.MULTILINE)
    if written is None:
        raise SketchPrepError(f"sketchprep preprocess did not name its manifest:\n{stdout}")
    from .manifests import read_manifest  # the native library, loaded only when a dataset is read

    return read_manifest(os.path.dirname(written.group(1).strip())).data


def parity(raw: PathsLike, simplified: PathsLike, *,
           jobs: Optional[int] = None, limit: Optional[int] = None, report_md: Optional[PathLike] = None,
           progress: Optional[Progress] = None, extra_args: Iterable[str] = ()) -> Dict[str, Any]:
    """``sketchprep parity --raw RAW --simplified SIMPLIFIED``: our simplification against Google's
    simplified files (``raw`` and ``simplified``: each one path or an iterable of them, as
    :func:`preprocess`'s ``inputs``). Returns the document of its ``--report-json``."""
    arguments = [argument for path in path_list(raw) for argument in ("--raw", path)]
    arguments += [argument for path in path_list(simplified) for argument in ("--simplified", path)]
    arguments += _common(jobs, limit, False)
    if report_md is not None:
        arguments += ["--report-md", os.fspath(report_md)]
    return _reported("parity", arguments + list(extra_args), progress)


def verify(directory: PathLike) -> Dict[str, Any]:
    """``sketchprep verify DIRECTORY``: every listed file re-hashed and the counts checked. Returns
    the document of its ``--report-json`` (its ``problems`` list is empty for an intact dataset);
    raises :class:`DatasetError` when the directory has no readable manifest."""
    return _reported("verify", [os.fspath(directory)], None, accepts={0, 1}, refusal=DatasetError)


def info(directory: PathLike) -> Dict[str, Any]:
    """What the dataset in ``directory`` holds: kind (``npy``, ``tfrecord``, ``webdataset``, ``npz``, ``imagefolder``),
    classes, ``splits`` (examples, ``per_class``, files, bytes), ``per_class``, ``config`` (the
    pipeline's settings), ``sources`` (inputs with bytes and SHA-256), ``records``, ``files``,
    ``bytes`` and ``sketchprep_version``: the document of ``sketchprep info DIR --report-json``.
    Raises :class:`DatasetError` when the CLI refuses the directory (no or a damaged manifest.json)."""
    return _reported("info", [os.fspath(directory)], None, refusal=DatasetError)


def _common(jobs: Optional[int], limit: Optional[int], strict: bool) -> List[str]:
    arguments = []
    if jobs is not None:
        arguments += ["--jobs", str(jobs)]
    if limit is not None:
        arguments += ["--limit", str(limit)]
    if strict:
        arguments.append("--strict")
    return arguments


def _reported(command: str, arguments: List[str], progress: Optional[Progress], accepts: frozenset = frozenset({0}),
              refusal: type = CommandError) -> Dict[str, Any]:
    """Runs ``command`` with ``--report-json`` into a temporary file and returns the document; a
    run that writes none raises ``refusal`` with the CLI's message."""
    with tempfile.TemporaryDirectory(prefix="sketchprep-") as scratch:
        report = os.path.join(scratch, "report.json")
        try:
            _, stderr = _run(command, arguments + ["--report-json", report], progress, accepts)
        except CommandError as error:
            if refusal is CommandError:
                raise
            raise refusal(error.args[0]) from None
        if not os.path.exists(report):
            raise refusal(str(CommandError(command, 1, stderr)))
        with open(report, encoding="utf-8") as file:
            return json.load(file)


def _run(command: str, arguments: List[str], progress: Optional[Progress],
         accepts: frozenset = frozenset({0})) -> Tuple[str, str]:
    """Runs ``sketchprep COMMAND ARGUMENTS``; returns its stdout and stderr, hands each stderr line
    to ``progress`` (or a tqdm bar when tqdm is installed and stderr is a terminal), raises
    :class:`CommandError` for an exit status outside ``accepts``."""
    with tempfile.TemporaryFile() as stdout:
        process = subprocess.Popen([cli_path(), command, *arguments], stdout=stdout, stderr=subprocess.PIPE)
        assert process.stderr is not None
        report = progress if progress is not None else _default_progress(command)
        lines: List[str] = []
        for raw in _lines(process.stderr):
            line = raw.decode("utf-8", "replace")
            lines.append(line)
            if report is not None:
                report(line)
        status = process.wait()
        if report is not None and hasattr(report, "close"):
            report.close()  # type: ignore[union-attr]
        stdout.seek(0)
        text = stdout.read().decode("utf-8", "replace")
    if status not in accepts:
        raise CommandError(command, status, "\n".join(lines))
    return text, "\n".join(lines)


def _lines(stream: Any) -> Iterable[bytes]:
    """The lines of ``stream``, ended by a newline or a carriage return (progress redraws)."""
    pending = b""
    while True:
        chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
        if not chunk:
            break
        pending += chunk
        parts = re.split(rb"[\r\n]", pending)
        pending = parts.pop()
        yield from (part for part in parts if part.strip())
    if pending.strip():
        yield pending


class _TqdmProgress:
    """A tqdm bar (0–100 %) fed by the percentages the CLI prints, e.g. ``… (42 %) …``."""

    def __init__(self, command: str) -> None:
        from tqdm import tqdm  # type: ignore[import-not-found]

        self.bar = tqdm(total=100, desc=f"sketchprep {command}", unit="%")

    def __call__(self, line: str) -> None:
        found = re.search(r"\((\d+) %\)", line)
        if found:
            self.bar.n = min(int(found.group(1)), 100)
            self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def _default_progress(command: str) -> Optional[Progress]:
    if not sys.stderr.isatty():
        return None
    try:
        return _TqdmProgress(command)
    except ImportError:
        return None
