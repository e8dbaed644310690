"""Reads SketchPrep NPY shard directories (the only data the training scripts see).

A directory written by `sketchprep preprocess` holds, per split, shards
`{split}-{i:05d}-of-{n:05d}.x.npy` (features), `.y.npy` (int32 labels) and `.keys.txt`
(key_id per line), plus `manifest.json` with the class map (`classes`: [{index, word}]).
"""
import json
import pathlib
from dataclasses import dataclass

import numpy as np


@dataclass
class Split:
    """One split of a shard directory, concatenated over its shards."""
    features: np.ndarray  # float32, uint8 payloads scaled to [0, 1]
    labels: np.ndarray    # int64
    keys: list


def class_names(directory):
    """Class words in index order, from the directory's manifest.json."""
    manifest = json.loads((pathlib.Path(directory) / "manifest.json").read_text())
    classes = sorted(manifest["classes"], key=lambda entry: entry["index"])
    if [entry["index"] for entry in classes] != list(range(len(classes))):
        raise ValueError(f"{directory}/manifest.json: class indices are not 0..{len(classes) - 1}")
    return [entry["word"] for entry in classes]


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
            try:
                part = load_split(directory, split)
            except FileNotFoundError:
                continue
            for y, key in zip(part.labels, part.keys):
                keys_per_word.setdefault(words[y], set()).add(key)
    ranked = sorted(keys_per_word, key=lambda word: (-len(keys_per_word[word]), word))
    return sorted(ranked[:count])


def load_split(directory, split):
    """All shards of `split` in `directory`, in shard order. Raises if there are none."""
    directory = pathlib.Path(directory)
    stems = sorted(path.name[: -len(".x.npy")] for path in directory.glob(f"{split}-*-of-*.x.npy"))
    if not stems:
        raise FileNotFoundError(f"{directory}: no '{split}' shards ({split}-*-of-*.x.npy)")
    features, labels, keys = [], [], []
    for stem in stems:
        x = np.load(directory / f"{stem}.x.npy")
        y = np.load(directory / f"{stem}.y.npy")
        k = (directory / f"{stem}.keys.txt").read_text().splitlines()
        if not (len(x) == len(y) == len(k)):
            raise ValueError(f"{directory}/{stem}: {len(x)} features, {len(y)} labels, {len(k)} keys")
        features.append(x.astype(np.float32) / 255.0 if x.dtype == np.uint8 else x.astype(np.float32))
        labels.append(y.astype(np.int64))
        keys.extend(k)
    return Split(np.concatenate(features), np.concatenate(labels), keys)
