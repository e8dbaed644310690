"""ctypes binding of the bundled native library (SketchCore compiled with a C ABI, the Swift
runtime linked in statically; its source is python/native/ in the SketchPrep repository).

Every call hands over a whole batch in the ``StrokeBatch`` layout and returns a result handle
that is read and freed here; refusals become :class:`~sketchprep.errors.DrawingError`.
"""
from __future__ import annotations

import ctypes
import pathlib
from typing import Dict, Tuple

from .errors import DrawingError

_LIBRARY_PATH = pathlib.Path(__file__).with_name("libsketchprep_core.so")
_lib = ctypes.CDLL(str(_LIBRARY_PATH))

_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_BATCH = [_P, _P, _I64, _I64, _P, _I64, _P, _I64]

_lib.sketchprep_simplify.argtypes = _BATCH + [ctypes.c_double] * 3
_lib.sketchprep_simplify.restype = _P
_lib.sketchprep_encode.argtypes = _BATCH + [_I64, ctypes.c_int32, ctypes.c_int32, _P]
_lib.sketchprep_encode.restype = _P
_lib.sketchprep_result_sizes.argtypes = [_P, _P]
_lib.sketchprep_result_sizes.restype = None
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


class Result:
    """A native result handle: sizes, refusals, and a copy of the simplified strokes."""

    def __init__(self, handle: int) -> None:
        self._handle = handle
        sizes = (ctypes.c_int64 * 4)()
        _lib.sketchprep_result_sizes(handle, sizes)
        self.points, self.strokes, self.drawings, failure_count = (int(v) for v in sizes)
        message = _lib.sketchprep_result_message(handle)
        self.message = None if message is None else message.decode()
        self.failures: Dict[int, str] = {
            int(_lib.sketchprep_result_failure_index(handle, n)): _lib.sketchprep_result_failure_reason(handle, n).decode()
            for n in range(failure_count)
        }

    def copy_into(self, points: int, stroke_offsets: int, drawing_offsets: int) -> None:
        """Copies the strokes into buffers at these addresses (sized from the counts)."""
        _lib.sketchprep_result_copy(self._handle, points, stroke_offsets, drawing_offsets)

    def raise_first(self, batch: bool = True) -> None:
        """Raises the call's refusal, or the first drawing's (naming its index in a ``batch``), if any."""
        if self.message is not None:
            raise DrawingError(self.message)
        if self.failures:
            index = min(self.failures)
            raise DrawingError(self.failures[index], index if batch else None)

    def close(self) -> None:
        if self._handle:
            _lib.sketchprep_result_free(self._handle)
            self._handle = 0

    def __enter__(self) -> "Result":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def simplify(batch: BatchArguments, epsilon: float, resample_step: float, scale_target: float) -> Result:
    """Google's simplification of every drawing of ``batch``."""
    return Result(_lib.sketchprep_simplify(*batch, float(epsilon), float(resample_step), float(scale_target)))


def encode(batch: BatchArguments, length: int, padding_front: bool, truncation_back: bool, output: int) -> Result:
    """Stroke tensors of every drawing of ``batch`` into the float32 buffer at ``output``."""
    return Result(_lib.sketchprep_encode(*batch, int(length), int(padding_front), int(truncation_back), output))
