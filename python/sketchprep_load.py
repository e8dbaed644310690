"""Loads a SketchPrep NPY dataset directory without concatenating shards by hand.

    import sys; sys.path.insert(0, "path/to/sketchprep/python")
    from sketchprep_load import load_split, classes
    x, y, keys = load_split("out/quickdraw-rnn/airplane", "train")   # numpy arrays + key_ids
    words = classes("out/quickdraw-rnn/airplane")                    # index -> word

Shards are listed by manifest.json (so a partial copy fails loudly instead of loading less) and
read in shard order, which is the dataset's order. `mmap=True` memory-maps each shard; the result
is then a list of per-shard arrays instead of one concatenated array.
"""
import json
import pathlib

import numpy as np

__all__ = ["load_split", "classes", "SketchPrepDatasetError"]


class SketchPrepDatasetError(Exception):
    """The directory is not a complete SketchPrep NPY dataset."""


def _manifest(directory):
    path = pathlib.Path(directory) / "manifest.json"
    if not path.is_file():
        raise SketchPrepDatasetError(f"{path}: no manifest.json; is this a `sketchprep preprocess` output directory?")
    return json.loads(path.read_text(encoding="utf-8"))


def classes(directory):
    """Class words in label order (label i is classes(directory)[i])."""
    return [entry["word"] for entry in sorted(_manifest(directory)["classes"], key=lambda c: c["index"])]


def load_split(directory, split, mmap=False):
    """Features, labels and key_ids of one split ("train", "val" or "test") of an NPY dataset.

    Returns (x, y, keys): x of shape (N, …) and y (N,) int32 as numpy arrays (lists of per-shard
    arrays with mmap=True), keys a list of N key_id strings in the same order.
    """
    directory = pathlib.Path(directory)
    manifest = _manifest(directory)
    files = [s["file"] for s in manifest["shards"] if s["split"] == split]
    stems = sorted({f[: -len(".x.npy")] for f in files if f.endswith(".x.npy")})
    if not stems:
        if any(f.endswith(".tfrecord") for f in files):
            raise SketchPrepDatasetError(f"{directory}: the {split} split is TFRecord; read it with tf.data.TFRecordDataset")
        return np.zeros((0,)), np.zeros((0,), dtype=np.int32), []
    xs, ys, keys = [], [], []
    for stem in stems:
        for suffix in (".x.npy", ".y.npy", ".keys.txt"):
            if not (directory / (stem + suffix)).is_file():
                raise SketchPrepDatasetError(f"{directory / (stem + suffix)}: listed in manifest.json but missing")
        mode = "r" if mmap else None
        xs.append(np.load(directory / f"{stem}.x.npy", mmap_mode=mode))
        ys.append(np.load(directory / f"{stem}.y.npy", mmap_mode=mode))
        keys += (directory / f"{stem}.keys.txt").read_text(encoding="utf-8").splitlines()
    if mmap:
        return xs, ys, keys
    return np.concatenate(xs), np.concatenate(ys), keys
