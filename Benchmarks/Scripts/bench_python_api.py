#!/usr/bin/env python3
"""Speed of the Python API beside what Python users have (`make bench`, one core), in CPU seconds of
this process (all its threads: `time.process_time`), in --pairs rounds that run the reference and
then each sketchprep case, so that a machine changing speed moves both sides of a ratio alike (each
speed-up is the median of the rounds' ratios, each rate from the median time):

1. `sketchprep.read` of every raw NDJSON file of --shared (drawings with their metadata; their
   numpy strokes are built on access, so a second row also reads every drawing's `strokes`) against
   `json.loads` of each line of the same files;
2. `sketchprep.read` of Google `.bin` files against the PyPI `quickdraw` package's reader
   (`QuickDrawDataGroup(name, max_drawings=None, cache_dir=…)`, local files: the `.bin` of every
   simplified NDJSON file of --shared, written once by `sketchprep convert --to bin` into the cache,
   238 files of about 30 drawings each), and again on one category file of Google's size (those
   files' bytes --category-repeats times, 142,000 drawings by default, where Google's 345 files hold
   50 M drawings, about 145,000 each: the files the package's cache holds);
3. `sketchprep.bitmap` (Google's 28×28 recipe) against Google's `vector_to_raster` in pycairo
   (Tests/python/raster_reference.py) on the same simplified drawings, parsed before the timing
   into numpy strokes for both.

Prints the rates and speed-ups, writes them with --report-json, and with --thresholds DIR exits 1
when a speed-up is below its minimum in DIR/python_api.json (the rows with strokes built have none). Needs the installed wheel on PYTHONPATH.

For profiling (docs/python.md, Speed): --pieces prints the CPU time of a read's parts (the native
read with each batch taken but not copied, the batches handed to Python without drawings, the
whole read) for the raw NDJSON and the .bin files; --steady N reads each of them N times in one process
and prints the median CPU time of reads 2…N and the minor page faults per read (what a process that
reads again and again costs per read, for comparing two builds in alternating processes); --profile
CASE runs only the sketchprep side of one case (ndjson, bin or bitmap) --repeats times, for
`perf record -e cpu-clock -g -- python3 …`.
"""
import argparse
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sketchprep

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from raster_reference import vector_to_raster  # noqa: E402 (Google's recipe, as the tests compare against it)
from bench_report import finish  # noqa: E402 (the report and threshold check of every Python row)
from bench_timing import drain_reader, fastest, timed  # noqa: E402 (the one timing rule of the Python benchmarks)


def json_lines(files):
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.strip():
                    json.loads(line)
                    count += 1
    return count


def api_read(paths, **options):
    count = 0
    for _ in sketchprep.read(paths, **options):
        count += 1
    return count


def api_read_strokes(paths, **options):
    """Reads and builds every drawing's strokes (read gives them on access: this is the cost of using them)."""
    count = 0
    for drawing in sketchprep.read(paths, **options):
        drawing.strokes
        count += 1
    return count


def quickdraw_package(names, cache):
    from quickdraw import QuickDrawDataGroup

    return sum(QuickDrawDataGroup(name, max_drawings=None, cache_dir=str(cache), print_messages=False).drawing_count
               for name in names)


def category_file(bins, cache, repeats):
    """One `.bin` of the drawings of `bins`, `repeats` (at least 1) times over, named for the first file's word
    (a category the `quickdraw` package knows) in a directory of its own under `cache`: a file of
    the size Google's per-category files have. Returns its path."""
    directory = pathlib.Path(cache) / "category"
    directory.mkdir()
    path = directory / bins[0].name
    contents = b"".join(source.read_bytes() for source in bins)
    with open(path, "wb") as file:
        for _ in range(repeats):
            file.write(contents)
    return path


def simplified_strokes(simplified, count):
    """The first `count` simplified drawings as numpy strokes, as both renderers get them."""
    parsed = []
    for path in simplified:
        for line in path.read_text(encoding="utf-8").splitlines():
            parsed.append([np.array(stroke, dtype=float) for stroke in json.loads(line)["drawing"]])
    return parsed[:count]


def read_pieces(paths, file_format, repeats):
    """CPU seconds of the native read alone (each batch taken, none copied), of the batches as
    Python gets them (no drawings made) and of the whole read."""
    from sketchprep import _native

    def native():
        drain_reader(_native._lib, paths, file_format)

    def batches():
        for _ in _native.read_batches([str(path) for path in paths], file_format, None, True, 256, 0):
            pass

    cpu = time.process_time
    return {"native read": fastest(native, repeats, cpu), "batches in Python": fastest(batches, repeats, cpu),
            "whole read": fastest(lambda: api_read(paths, format=file_format), repeats, cpu)}


def steady_reads(paths, file_format, reads):
    """The median CPU seconds of reads 2…`reads` of `paths` in this process, and the minor page
    faults per read over all of them."""
    seconds = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(max(2, reads)):
        seconds.append(timed(lambda: api_read(paths, format=file_format), time.process_time))
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return statistics.median(seconds[1:]), faults / len(seconds)


def profile(args, raw, simplified):
    """--pieces, --steady and --profile (the module's doc comment)."""
    with tempfile.TemporaryDirectory(prefix="bench-python-api-") as cache:
        if args.pieces or args.steady or args.profile == "bin":
            subprocess.run([args.sketchprep, "convert", *map(str, simplified), "--to", "bin", "-o", cache, "-q"], check=True)
        bins = sorted(pathlib.Path(cache).glob("*.bin"))
        if args.steady:
            for name, paths, file_format in (("raw NDJSON", raw, None), (".bin", bins, "bin")):
                seconds, faults = steady_reads(paths, file_format, args.steady)
                print(f"  {name:12} {seconds * 1e3:8.2f} ms per read, {faults:6.0f} page faults per read")
        elif args.pieces:
            for name, paths, file_format in (("raw NDJSON", raw, None), (".bin", bins, "bin")):
                for piece, seconds in read_pieces(paths, file_format, args.repeats).items():
                    print(f"  {name:12} {piece:20} {seconds * 1e3:8.1f} ms")
        elif args.profile == "bitmap":
            parsed = simplified_strokes(simplified, args.drawings)
            for _ in range(args.repeats):
                sketchprep.bitmap(parsed, input_format="simplified")
        else:
            paths, options = (raw, {}) if args.profile == "ndjson" else (bins, {"format": "bin"})
            for _ in range(args.repeats):
                api_read(paths, **options)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared/data")
    parser.add_argument("--sketchprep", required=True, help="the CLI that writes the .bin files")
    parser.add_argument("--drawings", type=int, default=7100, help="simplified drawings to render")
    parser.add_argument("--category-repeats", type=int, default=20,
                        help="copies of the .bin files' drawings in the one category file (default 20: 142,000 drawings)")
    parser.add_argument("--pairs", type=int, default=5,
                        help="rounds of each comparison: the reference, then each sketchprep case")
    parser.add_argument("--repeats", type=int, default=3, help="runs of --pieces (fastest of them) and of --profile")
    parser.add_argument("--report-json")
    parser.add_argument("--thresholds", help="directory holding python_api.json: speed-up name → minimum")
    parser.add_argument("--pieces", action="store_true", help="print the CPU time of a read's parts instead")
    parser.add_argument("--steady", type=int, metavar="N", help="time N reads of each case in one process instead")
    parser.add_argument("--profile", choices=("ndjson", "bin", "bitmap"), help="run one case's sketchprep side only")
    args = parser.parse_args()
    quickdraw = pathlib.Path(args.shared) / "quickdraw"
    raw = sorted((quickdraw / "raw").glob("*.ndjson"))
    simplified = sorted((quickdraw / "simplified").glob("*.ndjson"))
    if args.pieces or args.steady or args.profile:
        return profile(args, raw, simplified)
    rows = {}
    speedups = {}

    def compare(reference, cases, unit_count):
        """`args.pairs` rounds of the reference and then each case, alternating; each row's rate
        from its median CPU time, each speed-up the median of the rounds' reference / case ratios."""
        names = [reference[0], *(name for name, _, _ in cases)]
        works = [reference[1], *(work for _, work, _ in cases)]
        rounds = [[timed(work, time.process_time) for work in works] for _ in range(max(1, args.pairs))]
        for column, name in enumerate(names):
            seconds = statistics.median(round_[column] for round_ in rounds)
            rows[name] = {"seconds": round(seconds, 4), "per_second": round(unit_count / seconds)}
        for column, (_, _, speedup) in enumerate(cases, start=1):
            speedups[speedup] = round(statistics.median(round_[0] / round_[column] for round_ in rounds), 2)

    lines = json_lines(raw)
    assert api_read(raw) == lines, "sketchprep.read and json.loads disagree on the drawing count"
    compare(("json.loads per raw NDJSON line", lambda: json_lines(raw)),
            [("sketchprep.read raw NDJSON", lambda: api_read(raw), "read_ndjson_vs_json_loads"),
             ("sketchprep.read raw NDJSON, strokes built", lambda: api_read_strokes(raw),
              "read_ndjson_strokes_built_vs_json_loads")], lines)

    with tempfile.TemporaryDirectory(prefix="bench-python-api-") as cache:
        subprocess.run([args.sketchprep, "convert", *map(str, simplified), "--to", "bin", "-o", cache, "-q"], check=True)
        bins = sorted(pathlib.Path(cache).glob("*.bin"))
        names = [path.stem for path in bins]
        drawings = quickdraw_package(names, cache)
        assert api_read(bins, format="bin") == drawings, "sketchprep.read and quickdraw disagree on the .bin drawings"
        compare(("quickdraw package (QuickDrawDataGroup) .bin", lambda: quickdraw_package(names, cache)),
                [("sketchprep.read .bin", lambda: api_read(bins, format="bin"), "read_bin_vs_quickdraw_package"),
                 ("sketchprep.read .bin, strokes built", lambda: api_read_strokes(bins, format="bin"),
                  "read_bin_strokes_built_vs_quickdraw_package")], drawings)

        repeats = max(1, args.category_repeats)
        category = category_file(bins, cache, repeats)
        category_drawings, name = repeats * drawings, category.stem
        assert quickdraw_package([name], category.parent) == category_drawings, "quickdraw misread the category file"
        assert api_read([category], format="bin") == category_drawings, "sketchprep.read misread the category file"
        compare((f"quickdraw package (QuickDrawDataGroup) one .bin of {category_drawings:,}",
                 lambda: quickdraw_package([name], category.parent)),
                [(f"sketchprep.read one .bin of {category_drawings:,}", lambda: api_read([category], format="bin"),
                  "read_category_bin_vs_quickdraw_package"),
                 (f"sketchprep.read one .bin of {category_drawings:,}, strokes built",
                  lambda: api_read_strokes([category], format="bin"),
                  "read_category_bin_strokes_built_vs_quickdraw_package")], category_drawings)

    parsed = simplified_strokes(simplified, args.drawings)
    vector_to_raster(parsed[:10])  # each side's first call (module set-up, first surface) outside the rounds
    sketchprep.bitmap(parsed[:10], input_format="simplified")
    compare(("pycairo vector_to_raster 28×28", lambda: vector_to_raster(parsed)),
            [("sketchprep.bitmap 28×28", lambda: sketchprep.bitmap(parsed, input_format="simplified"),
              "bitmap_vs_pycairo")], len(parsed))

    print(f"python API, one core, median of {args.pairs} rounds (CPU time; speed-ups: median of the rounds' ratios):")
    for name, row in rows.items():
        print(f"  {name:62} {row['per_second']:>10,} drawings/s")
    for name, value in speedups.items():
        print(f"  {name:62} {value:>10}×")
    finish("bench python API", {"rows": rows, "speedups": speedups}, speedups, args.report_json, args.thresholds, "python_api.json")


if __name__ == "__main__":
    main()
