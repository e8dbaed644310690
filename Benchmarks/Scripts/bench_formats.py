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

Per core: `sketchprep encode --jobs 1` from .bin, stroke-3, Kaggle CSV and SVG inputs holding the same
drawings as NDJSON (SVG: the first --svg-drawings of them), in drawings per CPU second next to NDJSON's,
the median of --pairs alternating pairs (`<format>_encode_vs_ndjson_per_core`). `encode` adds the same
stroke-tensor work to every format, which caps these ratios; the format's own cost is its read + decode,
measured in process on one thread by `sketchprep-benchmarks read-decode` (--benchmarks; the engine's batch
readers and plug-in decoders with a body that only counts), CPU seconds next to NDJSON's in alternating
pairs (`<format>_read_decode_vs_ndjson_per_core`).

What bounds stroke-3: zlib's raw inflate of the entries (Python's `zlib`, the library the reader links) of the
stroke-3 files sketchprep wrote and of the published sketch-rnn files, in CPU seconds, fastest of --repeats, next
to the same inflated bytes deflated again as one Huffman-only stream per entry (`Z_HUFFMAN_ONLY`): sketchprep
writes each drawing as a deflate block of its own (deflated on the map side, joined by the reduce without
inflating: docs/scale.md, "Reduce side"), numpy's `savez_compressed` one stream per entry.
"""
import argparse
import csv
import io
import json
import pathlib
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

import numpy as np

from bench_timing import fastest  # best of N runs, the one timing rule of the Python benchmarks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", required=True, help="the shared data directory (quickdraw/simplified, sketchrnn)")
    parser.add_argument("--sketchprep", required=True, help="release sketchprep binary")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=5, help="alternating NDJSON / format runs of the per-core comparison")
    parser.add_argument("--svg-drawings", type=int, default=2000, help="drawings written as SVG files for its per-core rate")
    parser.add_argument("--benchmarks", default="Benchmarks/.build/release/sketchprep-benchmarks",
                        help="the sketchprep-benchmarks binary (release) whose read-decode measures read + decode")
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

        per_core = per_core_rates(args, work, ndjson, drawings)
        inflate = {"sketchprep": stroke3_inflate(work / "s3in", per_core["stroke3"]["read_decode"]["drawings"], args.repeats),
                   "published": stroke3_inflate(sketchrnn, stroke3_drawings, args.repeats)}

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
        speed_ups.update({f"{name}_encode_vs_ndjson_per_core": row["vs_ndjson"] for name, row in per_core.items()})
        speed_ups.update({f"{name}_read_decode_vs_ndjson_per_core": row["read_decode"]["vs_ndjson"] for name, row in per_core.items()})
        for name, row in per_core.items():
            print(f"encode --jobs 1 from {name:<7} {row['drawings']:>8} drawings  {row['cpu_seconds']:>8.3f} CPU s"
                  f"  {row['drawings_per_cpu_second']:>10,} drawings/CPU s  (NDJSON {row['ndjson_drawings_per_cpu_second']:,};"
                  f" {row['vs_ndjson']:.2f}× NDJSON's rate, median of {args.pairs} pairs)")
            read = row["read_decode"]
            print(f"read + decode from {name:<7} {read['drawings']:>8} drawings  {read['cpu_seconds']:>8.3f} CPU s"
                  f"  {round(read['drawings'] / read['cpu_seconds']):>10,} drawings/CPU s  (NDJSON"
                  f" {round(read['drawings'] / read['ndjson_cpu_seconds']):,}; {read['vs_ndjson']:.2f}× NDJSON's rate,"
                  f" median of {args.pairs} pairs)")
        for name, row in inflate.items():
            print(f"inflate stroke-3 ({name} files) {row['drawings']:>8} drawings  {row['inflated_bytes']:>11,} bytes:"
                  f" as stored {row['deflated_bytes']:,} bytes, {row['stored_mb_per_cpu_second']} MB/CPU s;"
                  f" as one Huffman-only stream an entry {row['one_stream_bytes']:,} bytes,"
                  f" {row['one_stream_mb_per_cpu_second']} MB/CPU s")
        for name, value in sorted(speed_ups.items()):
            print(f"speed-up {name}: {value:.2f}×")
        if args.report_json:
            pathlib.Path(args.report_json).parent.mkdir(parents=True, exist_ok=True)
            pathlib.Path(args.report_json).write_text(
                json.dumps({"rows": rows, "per_core": per_core, "stroke3_inflate": inflate, "speed_ups": speed_ups}, indent=2) + "\n")
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


def cpu_seconds(command):
    """CPU seconds (user + system) of running `command` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def write_csv(ndjson, directory):
    """The NDJSON files' records as Kaggle train CSV files (`countrycode,drawing,key_id,recognized,timestamp,word`),
    each written in one call as the NDJSON files are: a file written in 8 KiB pieces sits in the page cache in
    small pages, which costs its reader about 5 % more CPU in the kernel (Benchmarks/README.md, "Input formats
    per core")."""
    directory.mkdir()
    for path in sorted(ndjson.glob("*.ndjson")):
        out = io.StringIO(newline="")
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["countrycode", "drawing", "key_id", "recognized", "timestamp", "word"])
        with path.open() as lines:
            for line in lines:
                record = json.loads(line)
                writer.writerow([record["countrycode"], json.dumps(record["drawing"]), record["key_id"], record["recognized"],
                                 record["timestamp"].removesuffix(" UTC"), record["word"]])
        (directory / (path.stem + ".csv")).write_text(out.getvalue(), newline="")


def write_svg_and_ndjson(ndjson, directory, subset, count):
    """The first `count` distinct records (by key_id) as one SVG file each (a polyline per stroke, in one directory
    per word) and as NDJSON."""
    directory.mkdir()
    subset.mkdir()
    written = 0
    with (subset / "subset.ndjson").open("w") as out:
        for path in sorted(ndjson.glob("*.ndjson")):
            for line in path.open():
                if written == count:
                    return written
                record = json.loads(line)
                folder = directory / record["word"].replace("/", "_")
                if (folder / f"{record['key_id']}.svg").exists():
                    continue  # a copy of a drawing already written (the inputs repeat each file --copies times)
                folder.mkdir(exist_ok=True)
                polylines = "".join('<polyline points="' + " ".join(f"{x},{y}" for x, y in zip(stroke[0], stroke[1])) + '"/>'
                                    for stroke in record["drawing"])
                (folder / f"{record['key_id']}.svg").write_text(
                    f'<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">{polylines}</svg>\n')
                out.write(line)
                written += 1
    return written


def per_core_rates(args, work, ndjson, drawings):
    """`encode --jobs 1` from each input format next to NDJSON holding the same drawings, in CPU seconds
    (user + system, so other load on the machine does not count): the format's run and NDJSON's alternate
    for --pairs pairs; a format's rate next to NDJSON's is the median of the pairs' ratios."""
    subprocess.run([args.sketchprep, "convert", str(ndjson), "--to", "stroke3", "-o", str(work / "s3in"), "-q",
                    "--stroke3-sizes", "1000000/0/0"], check=True, stdout=subprocess.DEVNULL)
    write_csv(ndjson, work / "csvin")
    svg_count = write_svg_and_ndjson(ndjson, work / "svgin", work / "svgnd", args.svg_drawings)
    # The stroke-3 conversion keeps fewer drawings than it reads: its read + decode is compared with
    # the NDJSON of exactly the drawings it holds (converted back).
    subprocess.run([args.sketchprep, "convert", str(work / "s3in"), "--to", "ndjson", "-o", str(work / "s3nd"), "-q"],
                   check=True, stdout=subprocess.DEVNULL)
    cases = {"bin": (work / "bin", ndjson, drawings, ndjson), "stroke3": (work / "s3in", ndjson, drawings, work / "s3nd"),
             "csv": (work / "csvin", ndjson, drawings, ndjson), "svg": (work / "svgin", work / "svgnd", svg_count, work / "svgnd")}

    def encode(source):
        return [args.sketchprep, "encode", str(source), "-o", str(work / "encode.npy"), "-q", "--jobs", "1"]

    results = {}
    for name, (source, reference, count, read_reference) in cases.items():
        pairs = [(cpu_seconds(encode(reference)), cpu_seconds(encode(source))) for _ in range(args.pairs)]
        ndjson_seconds = statistics.median(pair[0] for pair in pairs)
        seconds = statistics.median(pair[1] for pair in pairs)
        results[name] = {"drawings": count, "cpu_seconds": round(seconds, 4),
                         "drawings_per_cpu_second": round(count / seconds),
                         "ndjson_drawings_per_cpu_second": round(count / ndjson_seconds),
                         "vs_ndjson": round(statistics.median(pair[0] / pair[1] for pair in pairs), 3),
                         "read_decode": read_decode(args, source, read_reference)}
    return results


def stroke3_inflate(directory, drawings, repeats):
    """zlib's raw inflate of the deflated entries of the `.npz` files in `directory` (holding `drawings`), as
    stored and deflated again as one Huffman-only stream each: bytes, and MB inflated per CPU second (fastest of
    `repeats`)."""
    stored = []
    inflated = 0
    for path in sorted(directory.glob("*.npz")):
        data = path.read_bytes()
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if info.compress_type == zipfile.ZIP_DEFLATED:
                    name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
                    start = info.header_offset + 30 + name_length + extra_length
                    stored.append(data[start:start + info.compress_size])
                    inflated += info.file_size

    def one_stream(deflated):
        compressor = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_HUFFMAN_ONLY)
        return compressor.compress(zlib.decompress(deflated, -15)) + compressor.flush()

    def rate(streams):
        seconds = fastest(lambda: [zlib.decompress(deflated, -15) for deflated in streams], repeats, clock=time.process_time)
        return round(inflated / seconds / 1e6, 1)

    joined = [one_stream(deflated) for deflated in stored]
    return {"drawings": drawings, "inflated_bytes": inflated, "deflated_bytes": sum(map(len, stored)),
            "stored_mb_per_cpu_second": rate(stored), "one_stream_bytes": sum(map(len, joined)),
            "one_stream_mb_per_cpu_second": rate(joined)}


def read_decode(args, source, reference):
    """Read + decode of `source` next to NDJSON's `reference` (`sketchprep-benchmarks read-decode`: in
    process, one thread, CPU seconds, median of --pairs alternating pairs)."""
    output = subprocess.run([args.benchmarks, "read-decode", "--ndjson", str(reference), "--input", str(source),
                             "--pairs", str(args.pairs)], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


if __name__ == "__main__":
    main()
