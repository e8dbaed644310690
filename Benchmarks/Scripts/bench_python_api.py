#!/usr/bin/env python3
"""Speed of the Python API beside what Python users have (`make bench`, one core), in CPU seconds of
this process (all its threads: `time.process_time`), fastest of --repeats runs:

1. `sketchprep.read` of every raw NDJSON file of --shared (drawings with their metadata; their
   numpy strokes are built on access, so a second row also reads every drawing's `strokes`) against
   `json.loads` of each line of the same files;
2. `sketchprep.read` of Google `.bin` files against the PyPI `quickdraw` package's reader
   (`QuickDrawDataGroup(name, max_drawings=None, cache_dir=…)`, local files: the `.bin` of every
   simplified NDJSON file of --shared, written once by `sketchprep convert --to bin` into the cache);
3. `sketchprep.bitmap` (Google's 28×28 recipe) against Google's `vector_to_raster` in pycairo
   (Tests/python/raster_reference.py) on the same simplified drawings, parsed before the timing
   into numpy strokes for both.

Prints the rates and speed-ups, writes them with --report-json, and with --thresholds DIR exits 1
when a speed-up is below its minimum in DIR/python_api.json (the rows with strokes built have none). Needs the installed wheel on PYTHONPATH.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

import sketchprep

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from raster_reference import vector_to_raster  # noqa: E402 (Google's recipe, as the tests compare against it)
from bench_report import finish  # noqa: E402 (the report and threshold check of every Python row)


def fastest(work, repeats):
    """The least CPU time of `repeats` runs of `work`."""
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared/data")
    parser.add_argument("--sketchprep", required=True, help="the CLI that writes the .bin files")
    parser.add_argument("--drawings", type=int, default=7100, help="simplified drawings to render")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--report-json")
    parser.add_argument("--thresholds", help="directory holding python_api.json: speed-up name → minimum")
    args = parser.parse_args()
    quickdraw = pathlib.Path(args.shared) / "quickdraw"
    raw = sorted((quickdraw / "raw").glob("*.ndjson"))
    simplified = sorted((quickdraw / "simplified").glob("*.ndjson"))
    rows = {}

    def measure(name, work, unit_count):
        seconds = fastest(work, args.repeats)
        rows[name] = {"seconds": round(seconds, 4), "per_second": round(unit_count / seconds)}
        return unit_count / seconds

    lines = json_lines(raw)
    assert api_read(raw) == lines, "sketchprep.read and json.loads disagree on the drawing count"
    json_rate = measure("json.loads per raw NDJSON line", lambda: json_lines(raw), lines)
    read_rate = measure("sketchprep.read raw NDJSON", lambda: api_read(raw), lines)
    read_strokes_rate = measure("sketchprep.read raw NDJSON, strokes built", lambda: api_read_strokes(raw), lines)

    with tempfile.TemporaryDirectory(prefix="bench-python-api-") as cache:
        subprocess.run([args.sketchprep, "convert", *map(str, simplified), "--to", "bin", "-o", cache, "-q"], check=True)
        bins = sorted(pathlib.Path(cache).glob("*.bin"))
        names = [path.stem for path in bins]
        drawings = quickdraw_package(names, cache)
        assert api_read(bins, format="bin") == drawings, "sketchprep.read and quickdraw disagree on the .bin drawings"
        package_rate = measure("quickdraw package (QuickDrawDataGroup) .bin", lambda: quickdraw_package(names, cache),
                               drawings)
        bin_rate = measure("sketchprep.read .bin", lambda: api_read(bins, format="bin"), drawings)
        bin_strokes_rate = measure("sketchprep.read .bin, strokes built", lambda: api_read_strokes(bins, format="bin"),
                                   drawings)

    parsed = []
    for path in simplified:
        for line in path.read_text(encoding="utf-8").splitlines():
            parsed.append([np.array(stroke, dtype=float) for stroke in json.loads(line)["drawing"]])
    parsed = parsed[:args.drawings]
    cairo_rate = measure("pycairo vector_to_raster 28×28", lambda: vector_to_raster(parsed), len(parsed))
    bitmap_rate = measure("sketchprep.bitmap 28×28", lambda: sketchprep.bitmap(parsed, input_format="simplified"),
                          len(parsed))

    speedups = {"read_ndjson_vs_json_loads": round(read_rate / json_rate, 2),
                "read_bin_vs_quickdraw_package": round(bin_rate / package_rate, 2),
                "bitmap_vs_pycairo": round(bitmap_rate / cairo_rate, 2),
                "read_ndjson_strokes_built_vs_json_loads": round(read_strokes_rate / json_rate, 2),
                "read_bin_strokes_built_vs_quickdraw_package": round(bin_strokes_rate / package_rate, 2)}
    print(f"python API, one core, fastest of {args.repeats} (CPU time):")
    for name, row in rows.items():
        print(f"  {name:50} {row['per_second']:>10,} drawings/s")
    for name, value in speedups.items():
        print(f"  {name:50} {value:>10}×")
    finish("bench python API", {"rows": rows, "speedups": speedups}, speedups, args.report_json, args.thresholds, "python_api.json")


if __name__ == "__main__":
    main()
