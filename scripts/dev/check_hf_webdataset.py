"""HF `datasets`' webdataset builder reads SketchPrep's WebDataset output (make test-frameworks):
every sample's label and array equal the NPY dataset of the same pipeline and inputs, key by key.

    python scripts/dev/check_hf_webdataset.py SKETCHPREP_BINARY WORK_DIR
"""
import io
import json
import pathlib
import subprocess
import sys

import numpy as np
from datasets import load_dataset

cli, work = sys.argv[1], pathlib.Path(sys.argv[2])
inputs = [f"SampleData/quickdraw/raw/{w}.ndjson" for w in ["cat", "apple", "airplane"]]


def preprocess(name, output_format):
    pipeline = work / f"{name}.yaml"
    pipeline.write_text("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes}\n"
                        f"output: {{format: {output_format}, examples_per_shard: 40}}\n")
    args = [cli, "preprocess", "--pipeline", str(pipeline), "-o", str(work / name), "-q"]
    for path in inputs:
        args += ["--input", path]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return work / name


npy, tar = preprocess("npy", "npy"), preprocess("webdataset", "webdataset")
for split in ["train", "val", "test"]:
    expected = {}
    for x_path in sorted(npy.glob(f"{split}-*.x.npy")):
        stem = str(x_path)[: -len(".x.npy")]
        keys = open(stem + ".keys.txt").read().splitlines()
        for key, x, y in zip(keys, np.load(x_path), np.load(stem + ".y.npy")):
            expected[key] = (x, int(y))
    shards = sorted(str(p) for p in tar.glob(f"{split}-*.tar"))
    if not shards:
        assert not expected, f"{split}: NPY has {len(expected)} examples, WebDataset none"
        continue
    dataset = load_dataset("webdataset", data_files={split: shards}, split=split)
    assert len(dataset) == len(expected), (split, len(dataset), len(expected))
    for sample in dataset:
        facts = sample["json"] if isinstance(sample["json"], dict) else json.loads(sample["json"])
        x, label = expected[facts["key_id"]]
        value = sample["npy"]  # decoded by the builder (an array or nested lists), or raw bytes
        array = np.load(io.BytesIO(value)) if isinstance(value, (bytes, bytearray)) else np.asarray(value)
        assert np.array_equal(np.asarray(array, dtype=x.dtype), x), facts["key_id"]
        assert int(sample["cls"]) == label, facts["key_id"]
    print(f"HF datasets webdataset: {split}: {len(dataset)} samples equal the NPY dataset's")
