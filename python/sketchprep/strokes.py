"""Google's simplification, the stroke-tensor recipe and stroke-3 arrays, computed by the
bundled native SketchCore, so results are the bytes the ``sketchprep`` CLI writes.

A drawing is a list of strokes as in Quick, Draw! NDJSON: ``[[x...], [y...]]`` or
``[[x...], [y...], [t...]]`` (lists or numpy arrays), or a :class:`~sketchprep.SketchDrawing` from
:func:`sketchprep.read`, taken as its ``strokes``. Bad input raises :class:`~sketchprep.errors.DrawingError` (a
``ValueError``) with the reason the CLI quarantines it with; nothing crashes the interpreter.
"""
from __future__ import annotations

import marshal
import numbers
from array import array
from dataclasses import dataclass, field
from typing import Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from .errors import DrawingError
from .reading import DrawingLike, drawing_strokes

__all__ = [
    "Drawing", "StrokeBatch", "simplify", "simplify_batch", "encode", "encode_batch", "to_stroke3",
    "MAXIMUM_STROKES", "MAXIMUM_POINTS", "MAXIMUM_TIMESTAMP", "MAXIMUM_LENGTH",
]

#: A drawing: strokes of parallel coordinate lists (``[xs, ys]`` or ``[xs, ys, ts]``).
Drawing = Sequence[Sequence[Sequence[float]]]

#: Most strokes in one drawing (``DrawingLimits.maximumStrokes``).
MAXIMUM_STROKES = 10_000
#: Most points over all strokes of one drawing (``DrawingLimits.maximumPoints``).
MAXIMUM_POINTS = 100_000
#: Largest accepted ``|t|`` (``DrawingLimits.maximumTimestampMagnitude``); timestamps are checked, not used.
MAXIMUM_TIMESTAMP = 1e15
#: Longest tensor (``sketchprep encode --length`` and ``encode.length``'s bound).
MAXIMUM_LENGTH = 100_000

_SIDES = ("front", "back")


@dataclass(frozen=True)
class StrokeBatch:
    """Many drawings in three flat arrays, the form the native library takes in one call.

    ``points`` is ``(P, 2)`` (float64 input; int32 simplified output), ``stroke_offsets`` the
    ``S + 1`` int64 indices in ``points`` where each stroke starts (and the end), and
    ``drawing_offsets`` the ``D + 1`` int64 indices in the strokes where each drawing starts.
    ``rejected`` maps the batch index of each drawing refused by ``simplify_batch(...,
    errors="collect")`` to its reason (such a drawing has no strokes).
    """

    points: np.ndarray
    stroke_offsets: np.ndarray
    drawing_offsets: np.ndarray
    rejected: Mapping[int, str] = field(default_factory=dict)

    @classmethod
    def from_drawings(cls, drawings: Iterable[DrawingLike]) -> "StrokeBatch":
        """Packs drawings (NDJSON-style stroke lists, or :class:`~sketchprep.SketchDrawing`s) into a
        batch; refuses malformed ones."""
        xs, ys, stroke_ends, drawing_ends = array("d"), array("d"), [0], [0]
        for index, drawing in enumerate(drawings):
            try:
                x, y, ends = _pack(drawing)
            except DrawingError as error:
                raise DrawingError(error.reason, index) from None
            start = len(xs)
            xs += x
            ys += y
            stroke_ends += [start + end for end in ends[1:]]
            drawing_ends.append(len(stroke_ends) - 1)
        points = np.empty((len(xs), 2), dtype=np.float64)
        if len(xs):
            points[:, 0] = np.frombuffer(xs, dtype=np.float64)
            points[:, 1] = np.frombuffer(ys, dtype=np.float64)
        return cls(points, np.array(stroke_ends, dtype=np.int64), np.array(drawing_ends, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.drawing_offsets) - 1

    def drawing(self, index: int) -> List[List[List[Union[int, float]]]]:
        """Drawing ``index`` as NDJSON-style stroke lists (``[[x...], [y...]]``)."""
        first, end = int(self.drawing_offsets[index]), int(self.drawing_offsets[index + 1])
        offsets = self.stroke_offsets[first:end + 1].tolist()
        coordinates = self.points[offsets[0]:offsets[-1]].T.tolist() if end > first else [[], []]
        base = offsets[0]
        return [[coordinates[0][a - base:b - base], coordinates[1][a - base:b - base]] for a, b in zip(offsets, offsets[1:])]

    def to_drawings(self) -> List[List[List[List[Union[int, float]]]]]:
        """Every drawing as NDJSON-style stroke lists."""
        return [self.drawing(index) for index in range(len(self))]


def simplify(drawing: DrawingLike, *, epsilon: float = 2.0, resample_step: float = 1.0,
             scale_target: float = 255) -> List[List[List[int]]]:
    """Google's simplification of one raw drawing, as ``sketchprep simplify`` writes it.

    Aligns to the top-left, scales the larger extent to ``scale_target``, resamples every stroke
    at ``resample_step``, applies Ramer–Douglas–Peucker with tolerance ``epsilon`` and rounds half
    to even. Returns ``[[[x...], [y...]], ...]`` with integer coordinates (timestamps dropped).
    Raises :class:`DrawingError` for an option out of bounds or a drawing the CLI quarantines.
    """
    options = _options(epsilon, resample_step, scale_target)
    simplified = _simplify_marshalled(drawing, options)
    if simplified is not None:
        return simplified
    # Refused or unusual: the checked path, which names the reason (or simplifies what the
    # fast path does not read, e.g. numpy scalars or a drawing with a large output).
    xs, ys, ends = _pack(drawing)
    strokes = array("q", ends)
    one_drawing = array("q", [0, len(ends) - 1])
    arguments = (xs.buffer_info()[0], ys.buffer_info()[0], 1, len(xs), strokes.buffer_info()[0], len(ends) - 1,
                 one_drawing.buffer_info()[0], 1)
    with _native.simplify(arguments, *options) as result:
        result.raise_first(batch=False)
        points = array("i", bytes(8 * result.points))
        offsets = array("q", bytes(8 * (result.strokes + 1)))
        result.copy_into(points.buffer_info()[0], offsets.buffer_info()[0], one_drawing.buffer_info()[0])
    return [[points[2 * a:2 * b:2].tolist(), points[2 * a + 1:2 * b:2].tolist()] for a, b in zip(offsets, offsets[1:])]


def _simplify_marshalled(drawing: DrawingLike, options: Tuple[float, float, float]) -> Optional[List[List[List[int]]]]:
    """The fast path of :func:`simplify`: the drawing marshalled (``marshal`` walks the nested
    lists in C and refuses any type but the built-in ones: no Python code runs per number), then
    read, checked and simplified in one native call. None when the drawing holds anything but
    lists, ints, floats and bools, or the native library declines it (refused, or too much
    output); the checked path of :func:`simplify` then runs and names the reason."""
    if type(drawing) is not list or len(drawing) > MAXIMUM_STROKES:
        return None
    try:
        data = marshal.dumps(drawing, _MARSHAL_VERSION)
    except ValueError:  # an unmarshallable object, or nested too deep
        return None
    return _native.simplify_marshalled(data, options)


# The marshal format `python/native/MarshalledDrawing.swift` reads (no object references).
_MARSHAL_VERSION = 2


def simplify_batch(drawings: Union[StrokeBatch, Iterable[DrawingLike]], *, epsilon: float = 2.0,
                   resample_step: float = 1.0, scale_target: float = 255, errors: str = "raise") -> StrokeBatch:
    """:func:`simplify` for many drawings in one native call; returns int32 points.

    ``drawings`` is a :class:`StrokeBatch` (numpy in) or an iterable of drawings. With
    ``errors="raise"`` the first refused drawing raises :class:`DrawingError` naming its index;
    with ``errors="collect"`` refused drawings come back empty and listed in ``rejected``.
    """
    if errors not in ("raise", "collect"):
        raise DrawingError(f"errors must be 'raise' or 'collect', not {errors!r}")
    batch = drawings if isinstance(drawings, StrokeBatch) else StrokeBatch.from_drawings(drawings)
    arguments, keep = _batch_arguments(batch)
    with _native.simplify(arguments, *_options(epsilon, resample_step, scale_target)) as result:
        if result.message is not None or errors == "raise":
            result.raise_first()
        points = np.empty((result.points, 2), dtype=np.int32)
        stroke_offsets = np.empty(result.strokes + 1, dtype=np.int64)
        drawing_offsets = np.empty(result.drawings + 1, dtype=np.int64)
        result.copy_into(points.ctypes.data, stroke_offsets.ctypes.data, drawing_offsets.ctypes.data)
        rejected = dict(sorted(result.failures.items()))
    del keep
    return StrokeBatch(points, stroke_offsets, drawing_offsets, rejected)


def encode(simplified: DrawingLike, length: int = 75, padding: str = "front", truncation: str = "back") -> np.ndarray:
    """The stroke tensor of one simplified drawing: float32 ``(length, 3)`` rows ``(dx, dy, eos)``.

    The recipe of ``sketchprep encode`` (docs/tensors.md): points per axis min-max normalised in
    float32, deltas between consecutive points, ``eos`` 1 where a stroke ends; zero rows added at
    ``padding`` (``"front"``/``"back"``), rows cut at ``truncation`` (``"back"`` keeps the first
    ``length``). Coordinates beyond ±65,535 are refused, as the CLI refuses them in a drawing used
    as simplified. Returns the same float32 values as the CLI's NPY row.
    """
    try:
        return encode_batch(StrokeBatch.from_drawings([simplified]), length, padding, truncation)[0]
    except DrawingError as error:
        raise DrawingError(error.reason) from None


def encode_batch(simplified: Union[StrokeBatch, Iterable[DrawingLike]], length: int = 75, padding: str = "front",
                 truncation: str = "back") -> np.ndarray:
    """:func:`encode` for many drawings in one native call: float32 ``(N, length, 3)``.

    The first refused drawing raises :class:`DrawingError` naming its index.
    """
    if isinstance(length, bool) or not isinstance(length, numbers.Integral) or not 1 <= length <= MAXIMUM_LENGTH:
        raise DrawingError(f"length must be an integer between 1 and {MAXIMUM_LENGTH}, not {length!r}")
    for name, side in (("padding", padding), ("truncation", truncation)):
        if side not in _SIDES:
            raise DrawingError(f"{name} must be 'front' or 'back', not {side!r}")
    batch = simplified if isinstance(simplified, StrokeBatch) else StrokeBatch.from_drawings(simplified)
    arguments, keep = _batch_arguments(batch)
    output = np.zeros((len(batch), int(length), 3), dtype=np.float32)
    with _native.encode(arguments, int(length), padding == "front", truncation == "back", output.ctypes.data) as result:
        result.raise_first()
    del keep
    return output


def to_stroke3(simplified: DrawingLike) -> np.ndarray:
    """sketch-rnn's stroke-3 form of the given strokes: int16 ``(n, 3)`` rows ``[dx, dy, pen_lifted]``.

    The first row holds the first point itself (an offset from 0, 0); ``pen_lifted`` is 1 on
    each stroke's last point (Magenta's ``lines_to_strokes``, the rows of the CLI's ``.npz``
    output). No simplification is applied. Values must be integers in the int16 range.
    """
    batch = StrokeBatch.from_drawings([simplified])
    points = batch.points
    if len(points) and not (np.all(np.isfinite(points)) and np.all(points == np.round(points))):
        raise DrawingError("stroke-3 needs integer coordinates (simplify the drawing first)")
    rows = np.zeros((len(points), 3), dtype=np.float64)
    rows[:, :2] = np.diff(points, axis=0, prepend=np.zeros((1, 2)))
    rows[batch.stroke_offsets[1:] - 1, 2] = 1
    if len(rows) and np.abs(rows).max() > np.iinfo(np.int16).max:
        raise DrawingError("a stroke-3 value leaves the int16 range")
    return rows.astype(np.int16)


def _pack(drawing: DrawingLike) -> Tuple[array, array, List[int]]:
    """A drawing's x and y coordinates as float64 arrays and its stroke ends ``[0, end₁, …]``,
    checking what the NDJSON parser checks before the native library sees the drawing (shape,
    counts, numbers, timestamps; the native library checks the coordinates), with the reason of
    the first problem: the packing of batches and of :func:`simplify`'s checked path. The strokes
    are the drawing's :func:`~sketchprep.reading.drawing_strokes` (a SketchDrawing's ``strokes``)."""
    drawing = drawing_strokes(drawing)
    if not isinstance(drawing, (list, tuple)):
        raise DrawingError(f"a drawing is a list of strokes, not {type(drawing).__name__}")
    if not drawing:
        raise DrawingError("empty drawing: no strokes")
    if len(drawing) > MAXIMUM_STROKES:
        raise DrawingError(f"too many strokes: more than {MAXIMUM_STROKES} in the drawing")
    xs: list = []
    ys: list = []
    times: list = []
    ends = [0]
    number = 0
    try:
        for number, stroke in enumerate(drawing, 1):
            arrays = len(stroke)
            if arrays == 2:
                x, y = stroke
            elif arrays == 3:
                x, y, t = stroke
                if len(t) != len(x):
                    raise DrawingError(f"stroke {number}: x has {len(x)} values but t has {len(t)}")
                times.extend(t)
            else:
                raise DrawingError(f"stroke {number}: expected an array [x, y] or [x, y, t]")
            count = len(x)
            if count != len(y) or count == 0:
                raise DrawingError(f"stroke {number}: x has {count} values but y has {len(y)}" if count
                                   else f"stroke {number} has no points")
            # extend(), not +=: `list += ndarray` is numpy's broadcasting add, so numpy arrays as
            # stroke arrays (a common way to hold live strokes) would be refused.
            xs.extend(x)
            ys.extend(y)
            ends.append(len(xs))
        if len(xs) > MAXIMUM_POINTS:
            raise DrawingError(f"too many points: more than {MAXIMUM_POINTS} in the drawing")
        x_values, y_values = array("d", xs), array("d", ys)
        # sum() is NaN or ±inf when any timestamp is; the bounds need min() and max() besides.
        in_range = not times or (abs(sum(times)) < float("inf") and -MAXIMUM_TIMESTAMP <= min(times)
                                 and max(times) <= MAXIMUM_TIMESTAMP)
    except (TypeError, ValueError, OverflowError) as error:
        if isinstance(error, DrawingError):
            raise
        raise DrawingError(f"stroke {number}: expected arrays of numbers [x, y] or [x, y, t]") from None
    if not in_range:
        raise DrawingError("coordinate out of range: a timestamp is not finite or beyond ±1e15")
    return x_values, y_values, ends


_DEFAULT_OPTIONS = (2.0, 1.0, 255.0)


def _options(epsilon: float, resample_step: float, scale_target: float) -> Tuple[float, float, float]:
    if ((epsilon, resample_step, scale_target) == _DEFAULT_OPTIONS and type(epsilon) is float
            and type(resample_step) is float and type(scale_target) in (int, float)):
        return _DEFAULT_OPTIONS
    values = []
    for name, value in (("epsilon", epsilon), ("resample_step", resample_step), ("scale_target", scale_target)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise DrawingError(f"{name} must be a number, not {value!r}")
        values.append(float(value))
    return values[0], values[1], values[2]


def _batch_arguments(batch: StrokeBatch) -> Tuple[_native.BatchArguments, tuple]:
    """The native call's arguments for ``batch`` and the arrays that must stay alive meanwhile."""
    points = np.asarray(batch.points)
    if points.ndim != 2 or points.shape[1] != 2:
        raise DrawingError(f"points must have shape (P, 2), not {points.shape}")
    points = np.ascontiguousarray(points, dtype=np.float64)
    offsets = []
    for name in ("stroke_offsets", "drawing_offsets"):
        value = np.asarray(getattr(batch, name))
        if value.ndim != 1 or len(value) == 0 or not np.issubdtype(value.dtype, np.integer):
            raise DrawingError(f"{name} must be a non-empty 1-D integer array")
        offsets.append(np.ascontiguousarray(value, dtype=np.int64))
    strokes, drawings = offsets
    address = points.ctypes.data
    arguments = (address, address + 8, 2, len(points), strokes.ctypes.data, len(strokes) - 1,
                 drawings.ctypes.data, len(drawings) - 1)
    return arguments, (points, strokes, drawings)
