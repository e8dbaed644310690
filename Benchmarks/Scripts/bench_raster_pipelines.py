#!/usr/bin/env python3
"""Raster pipelines beside the Python a user would write (`make bench`, one pinned core, CPU seconds).

Three pairs, each run side by side --pairs times; the speed-up of a pair is sketchprep's items per
CPU second over the script's, and the reported speed-up is the median over pairs (load from other
processes falls on both sides of a pair):

- `raster256_map`: `sketchprep preprocess --jobs 1` with Pipelines/quickdraw-raster256.yaml's
  encoding (TFRecord of 256×256 PNGs) on the shared simplified drawings, its map-side CPU seconds
  (timings.json `stages.map`: read, parse, simplify, render, PNG, runs), against a script that
  parses the same NDJSON, renders each drawing with pycairo (Google's recipe, docs/raster.md) and
  saves it with Pillow's PNG defaults.
- `raster256_time_channels_map`: the same with `channels: [order, time, speed]` on the shared raw
  drawings, against a pycairo script applying docs/raster.md's channel formulas
  (Tests/python/test_time_rasters.py's reference), RGB PNG saved by Pillow.
- `tuberlin_map_reduce`: `sketchprep preprocess --jobs 1 --pipeline Pipelines/tuberlin-cnn.yaml`
  on the shared TU-Berlin PNGs, the whole child's CPU seconds (start-up, listing, map and reduce),
  against Pillow: open → gray → BOX resize to 256², the bytes read from the files in the loop.

Writes the rows with --report-json; with --thresholds DIR exits with status 1 when a speed-up is
below Benchmarks/Thresholds/raster_pipelines.json's minimum.
"""
import argparse
import io
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "python"))
from raster_reference import vector_to_raster  # noqa: E402
from test_time_rasters import reference as time_channel_reference  # noqa: E402

RASTER256 = "{kind: raster, size: 256, line_width: 6, padding: 16, polarity: black-on-white}"
TIME_CHANNELS = "{kind: raster, size: 256, line_width: 6, padding: 16, channels: [order, time, speed]}"


def preprocess(sketchprep, work, encode, inputs, pipeline=None):
    """(map CPU seconds from timings.json, whole-child CPU seconds, records written) of one run."""
    out = pathlib.Path(tempfile.mkdtemp(dir=work))
    if pipeline is None:
        pipeline = out.parent / f"{out.name}.yaml"
        pipeline.write_text(f"source: {{kind: quickdraw-ndjson}}\nencode: {encode}\n"
                            "output: {format: tfrecord, examples_per_shard: 2000}\n")
    args = [sketchprep, "preprocess", "--pipeline", pipeline, "-o", out / "dataset", "-q", "--jobs", "1"]
    for path in inputs:
        args += ["--input", path]
    before = os.times()
    subprocess.run([str(a) for a in args], check=True, capture_output=True)
    after = os.times()
    whole = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    timings = json.loads((out / "dataset" / "timings.json").read_text())
    written = json.loads((out / "dataset" / "manifest.json").read_text())["records"]["written"]
    return timings["stages"]["map"], whole, written


def cpu(work):
    start = time.process_time()
    count = work()
    return time.process_time() - start, count


def python_raster256(files):
    def work():
        count = 0
        for path in files:
            for line in path.read_text().splitlines():
                strokes = [np.array(s, dtype=float) for s in json.loads(line)["drawing"]]
                pixels = vector_to_raster([strokes], side=256, line_diameter=6, padding=16, white_on_black=False)[0]
                Image.fromarray(pixels.reshape(256, 256)).save(io.BytesIO(), format="PNG")
                count += 1
        return count
    return cpu(work)


def python_time_channels(files):
    def work():
        count = 0
        for path in files:
            for line in path.read_text().splitlines():
                image = time_channel_reference(json.loads(line)["drawing"], ["order", "time", "speed"], 256, line_width=6.0)
                Image.fromarray(np.ascontiguousarray(image)).save(io.BytesIO(), format="PNG")
                count += 1
        return count
    return cpu(work)


def python_tuberlin(files):
    def work():
        for path in files:
            np.asarray(Image.open(path).convert("L").resize((256, 256), Image.BOX))
        return len(files)
    return cpu(work)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared/data")
    parser.add_argument("--sketchprep", default=".build/release/sketchprep")
    parser.add_argument("--pairs", type=int, default=3, help="side-by-side pairs per benchmark (median kept)")
    parser.add_argument("--report-json")
    parser.add_argument("--thresholds", help="directory holding raster_pipelines.json: speed-up name → minimum")
    args = parser.parse_args()
    shared = pathlib.Path(args.shared)
    simplified = sorted((shared / "quickdraw" / "simplified").glob("*.ndjson"))
    raw = sorted((shared / "quickdraw" / "raw").glob("*.ndjson"))
    tuberlin = sorted((shared / "tuberlin").glob("*/*/*.png"))
    rows, speed_ups = [], {}
    with tempfile.TemporaryDirectory() as work:
        cases = [
            ("raster256_map", "drawings", lambda: preprocess(args.sketchprep, work, RASTER256, [shared / "quickdraw" / "simplified"]),
             lambda: python_raster256(simplified), "pycairo + Pillow PNG (defaults)", False),
            ("raster256_time_channels_map", "drawings",
             lambda: preprocess(args.sketchprep, work, TIME_CHANNELS, [shared / "quickdraw" / "raw"]),
             lambda: python_time_channels(raw), "pycairo (docs/raster.md formulas) + Pillow PNG", False),
            ("tuberlin_map_reduce", "images",
             lambda: preprocess(args.sketchprep, work, None, [shared / "tuberlin"], REPO / "Pipelines" / "tuberlin-cnn.yaml"),
             lambda: python_tuberlin(tuberlin), "Pillow open → L → BOX 256²", True),
        ]
        for name, unit, ours, theirs, reference, whole_child in cases:
            ratios, pairs = [], []
            for _ in range(max(1, args.pairs)):
                map_seconds, child_seconds, written = ours()
                seconds = child_seconds if whole_child else map_seconds
                python_seconds, count = theirs()
                ours_rate, python_rate = written / seconds, count / python_seconds
                ratios.append(ours_rate / python_rate)
                pairs.append({"sketchprep_cpu_s": seconds, "sketchprep_items": written,
                              "python_cpu_s": python_seconds, "python_items": count})
            speed_ups[name] = statistics.median(ratios)
            best = pairs[ratios.index(speed_ups[name])]
            rows.append({"name": name, "unit": unit, "reference": reference, "speed_up": speed_ups[name], "pairs": pairs})
            print(f"{name}: sketchprep {best['sketchprep_items'] / best['sketchprep_cpu_s']:,.0f} {unit}/CPU s, "
                  f"Python {best['python_items'] / best['python_cpu_s']:,.0f} {unit}/CPU s, "
                  f"median speed-up {speed_ups[name]:.2f}× over {len(ratios)} pairs", flush=True)
    if args.report_json:
        pathlib.Path(args.report_json).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.report_json).write_text(json.dumps({"rows": rows, "speed_ups": speed_ups}, indent=2) + "\n")
    if args.thresholds:
        minimums = json.loads((pathlib.Path(args.thresholds) / "raster_pipelines.json").read_text())
        failures = [f"{n} {speed_ups.get(n, 0):.2f}× < {m}×" for n, m in minimums.items() if speed_ups.get(n, 0) < m]
        for n, m in minimums.items():
            print(f"threshold {n}: {speed_ups.get(n, 0):.2f}× (minimum {m}×)")
        if failures:
            sys.exit(f"bench raster pipelines: below threshold: {', '.join(failures)}")


if __name__ == "__main__":
    main()
