"""The float64 buffers that hold the points of ``sketchprep.read``'s batches, each handed out again
once nothing refers to it any more, by every read of the process (:data:`READ_POINTS`)."""
from __future__ import annotations

import os
import sys
import threading
from typing import List

import numpy as np


def _references(buffers: List[np.ndarray], index: int) -> int:
    """The reference count of ``buffers[index]``, as read here."""
    return sys.getrefcount(buffers[index])


#: What :func:`_references` reads for a buffer that only its list refers to, measured by the same
#: call so that it holds whatever the interpreter counts for the call itself.
_UNREFERENCED = _references([np.empty(0)], 0)


def _unreferenced(buffers: List[np.ndarray], index: int) -> bool:
    """Whether only its list refers to ``buffers[index]``: no array the caller can reach uses it."""
    return _references(buffers, index) == _UNREFERENCED


class PointBuffers:
    """The buffers behind the points arrays of read batches. A batch's points array is a view of a
    buffer, and every numpy view (a drawing's strokes, a slice of them, an array made from
    their memory) holds a reference to the buffer that owns its memory; a buffer is handed out again
    only when its list alone refers to it, so no array the caller can reach sees its values change.
    Reads whose drawings are dropped as they go then write each batch into memory already touched
    instead of fresh pages (docs/python.md, Speed). At most ``keep`` buffers are held, each at most a
    quarter larger than the batch it was made for and at most ``largest`` float64 values (a larger
    batch gets a buffer of its own, not held); one still in use when a new one is made is let go, to
    live as long as the caller's views of it. Safe to use from any thread."""

    def __init__(self, keep: int = 3, largest: int = 1 << 21) -> None:
        self._buffers: List[np.ndarray] = []
        self._keep = keep
        self._largest = largest
        self._lock = threading.Lock()

    def after_fork_in_child(self) -> None:
        """Gives a child process a lock of its own: the parent's may have been held by a thread
        the child does not have."""
        self._lock = threading.Lock()

    def points(self, rows: int, count: int) -> np.ndarray:
        """A float64 array of shape (rows, count), its values unset: a view of a held buffer that
        nothing else refers to, else of a new one."""
        size = rows * count
        made = size + size // 4  # a new buffer's size: room for somewhat larger batches after this one
        if made > self._largest:
            return np.empty((rows, count), dtype=np.float64)
        with self._lock:
            return self._view(size, made, rows, count)

    def _view(self, size: int, made: int, rows: int, count: int) -> np.ndarray:
        buffers = self._buffers
        for index in range(len(buffers)):
            if buffers[index].size >= size and _unreferenced(buffers, index):
                return buffers[index][:size].reshape(rows, count)
        if len(buffers) == self._keep:
            free = [index for index in range(len(buffers)) if _unreferenced(buffers, index)]
            del buffers[min(free, key=lambda index: buffers[index].size) if free else 0]
        buffers.append(np.empty(made, dtype=np.float64))
        return buffers[-1][:size].reshape(rows, count)


#: The buffers of every ``sketchprep.read`` of the process: a read made after another reuses what it
#: held (three buffers of at most 16 MiB each).
READ_POINTS = PointBuffers()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=READ_POINTS.after_fork_in_child)
