"""ctypes binding of the bundled native library (SketchCore compiled with a C ABI, the Swift
runtime linked in statically; its source is python/native/ in the SketchPrep repository).

Every batch call hands over a whole batch in the ``StrokeBatch`` layout and returns a result
handle with its sizes; :class:`Result` reads and frees it, and turns refusals into
:class:`~sketchprep.errors.DrawingError`. :func:`simplify_marshalled` simplifies one marshalled
drawing with the calling thread's native workspace, or declines it.
"""
from __future__ import annotations

import ctypes
import marshal
import pathlib
import threading
from array import array
from typing import Dict, List, Optional, Tuple

from .errors import DrawingError

_lib = ctypes.CDLL(str(pathlib.Path(__file__).with_name("libsketchprep_core.so")))

_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_BATCH = [_P, _P, _I64, _I64, _P, _I64, _P, _I64]

_lib.sketchprep_simplify.argtypes = _BATCH + [ctypes.c_double] * 3 + [_P]
_lib.sketchprep_simplify.restype = _P
_lib.sketchprep_simplify_marshalled.argtypes = [ctypes.c_char_p, _I64] + [ctypes.c_double] * 3 + [_P, _P, _I64]
_lib.sketchprep_simplify_marshalled.restype = _I64
_lib.sketchprep_workspace_new.argtypes = []
_lib.sketchprep_workspace_new.restype = _P
_lib.sketchprep_workspace_free.argtypes = [_P]
_lib.sketchprep_workspace_free.restype = None
_lib.sketchprep_encode.argtypes = _BATCH + [_I64, ctypes.c_int32, ctypes.c_int32, _P, _P]
_lib.sketchprep_encode.restype = _P
_lib.sketchprep_result_copy.argtypes = [_P, _P, _P, _P]
_lib.sketchprep_result_copy.restype = None
_lib.sketchprep_result_message.argtypes = [_P]
_lib.sketchprep_result_message.restype = ctypes.c_char_p
_lib.sketchprep_result_failure_index.argtypes = [_P, _I64]
_lib.sketchprep_result_failure_index.restype = _I64
_lib.sketchprep_result_failure_reason.argtypes = [_P, _I64]
_lib.sketchprep_result_failure_reason.restype = ctypes.c_char_p
_lib.sketchprep_result_free.argtypes = [_P]
_lib.sketchprep_result_free.restype = None
_lib.sketchprep_version.argtypes = []
_lib.sketchprep_version.restype = ctypes.c_char_p

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


_simplify_marshalled = _lib.sketchprep_simplify_marshalled
_OUTPUT_ROOM = 1 << 19  # bytes: 5 per output coordinate


class _Workspace:
    """One thread's native buffers and output room for :func:`simplify_marshalled` (ctypes
    releases the GIL during a call, so threads must not share them)."""

    __slots__ = ("handle", "room", "room_address")

    def __init__(self) -> None:
        self.handle = _lib.sketchprep_workspace_new()
        self.room = memoryview(bytearray(_OUTPUT_ROOM))
        self.room_address = ctypes.addressof(ctypes.c_char.from_buffer(self.room))

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
