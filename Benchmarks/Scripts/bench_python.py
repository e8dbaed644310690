#!/usr/bin/env python3
"""Speed of the Python package (`make bench`): `sketchprep.simplify` per drawing and
`sketchprep.simplify_batch` against the pure-Python reference (`Tests/python/simplify_reference.py`:
numpy, with the PyPI `simplification` package for RDP), on the same parsed drawings in the same
run, one thread each, in CPU seconds of this process.

The workload is every raw drawing of --raw (parsed with json.loads before any timing: every side
starts from Python lists). Each figure is the fastest of --repeats runs in drawings per second
of CPU time (`time.process_time`: robust to other processes on a shared machine). Rows: the reference per drawing; `simplify` per drawing (lists in, lists
out); `simplify_batch` from lists (packing included); `simplify_batch` on a `StrokeBatch` (numpy
in, numpy out: the batch form). Prints a table and the speed-ups, writes them with --report-json,
and with --thresholds DIR exits with status 1 when a speed-up falls below its minimum in
DIR/python.json. Needs the installed wheel (`make bench` puts it on PYTHONPATH).
"""
import argparse
import json
import pathlib
import sys
import time

import sketchprep

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from bench_timing import fastest  # noqa: E402 (best of N runs, the one timing rule of the Python benchmarks)
from bench_report import finish  # noqa: E402 (the report and threshold check of every Python row)
from simplify_reference import InvalidDrawing, simplify_drawing  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--raw", required=True, help="directory of raw Quick, Draw! NDJSON files")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--report-json")
    parser.add_argument("--thresholds", help="directory holding python.json: speed-up name → minimum")
    args = parser.parse_args()
    drawings = []
    for path in sorted(pathlib.Path(args.raw).glob("*.ndjson")):
        with open(path, encoding="utf-8") as file:
            drawings += [json.loads(line)["drawing"] for line in file if line.strip()]
    packed = sketchprep.StrokeBatch.from_drawings(drawings)

    def reference():
        for drawing in drawings:
            try:
                simplify_drawing(drawing, rdp="simplification")
            except InvalidDrawing:
                pass

    def per_drawing():
        for drawing in drawings:
            sketchprep.simplify(drawing)

    rows = {}
    for name, run in (("reference (numpy + simplification) per drawing", reference),
                      ("sketchprep.simplify per drawing", per_drawing),
                      ("sketchprep.simplify_batch from lists", lambda: sketchprep.simplify_batch(drawings)),
                      ("sketchprep.simplify_batch on a StrokeBatch (numpy in/out)", lambda: sketchprep.simplify_batch(packed))):
        seconds = fastest(run, args.repeats, clock=time.process_time)
        rows[name] = {"seconds": round(seconds, 4), "drawings_per_second": round(len(drawings) / seconds)}
    rate = [row["drawings_per_second"] for row in rows.values()]
    speedups = {
        "simplify_per_drawing_vs_reference": round(rate[1] / rate[0], 2),
        "simplify_batch_lists_vs_reference": round(rate[2] / rate[0], 2),
        "simplify_batch_vs_reference": round(rate[3] / rate[0], 2),
    }
    print(f"python package on {len(drawings)} raw drawings (one thread, fastest of {args.repeats}):")
    for name, row in rows.items():
        print(f"  {name:60} {row['drawings_per_second']:>10,} drawings/s")
    for name, value in speedups.items():
        print(f"  {name:60} {value:>10}×")
    finish(
        "bench python", {"drawings": len(drawings), "rows": rows, "speedups": speedups}, speedups, args.report_json, args.thresholds,
        "python.json")


if __name__ == "__main__":
    main()
