"""A dataset's ``manifest.json`` for the loaders, read and checked by the native library with the
CLI's own code: ``Manifest.readValid`` (the checks of ``sketchprep info``: a regular file inside the
directory, size cap, every count and shard name in range) and, per listed file,
``DatasetVerifier.shardProblem`` (the check of ``sketchprep verify``: a regular file inside the
directory with the recorded size, and with ``verify=True`` the recorded SHA-256). This module only
looks values up in the checked document."""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List, Optional, Union

from . import _native
from .errors import DatasetError

__all__ = ["Manifest", "read_manifest", "SPLITS"]

#: The split names of manifests, NPY and TFRecord shards.
SPLITS = ("train", "val", "test")

PathLike = Union[str, "os.PathLike[str]"]


class Manifest:
    """A dataset directory's ``manifest.json``: the dataset kind, classes and shard entries."""

    def __init__(self, directory: pathlib.Path, data: Dict[str, Any]) -> None:
        self.directory = directory
        self.data = data
        config = data.get("pipeline", {}).get("config", {}) if isinstance(data.get("pipeline"), dict) else {}
        output, encode = config.get("output", {}), config.get("encode", {})
        #: ``output.format``: ``npy``, ``tfrecord`` or ``npz``.
        self.format: str = str(output.get("format", "npy"))
        #: ``encode`` of the resolved configuration (``kind``, ``length``, ``dtype``, ``unit_scale``, …).
        self.encode: Dict[str, Any] = encode if isinstance(encode, dict) else {}
        self.shards: List[Dict[str, Any]] = _list(data, "shards")
        self._shard_index = {entry["file"]: index for index, entry in enumerate(self.shards)}

    @property
    def kind(self) -> str:
        """The dataset kind in words: the output format and encoding (e.g. ``npz/stroke3``)."""
        return f"{self.format}/{self.encode.get('kind', '?')}"

    @property
    def unit_scale(self) -> Optional[float]:
        """``encode.unit_scale`` (1/255 for uint8 rasters), or None when the manifest has none."""
        value = self.encode.get("unit_scale")
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def classes(self) -> List[str]:
        """Class words in label order; the indices must be exactly 0..n−1."""
        entries = _list(self.data, "classes")
        try:
            ordered = sorted(entries, key=lambda entry: entry["index"])
            words = [str(entry["word"]) for entry in ordered]
            indices = [entry["index"] for entry in ordered]
        except (KeyError, TypeError):
            raise DatasetError(f"{self.directory / 'manifest.json'}: classes must be objects with index and word") from None
        if indices != list(range(len(indices))):
            raise DatasetError(f"{self.directory / 'manifest.json'}: class indices are not 0..{len(indices) - 1}")
        return words

    def require(self, formats: tuple, reader: str) -> None:
        """Raises naming the kind when the dataset's format is not one of ``formats``."""
        if self.format not in formats:
            hint = {"npy": "sketchprep.load_split or sketchprep.ShardDataset", "tfrecord": "sketchprep.tf_dataset",
                    "npz": "sketchprep.load_stroke3"}.get(self.format, "no reader of this package")
            raise DatasetError(f"{self.directory}: {reader} reads {' or '.join(formats)} datasets; this one is a "
                               f"{self.kind} dataset (read it with {hint})")

    def split_entries(self, split: str) -> List[Dict[str, Any]]:
        """The shard entries of ``split`` in file-name order (the dataset's order)."""
        check_split(split, SPLITS)
        return sorted((entry for entry in self.shards if entry.get("split") == split), key=lambda entry: entry["file"])

    def check_file(self, entry: Dict[str, Any], verify: bool) -> pathlib.Path:
        """The path of a listed file after checking it is present with the recorded size (and
        SHA-256 with ``verify``)."""
        problem = _native.shard_problem(os.fspath(self.directory), self._shard_index[entry["file"]], verify)
        if problem is not None:
            raise DatasetError(problem)
        return self.directory / entry["file"]


def read_manifest(directory: PathLike) -> Manifest:
    """Reads and checks ``directory/manifest.json``."""
    directory = pathlib.Path(directory)
    data = json.loads(_native.manifest_bytes(os.fspath(directory)))
    return Manifest(directory, data)


def check_split(split: str, valid: tuple) -> None:
    """Raises naming the valid splits when ``split`` is not one of them."""
    if split not in valid:
        raise DatasetError(f"unknown split {split!r}; valid splits: {', '.join(valid)}")


def _list(data: Dict[str, Any], key: str) -> List[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise DatasetError(f"manifest.json: {key} must be a list")
    return value
