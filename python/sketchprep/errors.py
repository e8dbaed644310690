"""The package's exceptions: every refusal is a ``ValueError`` subclass with the reason."""
from __future__ import annotations

from typing import Optional

__all__ = ["SketchPrepError", "DrawingError", "DatasetError", "CommandError"]


class SketchPrepError(ValueError):
    """Base class of every error this package raises for bad input or bad data."""


class DrawingError(SketchPrepError):
    """A drawing or an option was refused, with the same reason the CLI quarantines it with.

    ``index`` is the drawing's position in a batch (``None`` for a single drawing or when the
    options or array layout, not one drawing, were refused); ``reason`` is the bare reason.
    """

    def __init__(self, reason: str, index: Optional[int] = None) -> None:
        self.reason = reason
        self.index = index
        super().__init__(reason if index is None else f"drawing {index}: {reason}")


class DatasetError(SketchPrepError):
    """A dataset directory is incomplete, altered, or not of a kind the called loader reads."""


class CommandError(SketchPrepError):
    """A ``sketchprep`` command run by the API (``preprocess``, ``parity``, ``verify``, ``info``)
    failed: ``command`` names it, ``returncode`` is its exit status and ``stderr`` what it printed
    there (the message is its last lines, the CLI's own words)."""

    def __init__(self, command: str, returncode: int, stderr: str) -> None:
        self.command = command
        self.returncode = returncode
        self.stderr = stderr
        lines = [line for line in stderr.replace("\r", "\n").splitlines() if line.strip()]
        detail = "\n".join(lines[-5:]) or f"exit status {returncode}"
        super().__init__(f"sketchprep {command}: {detail}")
