#!/usr/bin/env python3
"""Python reference of `sketchprep-benchmarks raster` (one core, single-threaded):

1. 28x28 render rate of Google's `vector_to_raster` recipe in pycairo (the settings of docs/domain.md §4:
   ARGB32, antialias BEST, round caps/joins, line width 16, padding 16, white on black,
   one byte per pixel), on the same simplified drawings the benchmark renders.
2. PNG decode + gray + 256x256 box resize rate with Pillow (`Image.open(...).convert("L")
   .resize((256, 256), Image.BOX)`), on the same TU-Berlin files, bytes preloaded in memory.

Every measurement is the fastest of --repeats runs, inputs preloaded. With --json it prints one JSON
object ({"render_28": {"items", "seconds"}, "png_decode_resample": {...}}) for the benchmark runner.
"""
import argparse
import io
import json
import pathlib
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from raster_reference import vector_to_raster  # noqa: E402  (the same recipe the tests compare against)
from bench_timing import fastest  # noqa: E402 (the one timing rule of the Python benchmarks)


def load_drawings(directory, limit):
    drawings = []
    for path in sorted(pathlib.Path(directory).glob("*.ndjson")):
        for line in path.read_text().splitlines():
            drawings.append([np.array(stroke, dtype=float) for stroke in json.loads(line)["drawing"]])
            if len(drawings) == limit:
                return drawings
    return drawings


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared/data", help="shared data directory")
    parser.add_argument("--drawings", type=int, default=7100, help="simplified drawings to render")
    parser.add_argument("--images", type=int, default=3200, help="TU-Berlin PNGs to decode and resize")
    parser.add_argument("--size", type=int, default=256, help="resize target side")
    parser.add_argument("--repeats", type=int, default=3, help="keep the fastest of this many runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text lines")
    args = parser.parse_args()
    shared = pathlib.Path(args.shared)

    drawings = load_drawings(shared / "quickdraw" / "simplified", args.drawings)
    render_seconds = fastest(lambda: vector_to_raster(drawings), args.repeats)
    files = sorted((shared / "tuberlin").glob("*/*/*.png"))[: args.images]
    blobs = [f.read_bytes() for f in files]

    def decode_all():
        for blob in blobs:
            Image.open(io.BytesIO(blob)).convert("L").resize((args.size, args.size), Image.BOX)

    decode_seconds = fastest(decode_all, args.repeats)
    rows = [("render 28x28 (Google recipe)", "render_28", len(drawings), render_seconds, "pycairo"),
            (f"PNG decode + box {args.size}x{args.size}", "png_decode_resample", len(blobs), decode_seconds, "Pillow")]
    if args.json:
        print(json.dumps({key: {"items": count, "seconds": seconds} for _, key, count, seconds, _ in rows}))
        return
    for title, _, count, seconds, reference in rows:
        print(f"{title}: {reference} {count / seconds:,.0f}/s ({count} in {seconds:.3f} s)", flush=True)


if __name__ == "__main__":
    main()
