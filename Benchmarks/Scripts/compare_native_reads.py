"""Compares two builds of the native library (python/native, `make native`) on the same read, in one
process: the engine's read of the inputs (`sketchprep_reader_open` and `_next` as `sketchprep.read`
calls them, no batch copied into numpy), by one build and then the other, again and again. Each pair
of reads runs within a fraction of a second, so a machine whose speed changes from one second to the
next (the shared development machine runs the same read in 65 ms or in 95 ms) slows both sides of
a pair alike; the figure is the median of the pairs' ratios (second build's CPU time over the
first's), with its quartiles. Run it with the package on PYTHONPATH (its entry points' one
declaration, `sketchprep._native.SIGNATURES`) and one pinned core:

    PYTHONPATH=out/bench-python taskset -c 0 python3 Benchmarks/Scripts/compare_native_reads.py \\
        BEFORE.so AFTER.so ../shared/data/quickdraw/raw [--format bin] [--pairs 40]

BEFORE.so and AFTER.so are copies of .build-native/release/libSketchPrepNative.so from the two
trees (each library links its own Swift runtime, so both load side by side).
"""
import argparse
import ctypes
import pathlib
import statistics
import time

from bench_timing import drain_reader, timed  # the one timing rule and reader loop of the Python benchmarks
from sketchprep import _native


def load(library):
    """The library at `library` with the reader's entry points declared as the package declares them."""
    loaded = ctypes.CDLL(str(pathlib.Path(library).resolve()))
    for name in ("sketchprep_reader_open", "sketchprep_reader_next", "sketchprep_reader_free"):
        result, arguments = _native.SIGNATURES[name]
        function = getattr(loaded, name)
        function.restype = result
        function.argtypes = arguments
    return loaded


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the first build's libSketchPrepNative.so")
    parser.add_argument("after", help="the second build's libSketchPrepNative.so")
    parser.add_argument("inputs", nargs="+", help="files or directories, as sketchprep.read takes them")
    parser.add_argument("--format", default="", help="the CLI's --format (default: by content)")
    parser.add_argument("--pairs", type=int, default=40, help="pairs of reads (default 40)")
    parser.add_argument("--jobs", type=int, default=1, help="decoding threads of each read (default 1)")
    args = parser.parse_args()
    paths = args.inputs  # the library expands directories (the CLI's reading order)
    libraries = [load(args.before), load(args.after)]

    def read(library):
        return timed(lambda: drain_reader(library, paths, args.format, args.jobs), time.process_time)

    for library in libraries:
        read(library)  # each library's first read sets up its runtime and pages in the inputs
    before, after = [], []
    for _ in range(args.pairs):
        before.append(read(libraries[0]))
        after.append(read(libraries[1]))
    ratios = [second / first for first, second in zip(before, after)]
    low, _, high = statistics.quantiles(ratios, n=4)
    print(f"{' '.join(paths)}, {args.pairs} pairs: before {statistics.median(before) * 1e3:.1f} ms, "
          f"after {statistics.median(after) * 1e3:.1f} ms (medians); after / before {statistics.median(ratios):.3f} "
          f"(median of the pairs' ratios; quartiles {low:.3f}, {high:.3f})")


if __name__ == "__main__":
    main()
