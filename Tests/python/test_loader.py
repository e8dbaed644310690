"""python/sketchprep_load.py: one call returns a split's features, labels and key_ids in shard
order, equal to reading every shard by hand; a missing shard fails loudly."""
import sys

import numpy as np
import pytest

from conftest import REPO
from test_shards import NPY_PIPELINE, pipeline_file, preprocess

sys.path.insert(0, str(REPO / "python"))
from sketchprep_load import SketchPrepDatasetError, classes, load_split  # noqa: E402


def test_load_split_concatenates_the_shards_in_order(sketchprep, tmp_path):
    out = tmp_path / "out"
    preprocess(sketchprep, pipeline_file(tmp_path, NPY_PIPELINE), out)
    total = 0
    for split in ("train", "val", "test"):
        x, y, keys = load_split(out, split)
        stems = sorted(p.name[: -len(".x.npy")] for p in out.glob(f"{split}-*.x.npy"))
        assert np.array_equal(x, np.concatenate([np.load(out / f"{s}.x.npy") for s in stems]))
        assert np.array_equal(y, np.concatenate([np.load(out / f"{s}.y.npy") for s in stems]))
        assert keys == [k for s in stems for k in (out / f"{s}.keys.txt").read_text().splitlines()]
        xm, ym, _ = load_split(out, split, mmap=True)
        assert np.array_equal(np.concatenate(xm), x) and np.array_equal(np.concatenate(ym), y)
        total += len(keys)
    assert total > 0
    assert sorted(classes(out)) == ["airplane", "apple", "cat", "fish"]

    next(out.glob("train-*.y.npy")).unlink()
    with pytest.raises(SketchPrepDatasetError, match="missing"):
        load_split(out, "train")
