"""Joins SketchPrep NPY shard directories for training (the only data the training scripts see).

Each directory is read with the `sketchprep` Python package (`make wheel`, then
`pip install dist/sketchprep-*.whl`), which checks the shards against `manifest.json` and
applies its unit scaling; this module only joins several directories and re-indexes classes.
"""
from dataclasses import dataclass

import numpy as np
import sketchprep


@dataclass
class Split:
    """One split of a shard directory, concatenated over its shards."""
    features: np.ndarray  # float32, uint8 payloads scaled to [0, 1]
    labels: np.ndarray    # int64
    keys: list


def class_names(directory):
    """Class words in index order, from the directory's manifest.json."""
    return sketchprep.classes(directory)


def load_splits(directories, split, classes=None):
    """`split` of several shard directories holding preprocessings of overlapping drawings, joined:
    a key_id already seen in an earlier directory is skipped (the first directory wins), and labels
    are re-indexed to `classes` (words; default: the first directory's class map), dropping examples
    of other classes. Returns (Split, classes)."""
    classes = classes or class_names(directories[0])
    index = {word: i for i, word in enumerate(classes)}
    seen, features, labels, keys = set(), [], [], []
    for directory in directories:
        words = class_names(directory)
        part = load_split(directory, split)
        for x, y, key in zip(part.features, part.labels, part.keys):
            word = words[y]
            if key in seen or word not in index:
                continue
            seen.add(key)
            features.append(x)
            labels.append(index[word])
            keys.append(key)
    if not features:
        raise ValueError(f"no '{split}' examples of the chosen classes in {directories}")
    return Split(np.stack(features), np.array(labels, dtype=np.int64), keys), classes


def most_drawn_classes(directories, count):
    """The `count` class words with the most distinct key_ids over every split of `directories`
    (ties broken alphabetically)."""
    keys_per_word = {}
    for directory in directories:
        words = class_names(directory)
        for split in ("train", "val", "test"):
            part = load_split(directory, split)
            for y, key in zip(part.labels, part.keys):
                keys_per_word.setdefault(words[y], set()).add(key)
    ranked = sorted(keys_per_word, key=lambda word: (-len(keys_per_word[word]), word))
    return sorted(ranked[:count])


def load_split(directory, split):
    """All shards of `split` in `directory`, in shard order (uint8 rasters scaled to [0, 1])."""
    x, y, keys = sketchprep.load_split(directory, split, normalize=True)
    return Split(x.astype(np.float32), y.astype(np.int64), keys)
