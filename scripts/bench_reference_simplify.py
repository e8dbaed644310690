#!/usr/bin/env python3
"""Python reference for `make bench`: raw Quick, Draw! NDJSON -> simplified NDJSON with numpy and
the PyPI `simplification` package (Rust RDP), the same four steps as `sketchprep simplify`:
align to the top-left, scale uniformly to 255 (v*255/m), resample each stroke with np.interp
over the arc length at 1.0 plus the last point, RDP with epsilon 2.0, round half to even.

It measures speed, not parity: `simplification`'s RDP is its own implementation (see
docs/parity.md for the bit-exact rule). Prints one JSON line with drawings, bytes, seconds
(wall), cpu_seconds and peak_rss_kb.

    python3 scripts/bench_reference_simplify.py INPUT... [-o OUT.ndjson]
"""
import argparse
import json
import os
import resource
import sys
import time

import numpy as np
from simplification.cutil import simplify_coords


def simplify_drawing(drawing):
    """Simplified strokes [[xs], [ys]] of one raw drawing."""
    xs = [np.asarray(s[0], np.float64) for s in drawing]
    ys = [np.asarray(s[1], np.float64) for s in drawing]
    min_x = min(x.min() for x in xs)
    min_y = min(y.min() for y in ys)
    xs = [x - min_x for x in xs]
    ys = [y - min_y for y in ys]
    extent = max(max(x.max() for x in xs), max(y.max() for y in ys)) or 1.0
    strokes = []
    for x, y in zip(xs, ys):
        x = x * 255.0 / extent
        y = y * 255.0 / extent
        if len(x) == 1:
            points = np.array([[x[0], y[0]], [x[0], y[0]]])
        else:
            cumulative = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(x), np.diff(y)))])
            total = cumulative[-1]
            if total == 0:
                points = np.array([[x[0], y[0]], [x[-1], y[-1]]])
            else:
                t = np.arange(0.0, total, 1.0)
                points = np.empty((len(t) + 1, 2))
                points[:-1, 0] = np.interp(t, cumulative, x)
                points[:-1, 1] = np.interp(t, cumulative, y)
                points[-1] = (x[-1], y[-1])
        kept = np.round(np.asarray(simplify_coords(points, 2.0))).astype(int)
        strokes.append([kept[:, 0].tolist(), kept[:, 1].tolist()])
    return strokes


def input_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".ndjson"):
                    yield os.path.join(path, name)
        else:
            yield path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("-o", "--output", default=os.devnull)
    args = parser.parse_args()
    drawings = 0
    size = 0
    wall, cpu = time.perf_counter(), time.process_time()
    with open(args.output, "w") as out:
        for path in input_files(args.inputs):
            size += os.path.getsize(path)
            with open(path, "rb") as lines:
                for line in lines:
                    if not line.strip():
                        continue
                    record = json.loads(line)
                    record["drawing"] = simplify_drawing(record["drawing"])
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
                    drawings += 1
    report = {
        "drawings": drawings,
        "bytes": size,
        "seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
        "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
