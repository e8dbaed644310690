"""``bitmap(drawings)`` and ``raster(drawings)``: the rasters of ``sketchprep bitmap``, rendered by
the native library with the command's renderers, option checks and raw-or-simplified rule.

    images = sketchprep.bitmap(sketchprep.read("airplane.ndjson"))   # uint8 (N, 28, 28), Google's bytes
    large = sketchprep.raster(drawings)                               # uint8 (N, 256, 256)
    timed = sketchprep.raster(drawings, channels="order,time,speed")  # uint8 (N, 256, 256, 3)
"""
from __future__ import annotations

import itertools
import operator
from typing import Iterable, List, Optional, Sized, Tuple

import numpy as np

from . import _native
from .errors import DrawingError
from .reading import INPUT_FORMATS, DrawingLike, SketchDrawing, drawing_strokes

__all__ = ["bitmap", "raster"]

_CHUNK = 4096  # drawings per native call
_PLAIN = {list, tuple}  # drawing types whose strokes :func:`_uniform` takes as they are
_size = operator.attrgetter("size")


def bitmap(drawings: Iterable[DrawingLike], size: int = 28, *, line_width: float = 16.0, padding: float = 16.0,
           polarity: str = "white-on-black", channels: Optional[str] = None, input_format: str = "auto",
           strict: bool = True) -> np.ndarray:
    """Rasters of ``drawings`` (from :func:`sketchprep.read`, or strokes ``[[x...], [y...](, [t...])]``
    as lists or arrays) as uint8 ``(N, size, size)``, or ``(N, size, size, C)`` with ``channels``
    (``"order"`` or ``"order,time,speed"``, the time-encoding rasters of ``sketchprep bitmap --channels``).

    The defaults are Google's ``numpy_bitmap`` recipe, byte for byte. ``input_format`` is the CLI's
    ``--input-format``: ``auto`` simplifies a drawing with times or non-integer coordinates (Google's
    steps) and takes the others as simplified; ``raw`` simplifies every drawing; ``simplified`` none.
    A drawing the CLI would quarantine raises :class:`~sketchprep.errors.DrawingError` naming its
    index, or with ``strict=False`` leaves its image zero.
    """
    if input_format not in INPUT_FORMATS:
        raise DrawingError(f"input_format must be one of {', '.join(INPUT_FORMATS)}, not {input_format!r}")
    if isinstance(size, bool) or not isinstance(size, int):
        raise DrawingError(f"size must be an integer, not {size!r}")
    _check_options(size, float(line_width), float(padding), polarity, channels, input_format)
    depth = len(channels.split(",")) if channels else 1
    image_shape = (size, size, depth) if channels else (size, size)
    options = (size, float(line_width), float(padding), polarity, channels, input_format, strict)
    if isinstance(drawings, Sized):
        # One output for every image, each chunk rendered into its slice (no copy, no concatenation).
        output = np.empty((len(drawings),) + image_shape, dtype=np.uint8)
        iterator = iter(drawings)
        for first in range(0, len(drawings), _CHUNK):
            chunk = list(itertools.islice(iterator, _CHUNK))
            if len(chunk) != min(_CHUNK, len(drawings) - first):
                raise DrawingError("the drawings changed their length while being rendered")
            _render_chunk(chunk, first, output[first:first + len(chunk)], *options)
        return output
    parts = []
    iterator = iter(drawings)
    done = 0
    while True:
        chunk = list(itertools.islice(iterator, _CHUNK))
        if not chunk and parts:
            break
        part = np.empty((len(chunk),) + image_shape, dtype=np.uint8)
        _render_chunk(chunk, done, part, *options)
        parts.append(part)
        done += len(chunk)
        if len(chunk) < _CHUNK:
            break
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def raster(drawings: Iterable[DrawingLike], size: int = 256, **options: object) -> np.ndarray:
    """:func:`bitmap` at 256×256 (the CNN input of the raster pipelines); same options."""
    return bitmap(drawings, size, **options)  # type: ignore[arg-type]


def _check_options(size: int, line_width: float, padding: float, polarity: str, channels: Optional[str],
                   input_format: str) -> None:
    """The native library's checks of the options (an empty batch), before any image is allocated."""
    empty = np.zeros(1, dtype=np.int64)
    batch = (0, 0, 3, 0, empty.ctypes.data, 0, empty.ctypes.data, 0)
    with _native.render(batch, None, size, line_width, padding, polarity, channels, input_format, 0) as result:
        if result.message is not None:
            raise DrawingError(result.message)


def _strokes(drawing: DrawingLike, index: int) -> List[np.ndarray]:
    """The strokes of one drawing as float64 arrays of shape (2, n) or (3, n)."""
    strokes = drawing_strokes(drawing)
    if isinstance(strokes, (str, bytes)) or not hasattr(strokes, "__len__"):
        raise DrawingError(f"a drawing is a list of strokes, not {type(strokes).__name__}", index)
    arrays = []
    for number, stroke in enumerate(strokes, 1):
        try:
            values = np.asarray(stroke, dtype=np.float64)
        except (TypeError, ValueError):
            raise DrawingError(f"stroke {number}: expected arrays of numbers [x, y] or [x, y, t]", index) from None
        if values.ndim != 2 or values.shape[0] not in (2, 3):
            raise DrawingError(f"stroke {number}: expected an array [x, y] or [x, y, t]", index)
        arrays.append(values)
    return arrays


def _uniform(chunk: list) -> Optional[Tuple[np.ndarray, np.ndarray, List[int]]]:
    """The points of ``chunk`` as one contiguous float64 array of 2 or 3 rows, with the strokes'
    lengths and the drawings' stroke offsets, when every stroke is a numpy array of the same 2 or
    3 rows (one ``np.concatenate``, no per-stroke checks); None otherwise, and for no stroke at
    all: :func:`_strokes` then checks each stroke and names the first it refuses."""
    kinds = set(map(type, chunk))
    if not kinds <= _PLAIN:
        if not kinds <= _PLAIN | {SketchDrawing}:
            return None
        chunk = list(map(drawing_strokes, chunk))
    try:  # every step in C: no Python call per drawing or stroke
        counts = list(map(len, chunk))
        strokes = list(itertools.chain.from_iterable(chunk))
        sizes = np.fromiter(map(_size, strokes), dtype=np.int64, count=len(strokes))
        points = np.concatenate(strokes, axis=1, dtype=np.float64, casting="same_kind")
    except (TypeError, ValueError, AttributeError, IndexError):
        return None
    drawing_offsets = [0, *itertools.accumulate(counts)]
    if points.ndim != 2 or points.shape[0] not in (2, 3):
        return None
    # Joined along axis 1 into 2 dimensions, every stroke is (rows, n): its size is rows × n.
    return np.ascontiguousarray(points), sizes // points.shape[0], drawing_offsets


def _render_chunk(chunk: list, first: int, output: np.ndarray, size: int, line_width: float, padding: float,
                  polarity: str, channels: Optional[str], input_format: str, strict: bool) -> None:
    """Renders ``chunk`` (drawings ``first``… of the call) into ``output``, a C-contiguous uint8 array
    of its images (the native renderer writes every byte of each, zero for a refused drawing)."""
    uniform = _uniform(chunk)
    if uniform is not None:
        points, lengths, drawing_offsets = uniform
        rows = {points.shape[0]}
    else:
        strokes: List[np.ndarray] = []
        drawing_offsets = [0]
        for index, drawing in enumerate(chunk):
            strokes += _strokes(drawing, first + index)
            drawing_offsets.append(len(strokes))
        rows = {stroke.shape[0] for stroke in strokes}
        lengths = [stroke.shape[1] for stroke in strokes]
    stroke_offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=stroke_offsets[1:])
    count = int(stroke_offsets[-1])
    if uniform is not None or len(rows) == 1:
        # One layout for every stroke: x, y (and t) as rows of one array, stride 1.
        if uniform is None:
            points = np.ascontiguousarray(np.concatenate(strokes, axis=1) if strokes else np.zeros((2, 0)),
                                          dtype=np.float64)
        address, stride = points.ctypes.data, 1
        times = address + 16 * count if points.shape[0] == 3 else None
        y = address + 8 * count
    else:
        # Strokes with and without times: x, y, t per point, NaN t for a stroke given without times.
        points = np.full((count, 3), np.nan)
        for stroke, start in zip(strokes, stroke_offsets[:-1].tolist()):
            points[start:start + stroke.shape[1], :stroke.shape[0]] = stroke.T
        address, stride = points.ctypes.data, 3
        times, y = address + 16, address + 8
    offsets = np.asarray(drawing_offsets, dtype=np.int64)
    batch = (address, y, stride, count, stroke_offsets.ctypes.data, len(lengths), offsets.ctypes.data, len(chunk))
    with _native.render(batch, times, size, line_width, padding, polarity, channels, input_format,
                        output.ctypes.data) as result:
        if result.message is not None:
            raise DrawingError(result.message)
        if strict and result.failures:
            index, reason = min(result.failures.items())
            raise DrawingError(reason, first + index)
