"""The one timing rule of the Python benchmarks, and the one loop that drains the native reader.
Imports nothing beyond the standard library when loaded (the reader loop takes its count of
fields from the installed package when called), so a script run in a venv with only the wheel
(as `compare_native_reads.py` and its wheel test are) can use it."""
import os
import time
from array import array


def timed(work, clock=time.perf_counter):
    """The `clock` time (wall-clock by default) of one run of `work`."""
    start = clock()
    work()
    return clock() - start


def fastest(work, repeats, clock=time.perf_counter):
    """The least `clock` time (wall-clock by default) of `repeats` runs of `work`."""
    return min(timed(work, clock) for _ in range(max(1, repeats)))


def drain_reader(library, paths, file_format="", jobs=0):
    """Reads `paths` (files or directories, as `sketchprep.read` takes them) through `library`'s
    reader as `sketchprep.read` drives it (`sketchprep_reader_open`, `_next` until it returns 0,
    `_free`; times kept, batches of 256), taking each batch without copying it into numpy.
    `library` is a ctypes library with the package's declarations of those entry points
    (`sketchprep._native._lib`, or one loaded as `compare_native_reads.py` loads it); `jobs` 0 is
    the CPUs this process may use."""
    from sketchprep._native import _FIELDS  # the counts sketchprep_reader_next writes per batch

    packed = b"".join(os.fsencode(path) + b"\0" for path in paths)
    counts = array("q", bytes(8 * _FIELDS))
    reader = library.sketchprep_reader_open(packed, len(paths), (file_format or "").encode(), b"", 1, 256, jobs)
    try:
        while library.sketchprep_reader_next(reader, counts.buffer_info()[0]):
            pass
    finally:
        library.sketchprep_reader_free(reader)
