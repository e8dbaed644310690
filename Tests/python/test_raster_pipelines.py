"""Raster pipelines end to end: Pipelines/tuberlin-cnn.yaml (PNG directory with split directories,
a broken file, class map), Pipelines/quickdraw-bitmap28.yaml (shards equal Google's bitmaps per
key_id) and Pipelines/quickdraw-raster256.yaml (TFRecord of PNG images, parsed with the published
`tfrecord` reader and decoded with Pillow)."""
import io
import json
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import REPO, SHARED

QUICKDRAW = SHARED / "quickdraw"
TUBERLIN = SHARED / "tuberlin"


def preprocess(sketchprep, pipeline, out, *inputs):
    args = [sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / pipeline, "--output", out, "--quiet"]
    for path in inputs:
        args += ["--input", path]
    subprocess.run(args, check=True, capture_output=True)
    return json.loads((out / "manifest.json").read_text())


def npy_shards(out, manifest, split):
    """(features, labels, keys) of one split, concatenated over its shards."""
    stems = sorted({s["file"].split(".")[0] for s in manifest["shards"] if s["split"] == split})
    x = np.concatenate([np.load(out / f"{stem}.x.npy") for stem in stems])
    y = np.concatenate([np.load(out / f"{stem}.y.npy") for stem in stems])
    keys = [k for stem in stems for k in (out / f"{stem}.keys.txt").read_text().splitlines()]
    return x, y, keys


@pytest.mark.skipif(not TUBERLIN.is_dir(), reason="shared TU-Berlin data not present")
def test_tuberlin_pipeline_honours_split_directories_and_quarantines_broken_files(sketchprep, tmp_path):
    root = tmp_path / "tuberlin"
    for split in ("train", "test"):
        for cls in ("ant", "cat"):
            shutil.copytree(TUBERLIN / split / cls, root / split / cls)
    (root / "train" / "cat" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    out = tmp_path / "out"
    manifest = preprocess(sketchprep, "tuberlin-cnn.yaml", out, root)

    assert [c["word"] for c in manifest["classes"]] == ["ant", "cat"]
    assert manifest["pipeline"]["config"]["encode"]["unit_scale"] == pytest.approx(1 / 255)
    expected = {s: sum(len(list((root / s / c).glob("*.png"))) for c in ("ant", "cat")) for s in ("train", "test")}
    assert manifest["records"] == {"read": expected["train"] + expected["test"], "written": expected["train"] - 1
                                   + expected["test"], "filtered": 0, "rejected": 1,
                                   "source_errors": 0, "duplicate_key_ids": 0}
    assert (out / manifest["quarantine"]).read_text().splitlines() == [str(root / "train" / "cat" / "broken.png")]
    for split in ("train", "test"):
        x, y, keys = npy_shards(out, manifest, split)
        assert x.shape == (len(keys), 256, 256) and x.dtype == np.uint8 and y.dtype == np.int32
        assert all(k.startswith(split + "/") for k in keys)
        assert [("ant", "cat")[label] for label in y] == [k.split("/")[1] for k in keys]
    # Pixels equal the `raster` command's on the same file.
    x, _, keys = npy_shards(out, manifest, "test")
    single = tmp_path / "one.npy"
    subprocess.run([sketchprep, "raster", root / keys[0], "-o", single], check=True, capture_output=True)
    assert (np.load(single)[0] == x[0]).all()


@pytest.mark.skipif(not QUICKDRAW.is_dir(), reason="shared Quick, Draw! data not present")
def test_bitmap28_shards_equal_the_official_bitmaps_by_key_id(sketchprep, tmp_path):
    classes = ["apple", "bicycle", "bowtie", "cat", "diamond", "eye", "fish", "lollipop", "rainbow"]
    official = {}
    for cls in classes:
        bitmaps = np.load(QUICKDRAW / "bitmap" / f"{cls}.npy").reshape(-1, 28, 28)
        lines = (QUICKDRAW / "simplified" / f"{cls}.ndjson").read_text().splitlines()
        official.update({json.loads(line)["key_id"]: bitmaps[i] for i, line in enumerate(lines[:25])})
    out = tmp_path / "out"
    manifest = preprocess(sketchprep, "quickdraw-bitmap28.yaml", out,
                          *[QUICKDRAW / "simplified" / f"{c}.ndjson" for c in classes])
    seen = 0
    for split in ("train", "val", "test"):
        if not manifest["counts"][split]["total"]:
            continue
        x, y, keys = npy_shards(out, manifest, split)
        assert x.shape[1:] == (28, 28) and x.dtype == np.uint8
        for image, key in zip(x, keys):
            if key in official:
                assert (image == official[key]).all(), key
                seen += 1
    assert seen == 225


@pytest.mark.skipif(not QUICKDRAW.is_dir(), reason="shared Quick, Draw! data not present")
def test_raster256_tfrecords_hold_png_images_equal_to_the_bitmap_command(sketchprep, tmp_path):
    reader = pytest.importorskip("tfrecord.reader")
    source = QUICKDRAW / "simplified" / "fish.ndjson"
    out = tmp_path / "out"
    manifest = preprocess(sketchprep, "quickdraw-raster256.yaml", out, source)
    reference_file = tmp_path / "fish.npy"
    subprocess.run([sketchprep, "bitmap", source, "-o", reference_file, "-q", "--size", "256", "--line-width", "6",
                    "--padding", "16", "--polarity", "black-on-white"], check=True, capture_output=True)
    reference = {row.tobytes() for row in np.load(reference_file)}
    description = {"image/encoded": "byte", "image/height": "int", "image/width": "int", "image/class/label": "int"}
    count = 0
    for shard in manifest["shards"]:
        for example in reader.tfrecord_loader(str(out / shard["file"]), None, description):
            image = np.asarray(Image.open(io.BytesIO(bytes(example["image/encoded"]))))
            assert image.shape == (256, 256) and int(example["image/height"][0]) == 256
            assert int(example["image/class/label"][0]) == 0
            assert image.tobytes() in reference
            count += 1
    assert count == len(reference) == manifest["records"]["written"]
