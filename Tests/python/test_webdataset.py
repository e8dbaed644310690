"""WebDataset output read by the PyPI `webdataset` package: every sample, label and key equals the
NPY dataset of the same pipeline, rasters come back as PNG images, keys with dots and slashes are
escaped into WebDataset member keys, and the tar bytes are the same for every --jobs and for
partitions + merge."""
import io
import json
import subprocess

import numpy as np
import webdataset as wds
from PIL import Image

from conftest import SHARED, npy_dataset

SIMPLIFIED = SHARED / "quickdraw" / "simplified"


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def preprocess(sketchprep, tmp_path, name, encode, output_format, inputs, *extra):
    kind = "raster" if "raster" in encode else "strokes"
    pipeline = tmp_path / f"{output_format}-{kind}.yaml"
    pipeline.write_text(f"source: {{kind: quickdraw-ndjson}}\nencode: {encode}\n"
                        f"output: {{format: {output_format}, examples_per_shard: 40}}\n")
    out = tmp_path / name
    args = ["preprocess", "--pipeline", pipeline, "-o", out, "-q", *extra]
    for path in inputs:
        args += ["--input", path]
    run(sketchprep, *args)
    return out



def webdataset_samples(directory, split):
    shards = sorted(str(p) for p in directory.glob(f"{split}-*.tar"))
    return list(wds.WebDataset(shards, shardshuffle=False))


def test_every_sample_label_and_key_equals_the_npy_dataset_of_the_same_run(sketchprep, tmp_path):
    inputs = [SIMPLIFIED / f"{w}.ndjson" for w in ["cat", "apple", "The Eiffel Tower"]]
    for encode in ["{kind: strokes}", "{kind: raster, size: 28}"]:
        kind = "raster" if "raster" in encode else "strokes"
        npy = preprocess(sketchprep, tmp_path, f"npy-{kind}", encode, "npy", inputs)
        tar = preprocess(sketchprep, tmp_path, f"wds-{kind}", encode, "webdataset", inputs)
        records = {json.loads(line)["key_id"]: json.loads(line) for p in inputs for line in open(p)}
        classes = (tar / "classes.txt").read_text().splitlines()
        total = 0
        for split in ["train", "val", "test"]:
            x, y, keys = npy_dataset(npy, split)
            samples = webdataset_samples(tar, split)
            assert [s["__key__"] for s in samples] == keys  # digit key_ids are their own member keys
            for sample, features, label, key in zip(samples, x, y, keys):
                assert int(sample["cls"]) == label
                if "png" in sample:
                    assert np.array_equal(np.asarray(Image.open(io.BytesIO(sample["png"]))), features.reshape(28, 28))
                else:
                    assert np.array_equal(np.load(io.BytesIO(sample["npy"])), features)
                meta = json.loads(sample["json"])
                record = records[key]
                assert meta == {"word": classes[label], "key_id": key, "countrycode": record["countrycode"],
                                "recognized": record["recognized"], "timestamp": record["timestamp"]}
            total += len(samples)
        assert total == len(records)


def test_keys_with_dots_and_slashes_are_escaped_and_the_json_keeps_the_original(sketchprep, tmp_path):
    tar = preprocess(sketchprep, tmp_path, "svg", "{kind: raster, size: 28}", "webdataset", [SHARED / "tuberlin-svg"])
    samples = [s for split in ["train", "val", "test"] for s in webdataset_samples(tar, split)]
    assert len(samples) == 10
    for sample in samples:
        key_id = json.loads(sample["json"])["key_id"]  # e.g. airplane/1.svg
        escaped = "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "".join(f"~{b:02X}" for b in c.encode()) for c in key_id)
        assert sample["__key__"] == escaped and "." not in escaped and "/" not in escaped


def test_tar_bytes_are_the_same_for_every_jobs_count_and_for_partitions(sketchprep, tmp_path):
    inputs = [SIMPLIFIED / f"{w}.ndjson" for w in ["cat", "apple"]]
    one = preprocess(sketchprep, tmp_path, "one", "{kind: strokes}", "webdataset", inputs, "--jobs", 1)
    two = preprocess(sketchprep, tmp_path, "two", "{kind: strokes}", "webdataset", inputs, "--jobs", 2)
    parts = [preprocess(sketchprep, tmp_path, f"part{i}", "{kind: strokes}", "webdataset", inputs, "--partition", f"{i}/2")
             for i in range(2)]
    run(sketchprep, "merge", *parts, "-o", tmp_path / "merged", "-q")
    tars = sorted(p.name for p in one.glob("*.tar"))
    assert tars
    for name in tars:
        assert (two / name).read_bytes() == (one / name).read_bytes() == (tmp_path / "merged" / name).read_bytes()
    run(sketchprep, "verify", one)
