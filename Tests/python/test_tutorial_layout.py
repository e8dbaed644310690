"""Pipelines/quickdraw-tutorial-tfrecord.yaml through the CLI: the files the TensorFlow RNN
tutorial's train_model.py globs for, read with the published `tfrecord` reader; key_id feature;
eval drawings are the val split of the one split rule (FNV-1a-64 of the key_id), train the train split;
the summary counts one shard per file."""
import json
import subprocess

import pytest

from conftest import REPO

PRESET = REPO / "Pipelines" / "quickdraw-tutorial-tfrecord.yaml"
RAW = REPO / "SampleData" / "quickdraw" / "raw"


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def test_tutorial_preset_writes_the_tutorials_files_with_key_ids_in_their_split(sketchprep, tmp_path):
    tfrecord_reader = pytest.importorskip("tfrecord.reader")
    out = tmp_path / "tutorial"
    run = subprocess.run([sketchprep, "preprocess", "--pipeline", str(PRESET), "--input", str(RAW), "-o", str(out), "--quiet"],
                         check=True, capture_output=True, text=True)
    classes = (out / "training.tfrecord.classes").read_text()
    assert classes == (out / "classes.txt").read_text()
    words = classes.splitlines()
    assert len(words) == 6
    drawings = {}
    for path in sorted(RAW.glob("*.ndjson")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            drawings[record["key_id"]] = record["word"]
    description = {"ink": "float", "shape": "int", "class_index": "int", "key_id": "byte"}
    seen = {}
    for base, buckets in (("training", range(0, 9000)), ("eval", range(9000, 10000))):
        files = sorted(out.glob(f"{base}.tfrecord-?????-of-?????"))
        assert files, base
        for path in files:
            for example in tfrecord_reader.tfrecord_loader(str(path), None, description):
                key = bytes(example["key_id"]).decode()
                assert fnv1a64(key) % 10000 in buckets, (base, key)
                assert words[int(example["class_index"][0])] == drawings[key]
                assert list(example["shape"]) == [len(example["ink"]) // 3, 3]
                seen[key] = base
    # SampleData has 20 drawings per class, under the 10,000 / 1,000 quotas: every drawing is kept
    # (the preset's split is 90/10/0).
    expected = set(drawings)
    assert set(seen) == expected
    assert not list(out.glob("test.tfrecord-*"))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["records"]["written"] == len(expected)
    assert manifest["records"]["filtered"] == len(drawings) - len(expected)
    assert manifest["pipeline"]["config"]["output"]["layout"] == "tensorflow-tutorial"
    for split, base in (("train", "training"), ("val", "eval")):
        shards = len(list(out.glob(f"{base}.tfrecord-*")))
        assert f"{split}: {manifest['counts'][split]['total']} drawings in {shards} shard(s)" in run.stdout
