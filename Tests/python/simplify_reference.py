#!/usr/bin/env python3
"""Reference raw -> simplified conversion for Quick, Draw! drawings (numpy).

Reproduces Google's published four steps with the exact float path that matches the official
simplified files (see docs/parity.md for the evidence and the measured match rates):

1. Align to the top-left: subtract min x and min y over the whole drawing (float64).
2. Scale uniformly: v * 255.0 / m with m = the larger extent (multiply first, then divide).
3. Resample every stroke at 1-pixel arc-length spacing: segment lengths sqrt(dx*dx + dy*dy),
   running sum c, a sample at every integer arc length j < L inside segment i
   (c[i] <= j < c[i+1]) at t = (j - c[i]) / seg[i], point = a*(1-t) + b*t, then the stroke's
   original last point.
4. Ramer-Douglas-Peucker, epsilon 2.0, distance to the infinite line through the end points,
   strict '>' and the first maximum wins; the kept points are rounded half to even.

Usage:
    python3 Tests/python/simplify_reference.py INPUT.ndjson... > OUT.ndjson
    python3 Tests/python/simplify_reference.py --rdp simplification INPUT.ndjson > OUT.ndjson

Output lines use Google's simplified layout (word, countrycode, timestamp, recognized, key_id,
drawing) with compact separators. Records that cannot be simplified are reported on stderr as
FILE:LINE: reason and skipped; the final stderr line reconciles read = written + rejected.
"""
import argparse
import json
import math
import sys

import numpy as np

EPSILON = 2.0
TARGET_MAX = 255.0
OUTPUT_KEYS = ("word", "countrycode", "timestamp", "recognized", "key_id")


class InvalidDrawing(ValueError):
    """A drawing that has no valid simplified form (empty, ragged or non-finite strokes)."""


def align_and_scale(drawing):
    """Steps 1-2: per-stroke float64 (x, y) arrays aligned to 0 and scaled so the larger extent
    is 255. A drawing whose points all coincide (zero extent) stays at (0, 0)."""
    if not drawing:
        raise InvalidDrawing("drawing has no strokes")
    xs, ys = [], []
    for index, stroke in enumerate(drawing):
        if len(stroke) < 2:
            raise InvalidDrawing(f"stroke {index} lacks x or y")
        x = np.asarray(stroke[0], dtype=np.float64)
        y = np.asarray(stroke[1], dtype=np.float64)
        if x.ndim != 1 or x.shape != y.shape:
            raise InvalidDrawing(f"stroke {index} has {x.size} x values and {y.size} y values")
        if x.size == 0:
            raise InvalidDrawing(f"stroke {index} is empty")
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            raise InvalidDrawing(f"stroke {index} has a non-finite coordinate")
        xs.append(x)
        ys.append(y)
    min_x = min(x.min() for x in xs)
    min_y = min(y.min() for y in ys)
    xs = [x - min_x for x in xs]
    ys = [y - min_y for y in ys]
    extent = max(max(x.max() for x in xs), max(y.max() for y in ys))
    if extent == 0:
        return list(zip(xs, ys))
    return [(x * TARGET_MAX / extent, y * TARGET_MAX / extent) for x, y in zip(xs, ys)]


def resample_stroke(x, y):
    """Step 3: an (n, 2) float64 array of points at 1-pixel arc-length spacing plus the last point.

    A one-point stroke, and a stroke of zero length, becomes its first and last point."""
    if x.size == 1:
        return np.array([[x[0], y[0]], [x[0], y[0]]])
    dx = np.diff(x)
    dy = np.diff(y)
    seg = np.sqrt(dx * dx + dy * dy)
    cum = np.concatenate(([0.0], np.cumsum(seg)))   # running left-to-right sum
    if cum[-1] == 0:
        return np.array([[x[0], y[0]], [x[-1], y[-1]]])
    arc = np.arange(0.0, cum[-1], 1.0)               # 0, 1, 2, ... < L
    i = np.searchsorted(cum, arc, side="right") - 1  # segment with cum[i] <= arc < cum[i+1]
    t = (arc - cum[i]) / seg[i]
    u = 1.0 - t
    sampled = np.stack((x[i] * u + x[i + 1] * t, y[i] * u + y[i + 1] * t), axis=1)
    return np.vstack((sampled, [[x[-1], y[-1]]]))


def rdp_keep(points, epsilon=EPSILON):
    """Step 4: boolean mask of the points Ramer-Douglas-Peucker keeps (end points always).

    Distance of P to the line through A and B: |dx*(Ay-Py) - dy*(Ax-Px)| / sqrt(dx*dx + dy*dy)
    with (dx, dy) = B - A; when A == B it is the distance to A, sqrt(px*px + py*py). A range is split at the first point
    with the largest distance when that distance is strictly greater than epsilon."""
    n = len(points)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        start, end = stack.pop()
        if end - start < 2:
            continue
        a, b = points[start], points[end]
        inner = points[start + 1:end]
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = math.sqrt(dx * dx + dy * dy)
        if norm == 0:
            px, py = inner[:, 0] - a[0], inner[:, 1] - a[1]
            dist = np.sqrt(px * px + py * py)
        else:
            dist = np.abs(dx * (a[1] - inner[:, 1]) - dy * (a[0] - inner[:, 0])) / norm
        k = int(np.argmax(dist))
        if dist[k] > epsilon:
            split = start + 1 + k
            keep[split] = True
            stack.append((start, split))
            stack.append((split, end))
    return keep


def rdp_simplification(points, epsilon=EPSILON):
    """Step 4 with the PyPI `simplification` package (Rust RDP). It measures the distance to the
    segment, not the line, so it does NOT reproduce Google's files (see docs/parity.md)."""
    from simplification.cutil import simplify_coords
    return np.asarray(simplify_coords(np.ascontiguousarray(points), epsilon), dtype=np.float64)


def simplify_drawing(drawing, rdp="numpy"):
    """Raw strokes [[x...], [y...], (t...)] -> simplified strokes [[x...], [y...]] of ints 0-255.

    rdp="numpy" is the parity rule; rdp="simplification" swaps in the PyPI package for step 4."""
    if rdp not in ("numpy", "simplification"):
        raise ValueError(f"unknown rdp implementation {rdp!r}")
    out = []
    for x, y in align_and_scale(drawing):
        points = resample_stroke(x, y)
        kept = points[rdp_keep(points)] if rdp == "numpy" else rdp_simplification(points)
        rounded = np.round(kept).astype(np.int64)          # round half to even
        out.append([rounded[:, 0].tolist(), rounded[:, 1].tolist()])
    return out


def simplify_record(record, rdp="numpy"):
    """A raw NDJSON record (dict) -> the simplified record in Google's key order."""
    missing = [k for k in OUTPUT_KEYS + ("drawing",) if k not in record]
    if missing:
        raise InvalidDrawing("missing key(s): " + ", ".join(missing))
    out = {k: record[k] for k in OUTPUT_KEYS}
    out["drawing"] = simplify_drawing(record["drawing"], rdp)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description="Simplify raw Quick, Draw! NDJSON like Google's files.")
    parser.add_argument("inputs", nargs="+", help="raw NDJSON files")
    parser.add_argument("--rdp", choices=["numpy", "simplification"], default="numpy",
                        help="RDP implementation: numpy (parity rule, default) or the PyPI "
                             "simplification package (distance to segment, not exact)")
    args = parser.parse_args(argv)
    read = written = rejected = 0
    out = sys.stdout
    for path in args.inputs:
        with open(path, encoding="utf-8") as f:
            for line_number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                read += 1
                try:
                    record = json.loads(line)
                    if not isinstance(record, dict):
                        raise InvalidDrawing("line is not a JSON object")
                    simplified = simplify_record(record, args.rdp)
                except (ValueError, TypeError, IndexError) as error:
                    rejected += 1
                    print(f"{path}:{line_number}: rejected: {error}", file=sys.stderr)
                    continue
                out.write(json.dumps(simplified, separators=(",", ":"), ensure_ascii=False))
                out.write("\n")
                written += 1
    print(f"read {read} = written {written} + rejected {rejected}", file=sys.stderr)
    return 0 if read == written + rejected else 1


if __name__ == "__main__":
    sys.exit(main())
