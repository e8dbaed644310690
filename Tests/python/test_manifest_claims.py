"""Every shipped pipeline in Pipelines/ run on a little data: what its manifest.json claims
(encoding, size, polarity, dtype, length, padding, which stages ran) is checked against the bytes it
wrote and the inputs it read."""
import hashlib
import io
import json
import re
import subprocess
import tarfile

import numpy as np
import pytest
from PIL import Image

from conftest import REPO, SHARED

PIPELINES = sorted((REPO / "Pipelines").glob("*.yaml"))
TUBERLIN = SHARED / "tuberlin"


@pytest.fixture(scope="module")
def tuberlin_extract(tmp_path_factory):
    """Three images of each of two classes in each split directory of the shared TU-Berlin data."""
    if not TUBERLIN.is_dir():
        pytest.skip("shared TU-Berlin data not present")
    root = tmp_path_factory.mktemp("tuberlin")
    for split in ("train", "test"):
        for class_dir in sorted((TUBERLIN / split).iterdir())[:2]:
            (root / split / class_dir.name).mkdir(parents=True)
            for image in sorted(class_dir.glob("*.png"))[:3]:
                (root / split / class_dir.name / image.name).symlink_to(image)
    return root


def run_pipeline(sketchprep, pipeline, out, tuberlin_extract):
    images = "image-directory" in pipeline.read_text()
    inputs = tuberlin_extract if images else REPO / "SampleData" / "quickdraw" / "raw"
    subprocess.run([sketchprep, "preprocess", "--pipeline", pipeline, "--input", inputs, "--limit", "3", "-o", out, "-q"],
                   check=True, capture_output=True)
    return json.loads((out / "manifest.json").read_text()), inputs


def shard_examples(out, manifest):
    """(kind, list of arrays) of every example in the dataset: 'npy' rows, 'png' decoded images
    (TFRecord or WebDataset), 'ink' (rows, 3) stroke deltas of TFRecords, 'stroke3' rows of the .npz files."""
    files = [out / shard["file"] for shard in manifest["shards"]]
    if files and all(f.suffix == ".tar" for f in files):
        members = []
        for f in files:
            with tarfile.open(f) as tar:
                members += [(m.name, tar.extractfile(m).read()) for m in tar.getmembers() if m.name.endswith((".png", ".npy"))]
        if all(name.endswith(".png") for name, _ in members):
            return "png", [np.asarray(Image.open(io.BytesIO(data))) for _, data in members]
        return "npy", [np.load(io.BytesIO(data)) for _, data in members]
    if any(f.name.endswith(".x.npy") for f in files):
        return "npy", [row for f in files if f.name.endswith(".x.npy") for row in np.load(f)]
    if all(f.suffix == ".npz" for f in files):
        arrays = []
        for f in files:
            with np.load(f, encoding="latin1", allow_pickle=True) as npz:
                arrays += [row for split in ("train", "valid", "test") for row in npz[split]]
        return "stroke3", arrays
    reader = pytest.importorskip("tfrecord.reader")
    examples = [example for f in files for example in reader.tfrecord_loader(str(f), None)]
    if "image/encoded" in examples[0]:
        return "png", [np.asarray(Image.open(io.BytesIO(bytes(e["image/encoded"])))) for e in examples]
    return "ink", [np.asarray(e["ink"], dtype=np.float32).reshape(tuple(int(v) for v in e["shape"])) for e in examples]


def mean_gray(paths):
    return float(np.mean([np.asarray(Image.open(p).convert("L"), dtype=np.float64).mean() for p in paths]))


@pytest.mark.parametrize("pipeline", PIPELINES, ids=lambda p: p.stem)
def test_manifest_claims_match_the_written_data(sketchprep, tmp_path, tuberlin_extract, pipeline):
    out = tmp_path / "out"
    manifest, inputs = run_pipeline(sketchprep, pipeline, out, tuberlin_extract)
    config = manifest["pipeline"]["config"]
    encode = config["encode"]
    kind, examples = shard_examples(out, manifest)
    assert len(examples) == manifest["records"]["written"] > 0

    for source in manifest["sources"]:  # the inputs it claims, with their bytes
        data = (REPO / source["path"]).read_bytes()  # the inputs are absolute paths, so they are recorded so
        assert source["bytes"] == len(data) and source["sha256"] == hashlib.sha256(data).hexdigest()

    images = config["source"]["kind"] == "image-directory"
    # Stages that did not run are not recorded: no simplification, input format or pen for images.
    assert ("simplify" in config) == (not images)
    assert ("format" in config["source"]) == (not images)
    if encode["kind"] == "raster":
        assert kind in ("npy", "png")
        size = encode["size"]
        assert all(example.shape == (size, size) for example in examples)
        assert {str(example.dtype) for example in examples} == {encode["dtype"] if kind == "npy" else "uint8"}
        pixels = np.stack(examples).astype(np.float64) * (encode["unit_scale"] if kind == "npy" else 1 / 255)
        assert 0 <= pixels.min() and pixels.max() <= 1
        if images:
            assert not {"line_width", "padding", "polarity"} & encode.keys()
            assert encode["invert"] is False  # so the polarity is the input's: compare with the PNGs
            source_mean = mean_gray(p for p in inputs.rglob("*.png")) / 255
            assert (pixels.mean() > 0.5) == (source_mean > 0.5)
            assert abs(pixels.mean() - source_mean) < 0.1
        else:
            white_on_black = encode["polarity"] == "white-on-black"
            assert (pixels.mean() < 0.5) == white_on_black, (encode["polarity"], pixels.mean())
            assert encode["line_width"] > 0 and encode["padding"] >= 0
    elif encode["kind"] == "strokes":
        assert all(example.ndim == 2 and example.shape[1] == 3 and example.dtype == np.float32 for example in examples)
        if encode["length"] is None:
            # Variable length: no padding or truncation took place, and none is claimed.
            assert not {"padding", "truncation"} & encode.keys()
            assert all(example[-1, 2] == 1 and example[0].any() for example in examples)
        else:
            assert all(example.shape[0] == encode["length"] for example in examples)
            padded = [example for example in examples if not example[0].any() or not example[-1].any()]
            at_front = all(not example[0].any() for example in padded)
            assert at_front == (encode["padding"] == "front")
    else:
        assert encode["kind"] == "stroke3" and kind == "stroke3"
        assert "examples_per_shard" not in config["output"]  # one file per class, not shards
        assert all(row.dtype == np.int16 and row.shape[1] == 3 for row in examples)
        assert all(row[-1, 2] == 1 for row in examples)  # the pen lifts at the end of every drawing


@pytest.mark.parametrize("pipeline", ["quickdraw-raster256", "quickdraw-sketchrnn", "quickdraw-tutorial-tfrecord"])
def test_the_reduce_side_reports_progress_up_to_its_total(sketchprep, tmp_path, pipeline):
    # The reduce side (merging, quotas, encoding shards: PNG for rasters) counts its examples
    # against the known total, quota-dropped ones included, so the last line reaches 100 %.
    run = subprocess.run([sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / f"{pipeline}.yaml",
                          "--input", REPO / "SampleData" / "quickdraw" / "raw", "--limit", "3", "-o", tmp_path / "out"],
                         check=True, capture_output=True, text=True)
    lines = re.findall(r"^(\d+) of (\d+) examples written \((\d+) %\)", run.stderr, re.M)
    assert lines and lines[-1][0] == lines[-1][1] and lines[-1][2] == "100", run.stderr
