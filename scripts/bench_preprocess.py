#!/usr/bin/env python3
"""Raw Quick, Draw! → 75×3 stroke-tensor shards: `sketchprep preprocess` against a Python reference,
side by side, on one core.

Swift side: `sketchprep preprocess --pipeline Pipelines/quickdraw-rnn.yaml` into a fresh directory
(read NDJSON, simplify raw drawings, encode, split, shuffle, write NPY shards, manifest, quarantine).
Python side (the reference): json.loads per line, the reference simplifier (the reading SPEC §2
measured best: align, scale v*255/m, np.interp arc-length resampling at 1.0, RDP to the infinite
line with eps 2.0, round half to even), the tutorial's numpy recipe, np.save of the (N, 75, 3)
array. Both run single-threaded (`taskset -c 0` when available). Best of --repeat runs.

Usage: scripts/bench_preprocess.py [--input DIR_OR_FILE] [--repeat 3] [--sketchprep PATH]
"""
import argparse
import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
SHARED = pathlib.Path(os.environ.get("SKETCHPREP_SHARED", REPO.parent / "shared" / "data"))
sys.path.insert(0, str(REPO / "Tests" / "python"))
from stroke_reference import book_tensor  # noqa: E402


def simplify(drawing):
    """Reference simplification of one raw drawing ([[xs, ys, ts], ...]) to integer strokes."""
    xs = [np.asarray(s[0], np.float64) for s in drawing]
    ys = [np.asarray(s[1], np.float64) for s in drawing]
    mx, my = min(x.min() for x in xs), min(y.min() for y in ys)
    xs, ys = [x - mx for x in xs], [y - my for y in ys]
    m = max(max(x.max() for x in xs), max(y.max() for y in ys)) or 1.0
    out = []
    for x, y in zip(xs, ys):
        p = rdp(resample(x * 255.0 / m, y * 255.0 / m))
        r = np.round(p).astype(int)
        out.append([r[:, 0].tolist(), r[:, 1].tolist()])
    return out


def resample(x, y):
    p = np.stack([x, y], 1)
    if len(p) == 1:
        return np.vstack([p, p])
    c = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(x), np.diff(y)))])
    if c[-1] == 0:
        return np.vstack([p[0], p[-1]])
    t = np.arange(0.0, c[-1], 1.0)
    return np.vstack([np.stack([np.interp(t, c, x), np.interp(t, c, y)], 1), p[-1]])


def rdp(p, eps=2.0):
    keep = np.zeros(len(p), bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(p) - 1)]
    while stack:
        s, e = stack.pop()
        if e - s < 2:
            continue
        a, d = p[s], p[e] - p[s]
        nd = math.hypot(d[0], d[1])
        q = p[s + 1:e]
        dist = (np.hypot(q[:, 0] - a[0], q[:, 1] - a[1]) if nd == 0
                else np.abs(d[0] * (a[1] - q[:, 1]) - d[1] * (a[0] - q[:, 0])) / nd)
        i = int(np.argmax(dist))
        if dist[i] > eps:
            keep[s + 1 + i] = True
            stack += [(s, s + 1 + i), (s + 1 + i, e)]
    return p[keep]


def ndjson_files(path):
    path = pathlib.Path(path)
    return sorted(path.glob("*.ndjson"), key=lambda p: p.name.encode()) if path.is_dir() else [path]


def python_reference(files, out):
    tensors = []
    for f in files:
        with open(f, encoding="utf-8") as handle:
            for line in handle:
                strokes = json.loads(line)["drawing"]
                if len(strokes[0]) == 3:
                    strokes = simplify(strokes)
                tensors.append(book_tensor(strokes))
    np.save(out, np.stack(tensors))
    return len(tensors)


def pinned(cmd):
    return (["taskset", "-c", "0"] if shutil.which("taskset") else []) + cmd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(SHARED / "quickdraw" / "raw"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sketchprep", default=str(REPO / ".build" / "release" / "sketchprep"))
    args = parser.parse_args()
    files = ndjson_files(args.input)
    count = sum(1 for f in files for line in open(f, encoding="utf-8") if line.strip())
    size = sum(f.stat().st_size for f in files)
    print(f"bench preprocess: {count} raw drawings, {len(files)} files, {size / 1e6:.1f} MB ({args.input})")

    with tempfile.TemporaryDirectory() as tmp:
        swift_times = []
        for i in range(args.repeat):
            out = pathlib.Path(tmp) / f"swift-{i}"
            cmd = pinned([args.sketchprep, "preprocess", "--pipeline", str(REPO / "Pipelines" / "quickdraw-rnn.yaml"),
                          "--input", args.input, "--output", str(out), "--quiet"])
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            swift_times.append(time.perf_counter() - start)
        python_times = []
        for i in range(args.repeat):
            start = time.perf_counter()
            if shutil.which("taskset"):
                os.sched_setaffinity(0, {0})
            n = python_reference(files, pathlib.Path(tmp) / f"python-{i}.npy")
            python_times.append(time.perf_counter() - start)
        assert n == count

    swift, python = min(swift_times), min(python_times)
    print(f"  sketchprep preprocess (raw → NPY shards, 1 core): {swift:7.3f} s  {count / swift:10.0f} drawings/s")
    print(f"  Python reference (json + numpy simplifier + recipe): {python:7.3f} s  {count / python:10.0f} drawings/s")
    print(f"  speed-up: {python / swift:.1f}×  (best of {args.repeat})")


if __name__ == "__main__":
    main()
