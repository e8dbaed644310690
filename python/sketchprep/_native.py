"""ctypes binding of the bundled native library (the SwiftPM product ``SketchPrepNative``: the
library code the CLI runs, behind the C ABI of python/native/include/sketchprep_native.h, the
Swift runtime linked in statically; its source is python/native/ in the SketchPrep repository).

Every batch call hands over a whole batch in the ``StrokeBatch`` layout and returns a result
handle with its sizes; :class:`Result` reads and frees it, and turns refusals into
:class:`~sketchprep.errors.DrawingError`. :func:`simplify_marshalled` simplifies one marshalled
drawing with the calling thread's native workspace, or declines it.
"""
from __future__ import annotations

import ctypes
import marshal
import os
import pathlib
import threading
from array import array
from typing import TYPE_CHECKING, Dict, Iterator, List, Optional, Tuple, Union

from ._point_buffers import READ_POINTS
from .errors import DatasetError, DrawingError, SketchPrepError

if TYPE_CHECKING:
    import numpy as np

_lib = ctypes.CDLL(str(pathlib.Path(__file__).with_name("libSketchPrepNative.so")))

_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_I32 = ctypes.c_int32
_F64 = ctypes.c_double
_S = ctypes.c_char_p
_BATCH = [_P, _P, _I64, _I64, _P, _I64, _P, _I64]

#: Every entry point: name → (result type, argument types), in the order of
#: python/native/include/sketchprep_native.h, the one declaration (Tests/python/package/test_native_abi.py).
SIGNATURES = {
    "sketchprep_simplify": (_P, _BATCH + [_F64] * 3 + [_P]),
    "sketchprep_encode": (_P, _BATCH + [_I64, _I32, _I32, _P, _P]),
    "sketchprep_render": (_P, [_P, _P, _P, _I64, _I64, _P, _I64, _P, _I64, _I64, _F64, _F64, _S, _S, _S, _P, _P]),
    "sketchprep_reader_open": (_P, [_S, _I64, _S, _S, _I32, _I64, _I64]),
    "sketchprep_reader_next": (_I32, [_P, _P]),
    "sketchprep_reader_copy": (None, [_P, _P]),
    "sketchprep_reader_message": (_S, [_P]),
    "sketchprep_reader_free": (None, [_P]),
    "sketchprep_manifest_read": (_P, [_S, _P]),
    "sketchprep_manifest_check_shard": (_P, [_S, _I64, _I32, _P]),
    "sketchprep_limit": (_I64, [_S]),
    "sketchprep_result_copy": (None, [_P, _P, _P, _P]),
    "sketchprep_result_bytes": (_P, [_P]),
    "sketchprep_result_message": (_S, [_P]),
    "sketchprep_result_failure_index": (_I64, [_P, _I64]),
    "sketchprep_result_failure_reason": (_S, [_P, _I64]),
    "sketchprep_result_free": (None, [_P]),
    "sketchprep_simplify_marshalled": (_I64, [_S, _I64] + [_F64] * 3 + [_P, _P, _I64]),
    "sketchprep_workspace_new": (_P, []),
    "sketchprep_workspace_free": (None, [_P]),
    "sketchprep_version": (_S, []),
}

for _name, (_result, _arguments) in SIGNATURES.items():
    _function = getattr(_lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments

#: The version the native library was built from (``SketchPrepVersion.current``).
NATIVE_VERSION: str = _lib.sketchprep_version().decode()

# (x address, y address, stride, point count, stroke offsets address, stroke count,
#  drawing offsets address, drawing count)
BatchArguments = Tuple[int, int, int, int, int, int, int, int]

_SIZES = 5  # points, strokes, drawings, refused drawings, whole call refused


class Result:
    """A native result: its sizes, and the simplified strokes until :meth:`close`."""

    __slots__ = ("_handle", "points", "strokes", "drawings", "_failure_count", "_refused")

    def __init__(self, handle: int, sizes: array) -> None:
        self._handle = handle
        self.points, self.strokes, self.drawings, self._failure_count, self._refused = sizes

    @property
    def message(self) -> Optional[str]:
        """Why the whole call was refused, or None."""
        return _lib.sketchprep_result_message(self._handle).decode() if self._refused else None

    @property
    def failures(self) -> Dict[int, str]:
        """Refused drawings: batch index → reason."""
        return {int(_lib.sketchprep_result_failure_index(self._handle, n)):
                _lib.sketchprep_result_failure_reason(self._handle, n).decode() for n in range(self._failure_count)}

    def copy_into(self, points: int, stroke_offsets: int, drawing_offsets: int) -> None:
        """Copies the strokes into buffers at these addresses (sized from the counts)."""
        _lib.sketchprep_result_copy(self._handle, points, stroke_offsets, drawing_offsets)

    def raise_first(self, batch: bool = True) -> None:
        """Raises the call's refusal, or the first drawing's (naming its index in a ``batch``), if any."""
        if self._refused:
            raise DrawingError(self.message)
        if self._failure_count:
            failures = self.failures
            index = min(failures)
            raise DrawingError(failures[index], index if batch else None)

    def close(self) -> None:
        """Frees the native result."""
        if self._handle:
            _lib.sketchprep_result_free(self._handle)
            self._handle = 0

    def __enter__(self) -> "Result":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def simplify(batch: BatchArguments, epsilon: float, resample_step: float, scale_target: float) -> Result:
    """Google's simplification of every drawing of ``batch``."""
    sizes = array("q", bytes(8 * _SIZES))
    return Result(_lib.sketchprep_simplify(*batch, epsilon, resample_step, scale_target, sizes.buffer_info()[0]), sizes)


def _address(buffer: Union["np.ndarray", memoryview]) -> int:
    """The address of a C-contiguous, writable, non-empty buffer's memory (a numpy array, a
    ``memoryview`` of a ``bytearray``), through a ctypes view of it: 0.7 µs on the development
    machine, where a numpy array's ``ctypes.data`` takes 2.8 µs (a read batch asked it ten times)."""
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer))


_simplify_marshalled = _lib.sketchprep_simplify_marshalled
_OUTPUT_ROOM = 1 << 19  # bytes: 5 per output coordinate


class _Workspace:
    """One thread's native buffers and output room for :func:`simplify_marshalled` (ctypes
    releases the GIL during a call, so threads must not share them)."""

    __slots__ = ("handle", "room", "room_address")

    def __init__(self) -> None:
        self.handle = _lib.sketchprep_workspace_new()
        self.room = memoryview(bytearray(_OUTPUT_ROOM))
        self.room_address = _address(self.room)

    def __del__(self, free=_lib.sketchprep_workspace_free) -> None:  # bound now: module globals are gone at exit
        free(self.handle)


_thread = threading.local()


def simplify_marshalled(data: bytes, options: Tuple[float, float, float]) -> Optional[List[List[List[int]]]]:
    """Simplifies one drawing given as ``marshal.dumps(drawing, 2)`` in one native call, which
    writes the strokes in the same format for ``marshal.loads``. Returns the strokes, or None
    when the native library declines (not plain lists of numbers, refused, or more than
    ``_OUTPUT_ROOM`` bytes of output): :func:`sketchprep.simplify` then takes the path that
    names the reason."""
    workspace = getattr(_thread, "workspace", None)
    if workspace is None:
        workspace = _thread.workspace = _Workspace()
    size = _simplify_marshalled(data, len(data), *options, workspace.handle, workspace.room_address, _OUTPUT_ROOM)
    return None if size < 0 else marshal.loads(workspace.room[:size])


def encode(batch: BatchArguments, length: int, padding_front: bool, truncation_back: bool, output: int) -> Result:
    """Stroke tensors of every drawing of ``batch`` into the float32 buffer at ``output``."""
    sizes = array("q", bytes(8 * _SIZES))
    return Result(_lib.sketchprep_encode(*batch, length, int(padding_front), int(truncation_back), output,
                                         sizes.buffer_info()[0]), sizes)


def limit(name: str) -> int:
    """A named cap of the readers (``sketchprep_limit``: e.g. ``ZipArchive.maximumEntryCount``)."""
    value = _lib.sketchprep_limit(name.encode())
    if value < 0:
        raise KeyError(name)
    return int(value)


def manifest_bytes(directory: str) -> bytes:
    """The dataset's manifest as the CLI reads and checks it (``Manifest.readValid``), as JSON;
    raises :class:`~sketchprep.errors.DatasetError` with the CLI's reason."""
    sizes = array("q", bytes(8 * _SIZES))
    with Result(_lib.sketchprep_manifest_read(directory.encode(), sizes.buffer_info()[0]), sizes) as result:
        if result.message is not None:
            raise DatasetError(result.message)
        return ctypes.string_at(_lib.sketchprep_result_bytes(result._handle), result.points)


def shard_problem(directory: str, index: int, hashing: bool) -> Optional[str]:
    """What ``sketchprep verify`` finds wrong with listed shard ``index``, or None."""
    sizes = array("q", bytes(8 * _SIZES))
    handle = _lib.sketchprep_manifest_check_shard(directory.encode(), index, int(hashing), sizes.buffer_info()[0])
    if not handle:
        return None
    with Result(handle, sizes) as result:
        return result.message


def render(batch: BatchArguments, times: Optional[int], side: int, line_width: float, padding: float, polarity: str,
           channels: Optional[str], input_format: str, output: int) -> Result:
    """Rasters of every drawing of ``batch`` into the uint8 buffer at ``output``."""
    sizes = array("q", bytes(8 * _SIZES))
    return Result(_lib.sketchprep_render(batch[0], batch[1], times, batch[2], *batch[3:], side, line_width, padding, polarity.encode(),
                                         (channels or "").encode(), input_format.encode(), output,
                                         sizes.buffer_info()[0]), sizes)


# The arrays of a read batch after its points (sketchprep_reader_next's counts 3…10): numpy dtypes.
_BATCH_FIELDS = ("int64", "int64", "uint8", "uint8", "uint8", "int64", "uint8", "int64")
_FIELDS = 11
# Those arrays lie in one block of memory per batch, the int64 ones first (so each starts 8-byte
# aligned), then the uint8 ones: (field number, dtype, bytes per element) in that order.
_BLOCK_LAYOUT = tuple(sorted(((field, dtype, 8 if dtype == "int64" else 1) for field, dtype in enumerate(_BATCH_FIELDS, 3)),
                             key=lambda entry: -entry[2]))


def read_batches(paths: List[str], file_format: Optional[str], word: Optional[str], keep_times: bool,
                 batch_records: int, jobs: int) -> Iterator[List["np.ndarray"]]:
    """The batches of ``sketchprep_reader_open``, each as nine arrays (copied, writable): the points
    as one float64 array of x, y (and t when a stroke of the batch has times) rows, shape (2, points)
    or (3, points), a view of a buffer of ``READ_POINTS`` (one that no array of an earlier batch
    refers to any more, else a new one), then arrays 3…10 of ``sketchprep_reader_next``, views of one
    block of memory of the batch (``_BLOCK_LAYOUT``). The native read runs on a thread of the
    library's own one batch ahead, decoding on ``jobs`` worker threads (0: the CPUs this process may
    use); each batch costs two calls (its counts, then the copy into its arrays), during which ctypes
    releases the GIL. Closing the iterator stops the read. Raises
    :class:`~sketchprep.errors.SketchPrepError` when reading fails."""
    import numpy as np

    packed = b"".join(os.fsencode(path) + b"\0" for path in paths)
    reader = _lib.sketchprep_reader_open(packed, len(paths), (file_format or "").encode(), (word or "").encode(),
                                         int(keep_times), batch_records, jobs)
    counts = array("q", bytes(8 * _FIELDS))
    counts_address = counts.buffer_info()[0]
    addresses = (ctypes.c_void_p * _FIELDS)()
    try:
        while _lib.sketchprep_reader_next(reader, counts_address):
            points_count = counts[0]
            rows = 3 if counts[2] else 2
            points = READ_POINTS.points(rows, points_count)  # x, y(, t) planes: strokes are views
            base = _address(points) if points_count else None
            addresses[0] = base
            addresses[1] = base + 8 * points_count if base else None
            addresses[2] = base + 16 * points_count if base and rows == 3 else None
            block = np.empty(sum(counts[field] * size for field, _, size in _BLOCK_LAYOUT), dtype=np.uint8)
            block_address = _address(block)  # never empty: the offsets arrays hold at least one value
            fields: List[Optional[np.ndarray]] = [None] * len(_BATCH_FIELDS)
            start = 0
            for field, dtype, size in _BLOCK_LAYOUT:
                end = start + counts[field] * size
                fields[field - 3] = block[start:end].view(dtype)
                addresses[field] = block_address + start if end > start else None
                start = end
            _lib.sketchprep_reader_copy(reader, addresses)
            yield [points, *fields]
        message = _lib.sketchprep_reader_message(reader)
    finally:
        _lib.sketchprep_reader_free(reader)
    if message:
        raise SketchPrepError(message.decode())
