#!/usr/bin/env python3
"""Parity harness: compare raw->simplified variants against Google's official simplified drawings.

Joins quickdraw/raw/*.ndjson with quickdraw/simplified/*.ndjson of the shared data ($SKETCHPREP_SHARED,
default ../shared/data beside the repository) by key_id and splits the
pairs into two halves by crc32(key_id) parity: even = "dev" (explored on), odd = "holdout"
(only evaluated to confirm). For each variant it prints a Markdown table row per half with the
exact-drawing match rate, the same-point-count rate (same strokes, same number of points in every
stroke) and the commonest miss kinds.

    python3 scripts/parity_explore.py                      # every variant, both halves
    python3 scripts/parity_explore.py --variant best --misses
    python3 scripts/parity_explore.py --variant interp --half dev --limit 500 --show 3

Each variant is the reference rule (scripts/reference_simplify.py, variant "best") with exactly
one step swapped, so every row measures one decision.
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_simplify as ref  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("SKETCHPREP_SHARED", os.path.join(REPO, "..", "shared", "data"))


def load_pairs(shared=SHARED):
    """[(key_id, raw drawing, official simplified drawing)] for key_ids present in both sets."""
    raw = {}
    for path in sorted(glob.glob(os.path.join(shared, "quickdraw/raw/*.ndjson"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    raw[rec["key_id"]] = rec["drawing"]
    pairs = []
    for path in sorted(glob.glob(os.path.join(shared, "quickdraw/simplified/*.ndjson"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    if rec["key_id"] in raw:
                        pairs.append((rec["key_id"], raw[rec["key_id"]], rec["drawing"]))
    return pairs


def split(pairs):
    """(dev, holdout): crc32(key_id) even / odd."""
    dev = [p for p in pairs if zlib.crc32(p[0].encode()) % 2 == 0]
    hold = [p for p in pairs if zlib.crc32(p[0].encode()) % 2 == 1]
    return dev, hold


# ------------------------------------------------------------------ step 1+2 alternatives
def scale_with(formula):
    """align_and_scale with another float64 formula for v' = f(v - min, m)."""
    def align_and_scale(drawing):
        xs = [np.asarray(s[0], np.float64) for s in drawing]
        ys = [np.asarray(s[1], np.float64) for s in drawing]
        mx = min(x.min() for x in xs)
        my = min(y.min() for y in ys)
        xs = [x - mx for x in xs]
        ys = [y - my for y in ys]
        m = max(max(x.max() for x in xs), max(y.max() for y in ys)) or 1.0
        return [(formula(x, m), formula(y, m)) for x, y in zip(xs, ys)]
    return align_and_scale


SCALES = {
    "v*255/m": ref.align_and_scale,
    "v/m*255": scale_with(lambda v, m: v / m * 255.0),
    "v*(255/m)": scale_with(lambda v, m: v * (255.0 / m)),
}


# ------------------------------------------------------------------ step 3 alternatives
def _segments(x, y, lengths):
    dx, dy = np.diff(x), np.diff(y)
    seg = np.hypot(dx, dy) if lengths == "hypot" else np.sqrt(dx * dx + dy * dy)
    return seg, np.concatenate(([0.0], np.cumsum(seg)))


def resample_lerp(lengths="sqrt", t_from="seg", lerp="a*(1-t)+b*t"):
    """Integer arc-length sampling with one detail changed: segment lengths via sqrt or hypot,
    t divided by seg[i] or by c[i+1]-c[i], point as a*(1-t)+b*t or a+(b-a)*t."""
    def resample(x, y):
        if x.size == 1:
            return np.array([[x[0], y[0]], [x[0], y[0]]])
        seg, c = _segments(x, y, lengths)
        if c[-1] == 0:
            return np.array([[x[0], y[0]], [x[-1], y[-1]]])
        j = np.arange(0.0, c[-1], 1.0)
        i = np.searchsorted(c, j, side="right") - 1
        t = (j - c[i]) / (seg[i] if t_from == "seg" else (c[i + 1] - c[i]))
        if lerp == "a*(1-t)+b*t":
            q = np.stack([x[i] * (1.0 - t) + x[i + 1] * t, y[i] * (1.0 - t) + y[i + 1] * t], 1)
        else:
            q = np.stack([x[i] + (x[i + 1] - x[i]) * t, y[i] + (y[i + 1] - y[i]) * t], 1)
        return np.vstack([q, [x[-1], y[-1]]])
    return resample


def resample_np_interp(x, y):
    """np.interp over cumulative hypot length at t = 0, 1, ... < L, then the last point."""
    if x.size == 1:
        return np.array([[x[0], y[0]], [x[0], y[0]]])
    seg, c = _segments(x, y, "hypot")
    if c[-1] == 0:
        return np.array([[x[0], y[0]], [x[-1], y[-1]]])
    j = np.arange(0.0, c[-1], 1.0)
    return np.vstack([np.stack([np.interp(j, c, x), np.interp(j, c, y)], 1), [x[-1], y[-1]]])


def resample_carry_loop(x, y):
    """Segment walk carrying the leftover distance: point = a + (b-a)*(pos/L), pos += 1."""
    if x.size == 1:
        return np.array([[x[0], y[0]], [x[0], y[0]]])
    out = [(x[0], y[0])]
    need = 1.0
    for ax, ay, bx, by in zip(x[:-1], y[:-1], x[1:], y[1:]):
        L = math.hypot(bx - ax, by - ay)
        pos = need
        while pos <= L:
            out.append((ax + (bx - ax) * (pos / L), ay + (by - ay) * (pos / L)))
            pos += 1.0
        need = pos - L
    out.append((x[-1], y[-1]))
    return np.array(out)


def resample_none(x, y):
    """No resampling (raw vertices only)."""
    p = np.stack([x, y], 1)
    return np.vstack([p, p]) if len(p) == 1 else p


# ------------------------------------------------------------------ step 4 alternatives
def iterative_rdp(points, split):
    """Iterative RDP skeleton: `split(points, s, e)` returns (k, far) for the span s..e, k indexing
    the interior points s+1..e-1; a far point is kept and both halves are examined."""
    n = len(points)
    keep = np.zeros(n, bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        s, e = stack.pop()
        if e - s < 2:
            continue
        k, far = split(points, s, e)
        if far:
            keep[s + 1 + k] = True
            stack.append((s, s + 1 + k))
            stack.append((s + 1 + k, e))
    return keep


def rdp_with(distance, compare=">"):
    """Iterative RDP with a different distance(inner, a, b) or '>=' (last maximum wins)."""
    def keep_mask(points, epsilon=ref.EPSILON):
        def split(points, s, e):
            dist = distance(points[s + 1:e], points[s], points[e])
            k = int(np.argmax(dist)) if compare == ">" else len(dist) - 1 - int(np.argmax(dist[::-1]))
            return k, dist[k] > epsilon
        return iterative_rdp(points, split)
    return keep_mask


def dist_line(norm="sqrt", point="sqrt", degenerate="point"):
    """Distance to the line through a and b; norm/point pick hypot or sqrt(dx*dx+dy*dy) for the
    chord length and for the distance to a when a == b."""
    def distance(q, a, b):
        dx, dy = b[0] - a[0], b[1] - a[1]
        nd = math.hypot(dx, dy) if norm == "hypot" else math.sqrt(dx * dx + dy * dy)
        if nd == 0:
            if degenerate != "point":
                return np.zeros(len(q))
            px, py = q[:, 0] - a[0], q[:, 1] - a[1]
            return np.hypot(px, py) if point == "hypot" else np.sqrt(px * px + py * py)
        return np.abs(dx * (a[1] - q[:, 1]) - dy * (a[0] - q[:, 0])) / nd
    return distance


def rdp_argmax_cross(squared=False):
    """RDP that picks the split by |cross| (or by the squared distance c*c/(dx*dx+dy*dy)) before
    dividing by the chord length; the epsilon test is unchanged."""
    def keep_mask(points, epsilon=ref.EPSILON):
        def split(points, s, e):
            a, b, q = points[s], points[e], points[s + 1:e]
            dx, dy = b[0] - a[0], b[1] - a[1]
            nd2 = dx * dx + dy * dy
            if nd2 == 0:
                score = (q[:, 0] - a[0]) ** 2 + (q[:, 1] - a[1]) ** 2
                k = int(np.argmax(score))
                return k, score[k] > epsilon * epsilon
            c = dx * (a[1] - q[:, 1]) - dy * (a[0] - q[:, 0])
            score = c * c / nd2 if squared else np.abs(c)
            k = int(np.argmax(score))
            return k, (score[k] > epsilon * epsilon if squared else score[k] / math.sqrt(nd2) > epsilon)
        return iterative_rdp(points, split)
    return keep_mask


def dist_segment(q, a, b):
    d = b - a
    dd = d @ d
    t = np.zeros(len(q)) if dd == 0 else np.clip(((q - a) @ d) / dd, 0.0, 1.0)
    return np.hypot(*(q - (a + np.outer(t, d))).T)


def rdp_package(points, epsilon=ref.EPSILON):
    """The PyPI `rdp` package (fhirschmann/rdp), recursive, returns a mask."""
    from rdp import rdp
    return rdp(points, epsilon=epsilon, return_mask=True)


def rdp_simplification_package(points, epsilon=ref.EPSILON):
    """The PyPI `simplification` package (Rust); returns points, so map them back to a mask."""
    kept = ref.rdp_simplification(points, epsilon)
    keep = np.zeros(len(points), bool)
    j = 0
    for i, p in enumerate(points):
        if j < len(kept) and p[0] == kept[j][0] and p[1] == kept[j][1]:
            keep[i] = True
            j += 1
    return keep


def make_variant(scale="v*255/m", resample=None, rdp=None, rounding=np.round):
    scale_fn = SCALES[scale]
    resample = resample or ref.resample_stroke
    rdp = rdp or ref.rdp_keep

    def run(drawing):
        out = []
        for x, y in scale_fn(drawing):
            p = resample(x, y)
            r = rounding(p[rdp(p)]).astype(int)
            out.append([r[:, 0].tolist(), r[:, 1].tolist()])
        return out
    return run


VARIANTS = {
    "best": lambda d: ref.simplify_drawing(d),
    # steps 1-2
    "scale v/m*255": make_variant(scale="v/m*255"),
    "scale v*(255/m)": make_variant(scale="v*(255/m)"),
    # step 3
    "resample seg=hypot": make_variant(resample=resample_lerp(lengths="hypot")),
    "resample t=(j-c)/(c[i+1]-c[i])": make_variant(resample=resample_lerp(t_from="c")),
    "resample a+(b-a)*t": make_variant(resample=resample_lerp(lerp="a+(b-a)*t")),
    "resample np.interp": make_variant(resample=resample_np_interp),
    "resample carry loop": make_variant(resample=resample_carry_loop),
    "no resampling": make_variant(resample=resample_none),
    "SPEC.md reading (carry loop, v*(255/m))": make_variant(scale="v*(255/m)", resample=resample_carry_loop),
    # step 4
    "rdp chord length hypot": make_variant(rdp=rdp_with(dist_line(norm="hypot"))),
    "rdp lengths hypot (both)": make_variant(rdp=rdp_with(dist_line(norm="hypot", point="hypot"))),
    "rdp split at argmax abs(cross)": make_variant(rdp=rdp_argmax_cross()),
    "rdp squared distance c*c/(dx*dx+dy*dy)": make_variant(rdp=rdp_argmax_cross(squared=True)),
    "rdp A==B -> no split": make_variant(rdp=rdp_with(dist_line(degenerate="zero"))),
    "rdp >= (last max wins)": make_variant(rdp=rdp_with(dist_line(), compare=">=")),
    "rdp distance to segment": make_variant(rdp=rdp_with(dist_segment)),
    "rdp PyPI rdp package": make_variant(rdp=rdp_package),
    "rdp PyPI simplification": make_variant(rdp=rdp_simplification_package),
    # rounding
    "round half up": make_variant(rounding=lambda p: np.floor(p + 0.5)),
    "round floor": make_variant(rounding=np.floor),
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
    """(exact rate, same point count rate, Counter of miss kinds, missed key_ids)."""
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
            if len(misses) <= show:
                print("MISS", key, miss_kind(ours, official))
                for i, (a, b) in enumerate(zip(ours, official)):
                    if a != b:
                        print("  stroke", i, "ours", list(zip(*a)))
                        print("  stroke", i, "goog", list(zip(*b)))
        if len(ours) == len(official) and all(len(a[0]) == len(b[0]) for a, b in zip(ours, official)):
            same_count += 1
    n = max(len(data), 1)
    return exact / n, same_count / n, kinds, misses


ENDPOINT_SCALES = {
    "(v-min)*255/m": lambda v, mn, m: (v - mn) * 255.0 / m,
    "(v-min)/m*255": lambda v, mn, m: (v - mn) / m * 255.0,
    "(v-min)*(255/m)": lambda v, mn, m: (v - mn) * (255.0 / m),
    "(v-min)/(m/255)": lambda v, mn, m: (v - mn) / (m / 255.0),
    "float32 (v-min)*255/m": lambda v, mn, m: float(
        (np.float32(v) - np.float32(mn)) * np.float32(255) / np.float32(m)),
}
ENDPOINT_ROUNDINGS = {"half-even": np.round, "half-up": lambda a: np.floor(a + 0.5), "floor": np.floor}


def endpoint_table(pairs):
    """Steps 1-2 alone: share of drawings whose every stroke's first and last point match."""
    print("| scale formula | rounding | drawings whose stroke end points all match |")
    print("|---|---|---|")
    for name, f in ENDPOINT_SCALES.items():
        for rname, rnd in ENDPOINT_ROUNDINGS.items():
            ok = 0
            for _, raw, official in pairs:
                mx = min(min(s[0]) for s in raw)
                my = min(min(s[1]) for s in raw)
                m = max(max(max(s[0]) - mx for s in raw), max(max(s[1]) - my for s in raw))
                ours = np.array([[f(s[0][0], mx, m), f(s[1][0], my, m), f(s[0][-1], mx, m), f(s[1][-1], my, m)]
                                 for s in raw])
                google = np.array([[s[0][0], s[1][0], s[0][-1], s[1][-1]] for s in official])
                ok += ours.shape == google.shape and bool((rnd(ours) == google).all())
            print(f"| {name} | {rname} | {100 * ok / len(pairs):.2f} % ({ok}/{len(pairs)}) |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", choices=list(VARIANTS), help="repeatable; default all")
    ap.add_argument("--skip", action="append", default=[], choices=list(VARIANTS),
                    help="leave this variant out (repeatable), e.g. the slow PyPI rdp package")
    ap.add_argument("--half", choices=["dev", "holdout", "both"], default="both")
    ap.add_argument("--limit", type=int, default=0, help="only the first N pairs of each half")
    ap.add_argument("--show", type=int, default=0, help="print the first N misses")
    ap.add_argument("--misses", action="store_true", help="list missed key_ids")
    ap.add_argument("--endpoints", action="store_true",
                    help="only check steps 1-2 on stroke end points (all pairs) and exit")
    args = ap.parse_args()
    if args.endpoints:
        endpoint_table(load_pairs())
        return
    dev, hold = split(load_pairs())
    halves = {"dev": dev, "holdout": hold}
    print("| variant | half | n | exact | same point count | commonest miss kinds |")
    print("|---|---|---|---|---|---|")
    for name in [v for v in (args.variant or list(VARIANTS)) if v not in args.skip]:
        for h in (["dev", "holdout"] if args.half == "both" else [args.half]):
            data = halves[h][: args.limit] if args.limit else halves[h]
            ex, sc, kinds, misses = evaluate(VARIANTS[name], data, args.show)
            k = ", ".join(f"{v} {k}" for k, v in kinds.most_common(3))
            print(f"| {name} | {h} | {len(data)} | {100 * ex:.2f} % | {100 * sc:.2f} % | {k} |", flush=True)
            if args.misses and misses:
                print("  missed:", " ".join(misses[:50]) + (" ..." if len(misses) > 50 else ""))


if __name__ == "__main__":
    main()
