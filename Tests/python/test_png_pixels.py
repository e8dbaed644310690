"""The decoded pixels of every PNG the tool writes stay those of the digests in png_pixel_digests.json,
recorded from the PNGs libpng wrote before the PNG encoder changed: raster256 images in
TFRecord and WebDataset shards, time-channel (RGB) rasters, TU-Berlin images re-encoded into
TFRecord and WebDataset shards, and `contact-sheet` sheets of drawings and of PNG files. PNG bytes
may change; what a reader decodes may not. Every PNG found in an output file (walked chunk by chunk
from its signature to IEND) is decoded with Pillow, and its mode, size and pixels are hashed in file
order; each case's PNGs in all may not grow beyond the recorded bytes (libpng's, or the RGB ones
libdeflate writes, smaller: time-channel rasters and contact sheets). `SKETCHPREP_UPDATE_PIXEL_DIGESTS=1` rewrites the fixture (only for a change that means to
change pixels)."""
import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import zlib

import numpy as np
import pytest
from PIL import Image

from conftest import REPO, SHARED

FIXTURE = REPO / "Tests" / "python" / "png_pixel_digests.json"
SAMPLE_RAW = REPO / "SampleData" / "quickdraw" / "raw"
TUBERLIN = SHARED / "tuberlin"
SIGNATURE = b"\x89PNG\r\n\x1a\n"
RASTER256 = "{kind: raster, size: 256, line_width: 6, padding: 16, polarity: black-on-white}"
TIME_CHANNELS = "{kind: raster, size: 64, channels: [order, time, speed]}"


def pngs_in(data):
    """Every PNG file embedded in `data`, in order, each checked chunk by chunk (CRCs included)."""
    found, start = [], data.find(SIGNATURE)
    while start >= 0:
        position = start + len(SIGNATURE)
        while True:
            length, kind = struct.unpack(">I4s", data[position:position + 8])
            body = data[position + 8:position + 8 + length]
            (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
            assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
            position += 12 + length
            if kind == b"IEND":
                break
        found.append(data[start:position])
        start = data.find(SIGNATURE, position)
    return found


def pixel_digest(files):
    """SHA-256 over mode, size and decoded pixels of every PNG in `files` (in order), the PNG count and
    their bytes in all."""
    digest, count, size = hashlib.sha256(), 0, 0
    for path in files:
        for png in pngs_in(path.read_bytes()):
            image = Image.open(io.BytesIO(png))
            image.load()
            digest.update(f"{image.mode} {image.size}\n".encode())
            digest.update(np.asarray(image).tobytes())
            count += 1
            size += len(png)
    return {"pngs": count, "png_bytes": size, "sha256": digest.hexdigest()}


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def dataset_files(sketchprep, tmp_path, name, source, encode, output_format, inputs, *extra):
    pipeline = tmp_path / f"{name}.yaml"
    pipeline.write_text(f"source: {{kind: {source}}}\nencode: {encode}\n"
                        f"output: {{format: {output_format}, examples_per_shard: 8}}\n")
    out = tmp_path / name
    args = ["preprocess", "--pipeline", pipeline, "-o", out, "-q", *extra]
    for path in inputs:
        args += ["--input", path]
    run(sketchprep, *args)
    suffix = ".tfrecord" if output_format == "tfrecord" else ".tar"
    files = sorted(p for p in out.iterdir() if p.name.endswith(suffix))
    assert files, f"{name}: no {suffix} shards"
    return files


def tuberlin_sample(tmp_path):
    """Three images of each of two TU-Berlin classes, as an image directory."""
    root = tmp_path / "tuberlin"
    for cls in ("ant", "cat"):
        (root / cls).mkdir(parents=True)
        for png in sorted((TUBERLIN / "train" / cls).glob("*.png"))[:3]:
            shutil.copy(png, root / cls / png.name)
    return root


def outputs(sketchprep, tmp_path):
    """Case name → the files whose PNGs are hashed."""
    raw = ["--limit", "2"]
    cases = {}
    for output_format in ("tfrecord", "webdataset"):
        cases[f"raster256-{output_format}"] = dataset_files(
            sketchprep, tmp_path, f"raster256-{output_format}", "quickdraw-ndjson", RASTER256, output_format, [SAMPLE_RAW], *raw)
        cases[f"time-channels-{output_format}"] = dataset_files(
            sketchprep, tmp_path, f"time-{output_format}", "quickdraw-ndjson", TIME_CHANNELS, output_format, [SAMPLE_RAW], *raw)
        cases[f"tuberlin-{output_format}"] = dataset_files(
            sketchprep, tmp_path, f"tuberlin-{output_format}", "image-directory", "{kind: raster, size: 256}", output_format,
            [tuberlin_sample(tmp_path / output_format)])
    drawings = tmp_path / "sheet-drawings.png"
    run(sketchprep, "contact-sheet", SAMPLE_RAW / "cat.ndjson", "-o", drawings, "--limit", "12", "--columns", "4")
    images = tmp_path / "sheet-images.png"
    run(sketchprep, "contact-sheet", tuberlin_sample(tmp_path / "sheet"), "-o", images, "--limit", "6", "--columns", "3")
    cases["contact-sheet-drawings"] = [drawings]
    cases["contact-sheet-images"] = [images]
    return cases


@pytest.mark.skipif(not TUBERLIN.is_dir(), reason="shared TU-Berlin data not present")
def test_decoded_pixels_of_every_png_written_equal_the_recorded_digests(sketchprep, tmp_path):
    digests = {name: pixel_digest(files) for name, files in outputs(sketchprep, tmp_path).items()}
    if os.environ.get("SKETCHPREP_UPDATE_PIXEL_DIGESTS") == "1":
        FIXTURE.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n")
    recorded = json.loads(FIXTURE.read_text())
    assert all(d["pngs"] > 0 for d in digests.values()), digests
    assert {name: (d["pngs"], d["sha256"]) for name, d in digests.items()} == {
        name: (d["pngs"], d["sha256"]) for name, d in recorded.items()}
    # PNG bytes may change, but not grow: each case's PNGs are no larger in all than the recorded ones.
    assert {name: d["png_bytes"] for name, d in digests.items() if d["png_bytes"] > recorded[name]["png_bytes"]} == {}
