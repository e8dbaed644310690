#!/usr/bin/env python3
"""Parity harness: compare raw->simplified variants against Google's official simplified drawings.

Joins data/quickdraw/raw/*.ndjson with data/quickdraw/simplified/*.ndjson by key_id and splits the
pairs into two halves by crc32(key_id) parity: even = "dev" (explore on it), odd = "holdout"
(evaluate only to confirm). For each variant it reports the exact-drawing match rate, the
same-point-count rate (every stroke has the official number of points) and a miss breakdown.

    python3 scripts/parity_explore.py                       # all variants, both halves
    python3 scripts/parity_explore.py --variant best --half dev --limit 500 --show 5
"""
import argparse
import collections
import glob
import json
import math
import os
import sys
import zlib

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("SKETCHPREP_SHARED", os.path.join(REPO, "..", "shared"))


def load_pairs(shared=SHARED):
    """Returns [(key_id, raw_drawing, official_simplified_drawing)] for every key_id in both sets."""
    raw = {}
    for path in sorted(glob.glob(os.path.join(shared, "data/quickdraw/raw/*.ndjson"))):
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    raw[rec["key_id"]] = rec["drawing"]
    pairs = []
    for path in sorted(glob.glob(os.path.join(shared, "data/quickdraw/simplified/*.ndjson"))):
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    if rec["key_id"] in raw:
                        pairs.append((rec["key_id"], raw[rec["key_id"]], rec["drawing"]))
    return pairs


def split(pairs):
    """Dev half (crc32(key_id) even) and held-out half (odd)."""
    dev = [p for p in pairs if zlib.crc32(p[0].encode()) % 2 == 0]
    hold = [p for p in pairs if zlib.crc32(p[0].encode()) % 2 == 1]
    return dev, hold


# ---------------------------------------------------------------- step 1+2: align and scale
def align_scale(drawing, mode):
    """Per-stroke float64 (x, y) arrays after top-left alignment and uniform scaling to 255."""
    xs = [np.asarray(s[0], np.float64) for s in drawing]
    ys = [np.asarray(s[1], np.float64) for s in drawing]
    mx = min(x.min() for x in xs)
    my = min(y.min() for y in ys)
    xs = [x - mx for x in xs]
    ys = [y - my for y in ys]
    m = max(max(x.max() for x in xs), max(y.max() for y in ys))
    if m == 0:
        m = 1.0
    if mode == "mul_div":        # (v - min) * 255 / m
        f = lambda v: v * 255.0 / m
    elif mode == "div_mul":      # (v - min) / m * 255
        f = lambda v: v / m * 255.0
    elif mode == "mul_recip":    # (v - min) * (255 / m)
        s = 255.0 / m
        f = lambda v: v * s
    else:
        raise ValueError(mode)
    return [(f(x), f(y)) for x, y in zip(xs, ys)]


# ---------------------------------------------------------------- step 3: resampling
def resample_carry_loop(x, y):
    """Walk segment by segment carrying the leftover distance; sample = a + (b-a)*(pos/L)."""
    p = np.stack([x, y], 1)
    if len(p) == 1:
        return np.vstack([p, p])
    out = [p[0]]
    need = 1.0
    for a, b in zip(p[:-1], p[1:]):
        seg = b - a
        L = math.hypot(seg[0], seg[1])
        pos = need
        while pos <= L:
            out.append(a + seg * (pos / L))
            pos += 1.0
        need = pos - L
    out.append(p[-1])
    return np.array(out)


def resample_interp(x, y):
    """np.interp of x and y over cumulative segment length at t = np.arange(0, L, 1), + last point."""
    p = np.stack([x, y], 1)
    if len(p) == 1:
        return np.vstack([p, p])
    seg = np.hypot(np.diff(x), np.diff(y))
    c = np.concatenate([[0.0], np.cumsum(seg)])
    L = c[-1]
    if L == 0:
        return np.vstack([p[0], p[-1]])
    t = np.arange(0.0, L, 1.0)
    q = np.stack([np.interp(t, c, x), np.interp(t, c, y)], 1)
    return np.vstack([q, p[-1]])


def resample_lerp(x, y):
    """Cumulative arc length (segment length sqrt(dx*dx+dy*dy), running sum), sample at integer
    arc length j < L; in the segment i with c[i] <= j < c[i+1]: t = (j - c[i]) / seg[i],
    point = a*(1-t) + b*t; then the original last point."""
    if len(x) == 1:
        return np.array([[x[0], y[0]], [x[0], y[0]]])
    dx = np.diff(x)
    dy = np.diff(y)
    seg = np.sqrt(dx * dx + dy * dy)
    c = np.concatenate([[0.0], np.cumsum(seg)])
    L = c[-1]
    if L == 0:
        return np.array([[x[0], y[0]], [x[-1], y[-1]]])
    j = np.arange(0.0, L, 1.0)
    i = np.searchsorted(c, j, side="right") - 1
    t = (j - c[i]) / seg[i]
    u = 1.0 - t
    q = np.stack([x[i] * u + x[i + 1] * t, y[i] * u + y[i + 1] * t], 1)
    return np.vstack([q, [x[-1], y[-1]]])


RESAMPLERS = {"carry_loop": resample_carry_loop, "interp": resample_interp, "lerp": resample_lerp}


# ---------------------------------------------------------------- step 4: RDP
def rdp_line(p, eps=2.0):
    """Iterative RDP; distance to the infinite line through the end points (to the start point
    when the ends coincide); keep the first maximum when it is strictly greater than eps."""
    n = len(p)
    keep = np.zeros(n, bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        s, e = stack.pop()
        if e - s < 2:
            continue
        a, b = p[s], p[e]
        d = b - a
        nd = math.hypot(d[0], d[1])
        q = p[s + 1:e]
        if nd == 0:
            dist = np.hypot(q[:, 0] - a[0], q[:, 1] - a[1])
        else:
            dist = np.abs(d[0] * (a[1] - q[:, 1]) - d[1] * (a[0] - q[:, 0])) / nd
        i = int(np.argmax(dist))
        if dist[i] > eps:
            k = s + 1 + i
            keep[k] = True
            stack.append((s, k))
            stack.append((k, e))
    return p[keep]


RDPS = {"line": rdp_line}


def make_variant(scale="mul_div", resample="interp", rdp="line"):
    def run(drawing):
        out = []
        for x, y in align_scale(drawing, scale):
            p = RDPS[rdp](RESAMPLERS[resample](x, y))
            r = np.round(p).astype(int)   # round half to even
            out.append([r[:, 0].tolist(), r[:, 1].tolist()])
        return out
    return run


VARIANTS = {
    "spec_baseline": make_variant("mul_recip", "carry_loop", "line"),
    "carry_loop_muldiv": make_variant("mul_div", "carry_loop", "line"),
    "interp_mulrecip": make_variant("mul_recip", "interp", "line"),
    "interp_muldiv": make_variant("mul_div", "interp", "line"),
    "lerp_muldiv": make_variant("mul_div", "lerp", "line"),
    "lerp_divmul": make_variant("div_mul", "lerp", "line"),
    "lerp_mulrecip": make_variant("mul_recip", "lerp", "line"),
}


def miss_kind(ours, official):
    if len(ours) != len(official):
        return "stroke_count"
    kinds = set()
    for a, b in zip(ours, official):
        if a == b:
            continue
        if len(a[0]) != len(b[0]):
            kinds.add("points%+d" % (len(a[0]) - len(b[0])))
        else:
            diff = np.abs(np.array(a) - np.array(b)).max()
            kinds.add("coord_off_by_1" if diff == 1 else "coord_other_point")
    return ",".join(sorted(kinds))


def evaluate(fn, data, show=0):
    exact = same_count = 0
    kinds = collections.Counter()
    misses = []
    for key, raw, official in data:
        ours = fn(raw)
        if ours == official:
            exact += 1
        else:
            kinds[miss_kind(ours, official)] += 1
            misses.append(key)
        if len(ours) == len(official) and all(len(a[0]) == len(b[0]) for a, b in zip(ours, official)):
            same_count += 1
        if show and ours != official and len(misses) <= show:
            print("MISS", key, miss_kind(ours, official))
            for i, (a, b) in enumerate(zip(ours, official)):
                if a != b:
                    print("  stroke", i, "ours", list(zip(*a)))
                    print("  stroke", i, "goog", list(zip(*b)))
    n = max(len(data), 1)
    return exact / n, same_count / n, kinds, misses


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", help="variant name (repeatable); default all")
    ap.add_argument("--half", choices=["dev", "holdout", "both"], default="both")
    ap.add_argument("--limit", type=int, default=0, help="only the first N pairs of each half")
    ap.add_argument("--show", type=int, default=0, help="print the first N misses")
    ap.add_argument("--misses", action="store_true", help="list missed key_ids")
    args = ap.parse_args()
    dev, hold = split(load_pairs())
    halves = {"dev": dev, "holdout": hold}
    names = args.variant or list(VARIANTS)
    print("| variant | half | n | exact | same point count | miss kinds |")
    print("|---|---|---|---|---|---|")
    for name in names:
        for h in (["dev", "holdout"] if args.half == "both" else [args.half]):
            data = halves[h][: args.limit] if args.limit else halves[h]
            ex, sc, kinds, misses = evaluate(VARIANTS[name], data, args.show)
            k = ", ".join(f"{v} {k}" for k, v in kinds.most_common(4))
            print(f"| {name} | {h} | {len(data)} | {100*ex:.2f} % | {100*sc:.2f} % | {k} |", flush=True)
            if args.misses:
                print("  missed:", " ".join(misses))


if __name__ == "__main__":
    main()
