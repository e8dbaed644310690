#!/usr/bin/env python3
"""Builds a large, realistic Quick, Draw! input for `make bench-scale` from the real raw drawings.

Every category of the raw directory (../shared/data/quickdraw/raw: 238 categories, 7,330 drawings)
is written again and again with fresh unique key_ids (a 3-digit repetition number in front of the
original key_id) until the target size is reached, spread over several files, every
`--gzip-every`-th of them gzip-compressed. Lines are copied byte for byte otherwise, so the
drawings have the real distribution of strokes, points and extents. Deterministic: the same
arguments give the same files. Prints one JSON line (files, drawings, bytes).

    Benchmarks/Scripts/make_scale_input.py --raw ../shared/data/quickdraw/raw --bytes 4e9 -o out/scale/input
"""
import argparse
import gzip
import json
import pathlib
import sys

import re

KEY = re.compile(rb'"key_id":\s*"')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", required=True, type=pathlib.Path, help="directory of raw *.ndjson files")
    parser.add_argument("--bytes", required=True, type=float, help="target uncompressed size, e.g. 4e9")
    parser.add_argument("--files", type=int, default=16, help="number of output files (default 16)")
    parser.add_argument("--gzip-every", type=int, default=4, help="every Nth file is .ndjson.gz (default 4; 0: none)")
    parser.add_argument("-o", "--output", required=True, type=pathlib.Path)
    args = parser.parse_args()

    lines = []
    for path in sorted(args.raw.glob("*.ndjson")):
        lines += [line for line in path.read_bytes().splitlines(keepends=True) if line.strip()]
    if not all(KEY.search(line) for line in lines):
        sys.exit(f"make_scale_input: a line of {args.raw} has no key_id")
    if not lines:
        sys.exit(f"make_scale_input: no *.ndjson lines in {args.raw}")
    per_repetition = sum(len(line) + 3 for line in lines)
    repetitions = max(1, round(args.bytes / per_repetition))
    if repetitions > 1000:
        sys.exit(f"make_scale_input: {args.bytes:.0f} bytes needs {repetitions} repetitions; at most 1000 keep key_ids unique")

    args.output.mkdir(parents=True, exist_ok=True)
    for old in args.output.glob("scale-*"):
        old.unlink()
    per_file = [repetitions // args.files + (1 if i < repetitions % args.files else 0) for i in range(args.files)]
    total_bytes = drawings = 0
    repetition = 0
    for index, count in enumerate(per_file):
        if count == 0:
            continue
        compressed = args.gzip_every > 0 and index % args.gzip_every == args.gzip_every - 1
        path = args.output / f"scale-{index:02d}.ndjson{'.gz' if compressed else ''}"
        with (gzip.open(path, "wb", compresslevel=1) if compressed else path.open("wb")) as out:
            for _ in range(count):
                prefix = b'"key_id":"%03d' % repetition
                chunk = b"".join(KEY.sub(prefix, line, count=1) for line in lines)
                out.write(chunk)
                total_bytes += len(chunk)
                drawings += len(lines)
                repetition += 1
    print(json.dumps({"files": sum(1 for c in per_file if c), "drawings": drawings, "bytes": total_bytes,
                      "repetitions": repetition, "output": str(args.output)}))


if __name__ == "__main__":
    main()
