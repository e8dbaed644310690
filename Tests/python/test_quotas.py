"""Per-class quotas by hash rank (`max_per_class`, `split.counts`) and the TensorFlow tutorial
layout: the kept drawings are the first of each class in dataset order, recomputed here from the
documented sort key and split rule; TFRecords carry key_id and parse with the `tfrecord` reader."""
import json
import subprocess

import pytest

from conftest import REPO

RAW = REPO / "SampleData" / "quickdraw" / "raw"
MASK = (1 << 64) - 1


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def sort_key(key_id, seed):
    z = ((fnv1a64(key_id) ^ seed) + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def split_of(key_id, train=90, val=10):
    bucket = fnv1a64(key_id) % 10000
    return "train" if bucket < train * 100 else "val" if bucket < (train + val) * 100 else "test"


def drawings():
    for path in sorted(RAW.glob("*.ndjson")):
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                yield record["word"], record["key_id"]


def test_split_counts_keep_the_first_of_each_class_in_hash_order(sketchprep, tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("""
source: {kind: quickdraw-ndjson}
encode: {kind: strokes, length: null}
split: {train: 90, val: 10, test: 0, counts: {train: 5, val: 1}}
output: {format: tfrecord, layout: tensorflow-tutorial, examples_per_shard: 4, seed: 9}
""")
    out = tmp_path / "out"
    subprocess.run([sketchprep, "preprocess", "--pipeline", str(pipeline), "--input", str(RAW), "-o", str(out), "--quiet"],
                   check=True, capture_output=True)
    expected = {"train": [], "val": []}
    for word in sorted({w for w, _ in drawings()}):
        keys = sorted((k for w, k in drawings() if w == word), key=lambda k: (sort_key(k, 9), k))
        for split, cap in (("train", 5), ("val", 1)):
            expected[split] += [k for k in keys if split_of(k) == split][:cap]
    for split in expected:
        expected[split].sort(key=lambda k: (sort_key(k, 9), k))

    reader = pytest.importorskip("tfrecord.reader")
    words = (out / "training.tfrecord.classes").read_text().splitlines()
    assert words == (out / "classes.txt").read_text().splitlines()
    for split, prefix in (("train", "training.tfrecord"), ("val", "eval.tfrecord")):
        files = sorted(out.glob(f"{prefix}-*-of-*"))
        assert files and all(f.name.endswith(f"-of-{len(files):05d}") for f in files)
        keys = []
        for f in files:
            for example in reader.tfrecord_loader(str(f), None, {"key_id": "byte", "class_index": "int"}):
                keys.append(bytes(example["key_id"]).decode())
        assert keys == expected[split]
    manifest = json.loads((out / "manifest.json").read_text())
    records = manifest["records"]
    assert records["written"] == len(expected["train"]) + len(expected["val"])
    assert records["read"] == records["written"] + records["filtered"] + records["rejected"]
