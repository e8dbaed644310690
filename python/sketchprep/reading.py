"""``read(paths)``: the drawings of Quick, Draw! NDJSON, Google ``.bin``, Kaggle CSV, sketch-rnn
stroke-3 ``.npz`` and SVG files, read by the native library with the reader every command uses
(``DrawingSource``: the same format detection, caps and reasons), in batches of flat arrays.

    reader = sketchprep.read("airplane.ndjson")
    for drawing in reader:
        drawing.word, drawing.key_id, drawing.strokes[0]   # (3, n) float64: x, y, t
    reader.rejected                                         # [Rejection(file, line, reason), ...]
"""
from __future__ import annotations

from itertools import chain, repeat
from operator import length_hint
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _native
from ._paths import PathsLike, path_list
from .errors import DrawingError, SketchPrepError

__all__ = ["read", "Reader", "SketchDrawing", "Rejection", "FORMATS", "INPUT_FORMATS"]

#: ``format`` values: the CLI's ``--format`` (None: decided by content).
FORMATS = ("ndjson", "bin", "stroke3", "csv", "svg")
#: ``input_format`` values: the CLI's ``--input-format``.
INPUT_FORMATS = ("auto", "raw", "simplified")


class Rejection(NamedTuple):
    """A record the reader refused: the file, its line (record number for ``.bin``, position for
    stroke-3) and the reason, as the CLI quarantines it."""
    file: str
    line: int
    reason: str


class SketchDrawing(tuple):
    """One drawing with its metadata. ``strokes`` holds one float64 array per stroke in the NDJSON
    layout: shape (3, n) (x, y, t) when the drawing has times, else (2, n), so
    :func:`sketchprep.simplify` and :func:`sketchprep.bitmap` take it as it is.

    A drawing from :func:`read` is made in C (a tuple of its batch and its index there, made by
    ``map`` over the batch) and costs no Python call until a field is asked for: its word, key_id,
    country and timestamp are decoded from the batch's text on the first access to any drawing's
    text, and its ``strokes`` are built on each access as views of its batch's points (a new list of
    views of the same numbers). It is not iterable, compares by identity, and pickles with its
    metadata and strokes."""

    __slots__ = ()

    def __new__(cls, word: str, key_id: str, countrycode: str, timestamp: str, recognized: bool,
                strokes: List[np.ndarray]) -> "SketchDrawing":
        return tuple.__new__(cls, (_Given(word, key_id, countrycode, timestamp, recognized, strokes), 0))

    @property
    def word(self) -> str:
        """The drawing's word (its category)."""
        return self[0].text(4 * self[1])

    @property
    def key_id(self) -> str:
        """The drawing's key_id."""
        return self[0].text(4 * self[1] + 1)

    @property
    def countrycode(self) -> str:
        """The player's country code."""
        return self[0].text(4 * self[1] + 2)

    @property
    def timestamp(self) -> str:
        """When the drawing was made, as the input writes it."""
        return self[0].text(4 * self[1] + 3)

    @property
    def recognized(self) -> bool:
        """Whether the game recognized the drawing."""
        return self[0].recognized(self[1])

    @property
    def strokes(self) -> List[np.ndarray]:
        """One float64 array per stroke, (3, n) with times, else (2, n)."""
        return self[0].strokes(self[1])

    def __reduce__(self) -> tuple:
        return SketchDrawing, (self.word, self.key_id, self.countrycode, self.timestamp, self.recognized, self.strokes)

    def __iter__(self) -> Iterator[object]:
        raise TypeError("a SketchDrawing is not iterable: use its strokes")

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return (f"SketchDrawing(word={self.word!r}, key_id={self.key_id!r}, countrycode={self.countrycode!r}, "
                f"recognized={self.recognized}, strokes={len(self.strokes)})")


#: A drawing: a :class:`SketchDrawing`, or its strokes ``[[x...], [y...](, [t...])]`` as lists or arrays.
DrawingLike = Union[SketchDrawing, Sequence[Sequence[Sequence[float]]]]


def drawing_strokes(drawing: DrawingLike) -> Sequence[Sequence[Sequence[float]]]:
    """The strokes of a drawing-like value: a :class:`SketchDrawing`'s ``strokes``, any other value
    as it is (the function that takes it checks it as strokes). Every function that takes drawings
    (``simplify``, ``encode``, ``to_stroke3``, their batches, ``bitmap``) takes them through this."""
    return drawing.strokes if isinstance(drawing, SketchDrawing) else drawing


class _Given:
    """The fields of a :class:`SketchDrawing` made by its constructor (its index is 0)."""

    __slots__ = ("_texts", "_recognized", "_strokes")

    def __init__(self, word: str, key_id: str, countrycode: str, timestamp: str, recognized: bool,
                 strokes: List[np.ndarray]) -> None:
        self._texts = (word, key_id, countrycode, timestamp)
        self._recognized = recognized
        self._strokes = strokes

    def text(self, number: int) -> str:
        return self._texts[number]

    def recognized(self, _index: int) -> bool:
        return self._recognized

    def strokes(self, _index: int) -> List[np.ndarray]:
        return self._strokes


class _Batch:
    """One read batch (``_native.read_batches``), from which its drawings' fields are taken on
    access: the points (2 or 3 rows) their strokes are cut from, with the stroke and drawing
    offsets and timed flags that cut them, made Python lists at the first access to any drawing's
    strokes, and the text of every drawing (word, key_id, countrycode, timestamp each), decoded at
    the first access to any of them."""

    __slots__ = ("_arrays", "_xyt", "_xy", "_starts", "_bounds", "_timed", "_recognized", "_text", "_text_offsets",
                 "_texts")

    def __init__(self, arrays: List[np.ndarray]) -> None:
        self._arrays = arrays
        self._xyt = arrays[0]
        self._xy = self._xyt[:2]
        self._starts: Optional[List[int]] = None
        self._bounds: List[int] = []
        self._timed: List[int] = []
        self._recognized = arrays[3]
        self._text = arrays[5]
        self._text_offsets = arrays[6]
        self._texts: Optional[List[str]] = None

    def text(self, number: int) -> str:
        texts = self._texts
        if texts is None:
            texts = self._texts = _strings(self._text.tobytes(), self._text_offsets)
        return texts[number]

    def recognized(self, index: int) -> bool:
        return bool(self._recognized[index])

    def strokes(self, index: int) -> List[np.ndarray]:
        starts = self._starts
        if starts is None:
            arrays = self._arrays
            starts = self._starts = arrays[1].tolist()
            self._bounds = arrays[2].tolist()
            self._timed = arrays[4].tolist()
        source = self._xyt if self._timed[index] else self._xy
        return [source[:, starts[stroke]:starts[stroke + 1]]
                for stroke in range(self._bounds[index], self._bounds[index + 1])]


class Reader:
    """An iterable of :class:`SketchDrawing` (iterate it once); ``rejected`` lists the records
    refused so far, ``read`` counts the drawings handed out."""

    def __init__(self, paths: List[str], file_format: Optional[str], input_format: str, word: Optional[str],
                 strict: bool, batch_size: int, jobs: Optional[int],
                 on_rejected: Optional[Callable[[Rejection], None]]) -> None:
        self._paths = paths
        self._format = file_format
        self.input_format = input_format
        self._word = word
        self._strict = strict
        self._batch_size = batch_size
        self._jobs = jobs
        self._on_rejected = on_rejected
        self.rejected: List[Rejection] = []
        self._handed = 0  # drawings of the batches before the current one
        self._current: Optional[Iterator[int]] = None  # the current batch's indices still to hand out
        self._current_size = 0
        self._started = False

    @property
    def read(self) -> int:
        """The drawings handed out so far."""
        if self._current is None:
            return self._handed
        return self._handed + self._current_size - length_hint(self._current)

    def __iter__(self) -> Iterator[SketchDrawing]:
        if self._started:
            raise SketchPrepError("a sketchprep.read reader is iterated once; call sketchprep.read again")
        self._started = True
        return chain.from_iterable(self._batches())

    def _batches(self) -> Iterator[Iterator[SketchDrawing]]:
        """Per batch, an iterator that makes its drawings in C (``map`` over the batch and its
        indices); what the index iterator has left counts the drawings not yet handed out."""
        batches = _native.read_batches(self._paths, self._format, self._word, True, self._batch_size,
                                       0 if self._jobs is None else self._jobs)
        try:
            for arrays in batches:
                self._note_rejected(arrays[7], arrays[8])
                if self._current is not None:
                    self._handed += self._current_size
                    self._current = None
                count = len(arrays[3])
                if not count:
                    continue
                indices = iter(range(count))
                self._current, self._current_size = indices, count
                columns = zip(repeat(_Batch(arrays), count), indices)
                # tuple.__new__ called by map itself: through functools.partial, a drawing cost about
                # 25 % more (0.4 ms more per 7,100 drawings on the development machine).
                yield map(_new_tuple, repeat(SketchDrawing, count), columns)
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


def read(path_or_paths: PathsLike, *, format: Optional[str] = None,  # noqa: A002 (the CLI's name)
         input_format: str = "auto", word: Optional[str] = None, strict: bool = False, batch_size: int = 256,
         jobs: Optional[int] = None, on_rejected: Optional[Callable[[Rejection], None]] = None) -> Reader:
    """The drawings of the files or directories given (one path, as ``str``, ``bytes`` or
    ``os.PathLike``, or an iterable of them), in the CLI's reading order, whatever ``jobs``.

    ``format`` and ``input_format`` are the CLI's ``--format`` (ndjson, bin, stroke3, csv, svg;
    None: decided by content) and ``--input-format`` (auto, raw, simplified: kept on the reader for
    :func:`sketchprep.bitmap` and friends; drawings are handed out as read). ``word`` names the word
    of ``.bin`` records (default: the file name). A record the CLI would quarantine is not raised
    but listed in the reader's ``rejected`` (and passed to ``on_rejected``), unless ``strict``: then
    the first raises :class:`~sketchprep.errors.DrawingError`. A missing input or one of no
    readable format raises :class:`~sketchprep.errors.SketchPrepError` with the CLI's reason.
    ``jobs`` is the CLI's ``--jobs``: the threads that decode the records (default: the CPUs this
    process may use); drawings are handed out in batches of at most ``batch_size`` drawings and
    rejected records together.
    """
    if format is not None and format not in FORMATS:
        raise SketchPrepError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    if input_format not in INPUT_FORMATS:
        raise SketchPrepError(f"unknown input_format {input_format!r}; expected one of {', '.join(INPUT_FORMATS)}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SketchPrepError(f"jobs must be a number of threads (1 or more; None: the CPUs this process may use), not {jobs!r}")
    paths = path_list(path_or_paths)
    if not paths:
        raise SketchPrepError("sketchprep.read needs at least one path")
    return Reader(paths, format, input_format, word, strict, batch_size, jobs, on_rejected)


def _strings(data: bytes, offsets: np.ndarray) -> List[str]:
    """The UTF-8 strings of ``data`` between consecutive ``offsets``."""
    bounds = offsets.tolist()
    if data.isascii():
        text = data.decode("ascii")
        return [text[bounds[i]:bounds[i + 1]] for i in range(len(bounds) - 1)]
    return [data[bounds[i]:bounds[i + 1]].decode("utf-8", "surrogateescape") for i in range(len(bounds) - 1)]


_new_tuple = tuple.__new__
