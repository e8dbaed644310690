#!/usr/bin/env python3
"""Python reference of `sketchprep-benchmarks preprocess`: raw Quick, Draw! NDJSON -> (N, 75, 3) float32
stroke tensors. json.loads per line, the simplification of Tests/python/simplify_reference.py
(numpy + the PyPI `simplification` package for RDP) for raw drawings, the numpy recipe of
Tests/python/stroke_reference.py (the TF tutorial's float32 code), then np.save of the stacked
array. Split, shuffle and sharding are left out (they cost a few ms here). Prints one JSON line
with drawings, bytes, seconds (wall), cpu_seconds and peak_rss_kb.

    python3 Benchmarks/Scripts/bench_preprocess_reference.py INPUT... [-o OUT.npy]
"""
import argparse
import json
import os
import pathlib
import resource
import sys
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "python"))
from simplify_reference import simplify_drawing  # noqa: E402
from stroke_reference import book_tensor  # noqa: E402


def input_files(inputs):
    """Files as given; directories expand to their sorted *.ndjson files."""
    for name in inputs:
        path = pathlib.Path(name)
        yield from (sorted(str(p) for p in path.glob("*.ndjson")) if path.is_dir() else [name])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("-o", "--output", default=os.devnull)
    args = parser.parse_args()
    size = 0
    tensors = []
    wall, cpu = time.perf_counter(), time.process_time()
    for path in input_files(args.inputs):
        size += os.path.getsize(path)
        with open(path, "rb") as lines:
            for line in lines:
                if not line.strip():
                    continue
                strokes = json.loads(line)["drawing"]
                if len(strokes[0]) == 3:
                    strokes = simplify_drawing(strokes, rdp="simplification")
                tensors.append(book_tensor(strokes))
    with open(args.output, "wb") as out:
        np.save(out, np.stack(tensors))
    report = {
        "drawings": len(tensors),
        "bytes": size,
        "seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
