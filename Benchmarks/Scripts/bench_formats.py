#!/usr/bin/env python3
"""Throughput of the drawing formats (`make bench`): `sketchprep convert` between simplified NDJSON,
Google .bin and sketch-rnn stroke-3 .npz, next to Python readers of the same files in the same run
(json.loads per line; the PyPI `quickdraw` package's .bin parser; np.load with allow_pickle).

The workload is the simplified drawings of --shared repeated --copies times (one file per category)
and the published sketch-rnn files. Each figure is the fastest of --repeats runs, in drawings per
second of wall-clock time, process start included for sketchprep (single-threaded either way).
Prints a table and the speed-ups (ratios of two rates measured in this run, so they hold on any
machine), writes them with --report-json, and with --thresholds DIR exits with status 1 when a
speed-up falls below its minimum in DIR/formats.json (as the Benchmarks/ runner does).
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from bench_raster_reference import fastest  # best of N runs, the one timing rule of the Python benchmarks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", required=True, help="the shared data directory (quickdraw/simplified, sketchrnn)")
    parser.add_argument("--sketchprep", required=True, help="release sketchprep binary")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--report-json")
    parser.add_argument("--thresholds", help="directory holding formats.json: speed-up name → minimum")
    args = parser.parse_args()
    shared = pathlib.Path(args.shared)
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-formats-"))
    try:
        ndjson = work / "ndjson"
        ndjson.mkdir()
        drawings = 0
        for path in sorted((shared / "quickdraw" / "simplified").glob("*.ndjson")):
            lines = [line for line in path.read_text().splitlines() if line.strip()]
            drawings += len(lines) * args.copies
            (ndjson / path.name).write_text("\n".join(lines * args.copies) + "\n")
        sketchrnn = shared / "sketchrnn"
        stroke3_drawings = sum(len(np.load(p, encoding="latin1", allow_pickle=True)[k])
                               for p in sketchrnn.glob("*.npz") for k in ["train", "valid", "test"])

        def convert(source, target, out):
            def run():
                shutil.rmtree(work / out, ignore_errors=True)
                subprocess.run([args.sketchprep, "convert", str(source), "--to", target, "-o", str(work / out), "-q",
                                "--stroke3-sizes", "1000000/0/0"], check=True, stdout=subprocess.DEVNULL)
            return run

        rows = []

        def measure(name, count, run):
            seconds = fastest(run, args.repeats)
            rows.append({"case": name, "drawings": count, "seconds": round(seconds, 4), "drawings_per_second": round(count / seconds)})

        measure("sketchprep ndjson → ndjson", drawings, convert(ndjson, "ndjson", "nd"))
        measure("sketchprep ndjson → bin", drawings, convert(ndjson, "bin", "bin"))
        measure("sketchprep bin → ndjson", drawings, convert(work / "bin", "ndjson", "nd2"))
        measure("sketchprep ndjson → stroke3", drawings, convert(ndjson, "stroke3", "s3"))
        measure("sketchprep stroke3 → stroke3 (published sketch-rnn files)", stroke3_drawings, convert(sketchrnn, "stroke3", "rnn"))

        def python_ndjson():
            for path in ndjson.glob("*.ndjson"):
                for line in path.open():
                    json.loads(line)
        measure("python json.loads (NDJSON read)", drawings, python_ndjson)

        def python_bin():
            from quickdraw import QuickDrawDataGroup
            for path in (work / "bin").glob("*.bin"):
                group = QuickDrawDataGroup(path.name[:-4], max_drawings=None, cache_dir=str(work / "bin"), print_messages=False)
                for drawing in group.drawings:
                    drawing.strokes
        measure("python quickdraw package (.bin read)", drawings, python_bin)

        def python_npz():
            for path in sketchrnn.glob("*.npz"):
                data = np.load(path, encoding="latin1", allow_pickle=True)
                for key in ["train", "valid", "test"]:
                    data[key]
        measure("python np.load (stroke-3 .npz read)", stroke3_drawings, python_npz)

        width = max(len(row["case"]) for row in rows)
        for row in rows:
            print(f"{row['case']:<{width}}  {row['drawings']:>8} drawings  {row['seconds']:>8.3f} s  {row['drawings_per_second']:>10,} drawings/s")
        rate = {row["case"]: row["drawings_per_second"] for row in rows}
        speed_ups = {
            # The new readers and writers next to NDJSON's, and the .bin reader next to the PyPI package's.
            "bin_read_vs_ndjson_read": rate["sketchprep bin → ndjson"] / rate["sketchprep ndjson → ndjson"],
            "bin_write_vs_ndjson_write": rate["sketchprep ndjson → bin"] / rate["sketchprep ndjson → ndjson"],
            "stroke3_write_vs_ndjson_write": rate["sketchprep ndjson → stroke3"] / rate["sketchprep ndjson → ndjson"],
            "bin_read_vs_python_quickdraw": rate["sketchprep bin → ndjson"] / rate["python quickdraw package (.bin read)"],
            "stroke3_read_write_vs_python_np_load": (rate["sketchprep stroke3 → stroke3 (published sketch-rnn files)"]
                                                     / rate["python np.load (stroke-3 .npz read)"]),
        }
        for name, value in sorted(speed_ups.items()):
            print(f"speed-up {name}: {value:.2f}×")
        if args.report_json:
            pathlib.Path(args.report_json).parent.mkdir(parents=True, exist_ok=True)
            pathlib.Path(args.report_json).write_text(json.dumps({"rows": rows, "speed_ups": speed_ups}, indent=2) + "\n")
        if args.thresholds:
            minimums = json.loads((pathlib.Path(args.thresholds) / "formats.json").read_text())
            failures = []
            for name, minimum in sorted(minimums.items()):
                value = speed_ups.get(name)
                ok = value is not None and value >= minimum
                print(f"threshold {name}: " + (f"{value:.2f}×" if value is not None else "not measured")
                      + f" (minimum {minimum:.2f}×) " + ("ok" if ok else "BELOW THRESHOLD"))
                if not ok:
                    failures.append(name)
            if failures:
                sys.exit(f"bench formats: below threshold: {', '.join(failures)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
