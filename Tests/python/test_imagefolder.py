"""`output.format: imagefolder` read with Pillow and a directory walk: every image, label and key
equals the NPY dataset of the same pipeline run (same inputs, same seed; 1,500-pixel images too), the files and their
bytes are the same for every --jobs, `verify` accepts the dataset and reports a stray image, and a stroke encoding is refused with the
reason. (`sketchprep.load_split` on an image folder: Tests/python/package/test_loaders.py.)"""
import json
import os
import subprocess

import numpy as np
from PIL import Image

from conftest import SHARED, npy_dataset

SIMPLIFIED = SHARED / "quickdraw" / "simplified"
INPUTS = [SIMPLIFIED / f"{w}.ndjson" for w in ["cat", "apple", "The Eiffel Tower"]]


def preprocess(sketchprep_cli, tmp_path, name, output_format, *extra, encode="{kind: raster, size: 28}", check=True):
    pipeline = tmp_path / f"{output_format}-{encode.count('raster')}.yaml"
    pipeline.write_text(f"source: {{kind: quickdraw-ndjson}}\nencode: {encode}\n"
                        f"output: {{format: {output_format}, examples_per_shard: 40}}\n")
    out = tmp_path / name
    args = [str(sketchprep_cli), "preprocess", "--pipeline", str(pipeline), "-o", str(out), "-q", *extra]
    for path in INPUTS:
        args += ["--input", str(path)]
    result = subprocess.run(args, capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
    return out, result



def walk(directory):
    """Every file under `directory` (relative path → bytes), found by a directory walk."""
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            files[os.path.relpath(path, directory)] = open(path, "rb").read()
    return files


def test_every_image_and_label_equals_the_npy_dataset_of_the_same_run(sketchprep, tmp_path):
    npy, _ = preprocess(sketchprep, tmp_path, "npy", "npy")
    folder, result = preprocess(sketchprep, tmp_path, "folder", "imagefolder")
    classes = (folder / "classes.txt").read_text().splitlines()
    manifest = json.loads((folder / "manifest.json").read_text())
    train = manifest["counts"]["train"]["total"]
    assert f"train: {train} drawings in {train} file(s)" in result.stdout  # a file per image, not "shards"
    total = 0
    for split in ["train", "val", "test"]:
        x, y, keys = npy_dataset(npy, split)
        found = {}
        for root, _, names in os.walk(folder / split):
            for name in names:
                word = os.path.basename(root)
                assert name.endswith(".png")
                with Image.open(os.path.join(root, name)) as image:
                    found[name[: -len(".png")]] = (np.asarray(image), classes.index(word))
        assert sorted(found) == sorted(keys)  # digit key_ids are their own file names
        for features, label, key in zip(x, y, keys):
            pixels, folder_label = found[key]
            assert folder_label == label, key
            assert pixels.dtype == np.uint8 and np.array_equal(pixels, features), key
        total += len(found)
    assert total == manifest["records"]["written"] > 0
    assert len(manifest["shards"]) == total  # one listed file (size, SHA-256) per example


def test_wide_images_decode_in_pillow_to_the_npy_dataset_of_the_same_run(sketchprep, tmp_path):
    # 1,500 pixels: the distance to the row above takes more than 8 extra bits in deflate.
    wide = "{kind: raster, size: 1500}"
    npy, _ = preprocess(sketchprep, tmp_path, "npy", "npy", "--limit", "2", encode=wide)
    folder, _ = preprocess(sketchprep, tmp_path, "folder", "imagefolder", "--limit", "2", encode=wide)
    decoded = 0
    for split in ["train", "val", "test"]:
        x, y, keys = npy_dataset(npy, split)
        for features, key in zip(x, keys):
            (path,) = folder.glob(f"{split}/*/{key}.png")
            with Image.open(path) as image:
                assert np.array_equal(np.asarray(image), features), key
            decoded += 1
    assert decoded == 6


def test_the_files_and_their_bytes_are_the_same_for_every_jobs_count_partitioning_and_reduce_parts(sketchprep, tmp_path):
    one, _ = preprocess(sketchprep, tmp_path, "one", "imagefolder", "--jobs", "1")
    two, _ = preprocess(sketchprep, tmp_path, "two", "imagefolder", "--jobs", "2")
    parts = [preprocess(sketchprep, tmp_path, f"part{i}", "imagefolder", "--partition", f"{i}/2")[0] for i in range(2)]
    merged, reduced = tmp_path / "merged", tmp_path / "reduced"
    for args in [["-o", merged], *(["-o", reduced, "--reduce", f"{i}/3"] for i in range(3)), ["-o", reduced, "--finalize"]]:
        result = subprocess.run([str(sketchprep), "merge", *map(str, parts), *map(str, args), "-q"], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    trees = [walk(directory) for directory in (one, two, merged, reduced)]
    for tree in trees:
        tree.pop("timings.json")
    assert trees[0] == trees[1]
    images = {name: data for name, data in trees[0].items() if name.endswith(".png")}
    assert images and all({n: d for n, d in tree.items() if n.endswith(".png")} == images for tree in trees[2:])


def test_verify_accepts_the_dataset_and_reports_a_stray_image(sketchprep, tmp_path):
    folder, _ = preprocess(sketchprep, tmp_path, "folder", "imagefolder")
    verified = subprocess.run([str(sketchprep), "verify", str(folder)], capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    word = (folder / "classes.txt").read_text().splitlines()[0]
    (folder / "train" / word / "planted.png").write_bytes(b"not listed")
    verified = subprocess.run([str(sketchprep), "verify", str(folder)], capture_output=True, text=True)
    assert verified.returncode != 0 and f"train/{word}/planted.png" in verified.stdout + verified.stderr


def test_a_stroke_encoding_is_refused_with_the_reason(sketchprep, tmp_path):
    out, result = preprocess(sketchprep, tmp_path, "strokes", "imagefolder", encode="{kind: strokes}", check=False)
    assert result.returncode != 0
    assert "output.format" in result.stderr and "set encode.kind: raster" in result.stderr
    assert not out.exists()
