"""``read(paths)``: the drawings of Quick, Draw! NDJSON, Google ``.bin``, Kaggle CSV, sketch-rnn
stroke-3 ``.npz`` and SVG files, read by the native library with the reader every command uses
(``DrawingSource``: the same format detection, caps and reasons), in batches of flat arrays.

    reader = sketchprep.read("airplane.ndjson")
    for drawing in reader:
        drawing.word, drawing.key_id, drawing.strokes[0]   # (3, n) float64: x, y, t
    reader.rejected                                         # [Rejection(file, line, reason), ...]
"""
from __future__ import annotations

import os
from typing import Callable, Iterable, Iterator, List, NamedTuple, Optional, Union

import numpy as np

from . import _native
from .errors import DrawingError, SketchPrepError

__all__ = ["read", "Reader", "SketchDrawing", "Rejection", "FORMATS", "INPUT_FORMATS"]

#: ``format`` values: the CLI's ``--format`` (None: decided by content).
FORMATS = ("ndjson", "bin", "stroke3", "csv", "svg")
#: ``input_format`` values: the CLI's ``--input-format``.
INPUT_FORMATS = ("auto", "raw", "simplified")

PathLike = Union[str, "os.PathLike[str]"]


class Rejection(NamedTuple):
    """A record the reader refused: the file, its line (record number for ``.bin``, position for
    stroke-3) and the reason, as the CLI quarantines it."""
    file: str
    line: int
    reason: str


class SketchDrawing:
    """One drawing with its metadata. ``strokes`` holds one float64 array per stroke in the NDJSON
    layout: shape (3, n) (x, y, t) when the drawing has times, else (2, n), so
    :func:`sketchprep.simplify` and :func:`sketchprep.bitmap` take it as it is."""

    __slots__ = ("word", "key_id", "countrycode", "timestamp", "recognized", "strokes")

    def __init__(self, word: str, key_id: str, countrycode: str, timestamp: str, recognized: bool,
                 strokes: List[np.ndarray]) -> None:
        self.word = word
        self.key_id = key_id
        self.countrycode = countrycode
        self.timestamp = timestamp
        self.recognized = recognized
        self.strokes = strokes

    def __repr__(self) -> str:
        return (f"SketchDrawing(word={self.word!r}, key_id={self.key_id!r}, countrycode={self.countrycode!r}, "
                f"recognized={self.recognized}, strokes={len(self.strokes)})")


class Reader:
    """An iterable of :class:`SketchDrawing` (iterate it once); ``rejected`` lists the records
    refused so far, ``read`` counts the drawings handed out."""

    def __init__(self, paths: List[str], file_format: Optional[str], input_format: str, word: Optional[str],
                 strict: bool, batch_size: int, on_rejected: Optional[Callable[[Rejection], None]]) -> None:
        self._paths = paths
        self._format = file_format
        self.input_format = input_format
        self._word = word
        self._strict = strict
        self._batch_size = batch_size
        self._on_rejected = on_rejected
        self.rejected: List[Rejection] = []
        self.read = 0
        self._started = False

    def __iter__(self) -> Iterator[SketchDrawing]:
        if self._started:
            raise SketchPrepError("a sketchprep.read reader is iterated once; call sketchprep.read again")
        self._started = True
        return self._drawings()

    def _drawings(self) -> Iterator[SketchDrawing]:
        batches = _native.read_batches(self._paths, self._format, self._word, True, self._batch_size)
        try:
            for arrays in batches:
                self._note_rejected(arrays[7], arrays[8])
                for drawing in _drawings_of(arrays):
                    self.read += 1
                    yield drawing
        finally:
            batches.close()

    def _note_rejected(self, text: np.ndarray, offsets: np.ndarray) -> None:
        if not len(text) and len(offsets) <= 1:
            return
        parts = _strings(text.tobytes(), offsets)
        for index in range(0, len(parts), 3):
            rejection = Rejection(parts[index], int(parts[index + 1]), parts[index + 2])
            if self._strict:
                raise DrawingError(f"{rejection.file}:{rejection.line}: {rejection.reason}")
            self.rejected.append(rejection)
            if self._on_rejected is not None:
                self._on_rejected(rejection)


def read(path_or_paths: Union[PathLike, Iterable[PathLike]], *, format: Optional[str] = None,  # noqa: A002 (the CLI's name)
         input_format: str = "auto", word: Optional[str] = None, strict: bool = False, batch_size: int = 4096,
         on_rejected: Optional[Callable[[Rejection], None]] = None) -> Reader:
    """The drawings of the files or directories given, in the CLI's reading order.

    ``format`` and ``input_format`` are the CLI's ``--format`` (ndjson, bin, stroke3, csv, svg;
    None: decided by content) and ``--input-format`` (auto, raw, simplified: kept on the reader for
    :func:`sketchprep.bitmap` and friends; drawings are handed out as read). ``word`` names the word
    of ``.bin`` records (default: the file name). A record the CLI would quarantine is not raised
    but listed in the reader's ``rejected`` (and passed to ``on_rejected``), unless ``strict``: then
    the first raises :class:`~sketchprep.errors.DrawingError`. A missing input or one of no
    readable format raises :class:`~sketchprep.errors.SketchPrepError` with the CLI's reason.
    """
    if format is not None and format not in FORMATS:
        raise SketchPrepError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    if input_format not in INPUT_FORMATS:
        raise SketchPrepError(f"unknown input_format {input_format!r}; expected one of {', '.join(INPUT_FORMATS)}")
    if isinstance(path_or_paths, (str, os.PathLike)):
        paths = [os.fspath(path_or_paths)]
    else:
        paths = [os.fspath(path) for path in path_or_paths]
    if not paths:
        raise SketchPrepError("sketchprep.read needs at least one path")
    return Reader(paths, format, input_format, word, strict, batch_size, on_rejected)


def _strings(data: bytes, offsets: np.ndarray) -> List[str]:
    """The UTF-8 strings of ``data`` between consecutive ``offsets``."""
    bounds = offsets.tolist()
    if data.isascii():
        text = data.decode("ascii")
        return [text[bounds[i]:bounds[i + 1]] for i in range(len(bounds) - 1)]
    return [data[bounds[i]:bounds[i + 1]].decode("utf-8", "surrogateescape") for i in range(len(bounds) - 1)]


def _drawings_of(arrays: List[np.ndarray]) -> Iterator[SketchDrawing]:
    """The drawings of one batch (``sketchprep_batch_field``'s arrays)."""
    points, stroke_offsets, drawing_offsets, recognized, timed, text, text_offsets = arrays[:7]
    xyt = np.ascontiguousarray(points.reshape(-1, 3).T)
    xy = xyt[:2]
    strings = _strings(text.tobytes(), text_offsets)
    starts = stroke_offsets.tolist()
    bounds = drawing_offsets.tolist()
    flags = recognized.tolist()
    times = timed.tolist()
    for index in range(len(flags)):
        source = xyt if times[index] else xy
        strokes = [source[:, starts[stroke]:starts[stroke + 1]] for stroke in range(bounds[index], bounds[index + 1])]
        base = 4 * index
        yield SketchDrawing(strings[base], strings[base + 1], strings[base + 2], strings[base + 3], bool(flags[index]),
                            strokes)
