"""Rendering and storing the largest raster accepted keeps the memory bound of `preprocess` and
`bitmap` (docs/limits.md, "Rasters at the largest size") for any number of drawings: batches hold
one drawing at that size (`BatchSizing`) and the reduce's merge reads a run's block only when it
reaches its keys. Measured through the release CLI (preprocess with PNG (TFRecord) and raw (NPY)
output, and bitmap) at 4 and 16 drawings, each count enough to write all three splits (the reduce
holds more while it writes a split's shard than a one-shard dataset needs): the peak RSS stays
under the bound and does not grow with the number of drawings."""
import subprocess
import sys

import pytest

from conftest import SHARED

SIDE = 8192  # the largest `encode.size` (RasterEncodeOptions, docs/pipelines.md)
JOBS = 1
MIB = 1 << 20
BOUND_BYTES = 100 * MIB + (5 * JOBS + 3) * SIDE * SIDE


def peak_rss_bytes(command):
    """Peak RSS of `command` run in a fresh interpreter (getrusage of its only child)."""
    measure = ("import resource, subprocess, sys\n"
               "r = subprocess.run(sys.argv[1:], capture_output=True)\n"
               "sys.stderr.buffer.write(r.stderr[-2000:])\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.exit(r.returncode)\n")
    result = subprocess.run([sys.executable, "-c", measure, *map(str, command)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return int(result.stdout.split()[-1]) * 1024


@pytest.mark.parametrize("output_format", ["tfrecord", "npy"])
def test_the_largest_raster_keeps_the_memory_bound_for_any_number_of_drawings(sketchprep, tmp_path, output_format):
    with open(SHARED / "quickdraw" / "raw" / "cat.ndjson", "rb") as handle:
        lines = [next(handle) for _ in range(16)]
    peaks = {}
    for count in (4, 16):
        source = tmp_path / f"cat{count}.ndjson"
        source.write_bytes(b"".join(lines[:count]))
        pipeline = tmp_path / f"p{count}.yaml"
        pipeline.write_text(
            "source: {kind: quickdraw-ndjson, format: raw}\n"
            f"encode: {{kind: raster, size: {SIDE}, line_width: 6, polarity: black-on-white, dtype: uint8}}\n"
            f"output: {{format: {output_format}, directory: {tmp_path / f'out{count}'}, examples_per_shard: 4}}\n")
        peaks[count] = peak_rss_bytes([sketchprep, "preprocess", "--pipeline", pipeline, "--input", source,
                                       "--jobs", JOBS, "-q"])
    assert peaks[16] <= BOUND_BYTES, f"peak RSS {peaks[16] / MIB:.0f} MiB over the bound {BOUND_BYTES / MIB:.0f} MiB"
    # One drawing at this size is 64 MiB: twelve more drawings may not add half of one.
    assert peaks[16] - peaks[4] < SIDE * SIDE // 2, f"peak RSS grows with the drawings: {peaks}"


def test_bitmap_at_the_largest_size_keeps_the_memory_bound_for_any_number_of_drawings(sketchprep, tmp_path):
    with open(SHARED / "quickdraw" / "raw" / "cat.ndjson", "rb") as handle:
        lines = [next(handle) for _ in range(16)]
    peaks = {}
    for count in (4, 16):
        source = tmp_path / f"cat{count}.ndjson"
        source.write_bytes(b"".join(lines[:count]))
        peaks[count] = peak_rss_bytes([sketchprep, "bitmap", source, "--size", SIDE, "-o", tmp_path / f"b{count}.npy",
                                       "--jobs", JOBS, "-q"])
    assert peaks[16] <= BOUND_BYTES, f"peak RSS {peaks[16] / MIB:.0f} MiB over the bound {BOUND_BYTES / MIB:.0f} MiB"
    assert peaks[16] - peaks[4] < SIDE * SIDE // 2, f"peak RSS grows with the drawings: {peaks}"
