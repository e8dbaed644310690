#!/usr/bin/env python3
"""Python reference side of `make bench` for rasters (one core, single-threaded):

1. 28x28 render rate of Google's `vector_to_raster` recipe in pycairo (the settings of docs/domain.md §4:
   ARGB32, antialias BEST, round caps/joins, line width 16, padding 16, white on black,
   one byte per pixel), on the same simplified drawings `sketchprep bench raster` renders.
2. PNG decode + gray + 256x256 box resize rate with Pillow (`Image.open(...).convert("L")
   .resize((256, 256), Image.BOX)`), on the same TU-Berlin files, bytes preloaded in memory.

With --sketchprep BIN it first runs `BIN bench raster --json` on the same data and prints the two
sides next to each other. Every measurement is the fastest of --repeats runs, inputs preloaded.
"""
import argparse
import io
import json
import pathlib
import subprocess
import sys
import time

import numpy as np
from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "python"))
from raster_reference import vector_to_raster  # noqa: E402  (the same recipe the tests compare against)


def load_drawings(directory, limit):
    drawings = []
    for path in sorted(pathlib.Path(directory).glob("*.ndjson")):
        for line in path.read_text().splitlines():
            drawings.append([np.array(stroke, dtype=float) for stroke in json.loads(line)["drawing"]])
            if len(drawings) == limit:
                return drawings
    return drawings


def fastest(work, repeats):
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared/data", help="shared data directory")
    parser.add_argument("--drawings", type=int, default=7100, help="simplified drawings to render")
    parser.add_argument("--images", type=int, default=3200, help="TU-Berlin PNGs to decode and resize")
    parser.add_argument("--size", type=int, default=256, help="resize target side")
    parser.add_argument("--repeats", type=int, default=3, help="keep the fastest of this many runs")
    parser.add_argument("--sketchprep", help="sketchprep binary to run `bench raster` with on the same inputs")
    args = parser.parse_args()
    shared = pathlib.Path(args.shared)

    swift = None
    if args.sketchprep:
        swift = json.loads(subprocess.run(
            [args.sketchprep, "bench", "raster", "--json", "--shared", str(shared), "--drawings", str(args.drawings),
             "--images", str(args.images), "--size", str(args.size), "--repeats", str(args.repeats)],
            check=True, capture_output=True, text=True).stdout)

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
    for title, key, count, seconds, reference in rows:
        python_rate = count / seconds
        line = f"{title}: {reference} {python_rate:,.0f}/s ({count} in {seconds:.3f} s)"
        if swift:
            ours = swift[key]
            line += f" | sketchprep {ours['per_second']:,.0f}/s ({ours['items']} in {ours['seconds']:.3f} s)"
            line += f" | {ours['per_second'] / python_rate:.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
