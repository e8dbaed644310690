"""HF `datasets`' webdataset builder reads SketchPrep's WebDataset output (make test-frameworks):
every sample's label and array equal the NPY dataset of the same pipeline and inputs, key by key.

    python scripts/dev/check_hf_webdataset.py SKETCHPREP_BINARY WORK_DIR
"""
import io
import json
import pathlib
import sys

import numpy as np
from datasets import load_dataset
from npy_reference import npy_examples, preprocess

cli, work = sys.argv[1], pathlib.Path(sys.argv[2])
npy = preprocess(cli, work, "npy", "npy", "{kind: strokes}")
tar = preprocess(cli, work, "webdataset", "webdataset", "{kind: strokes}")
for split in ["train", "val", "test"]:
    expected = npy_examples(npy, split)
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
