"""Loaders for the NPY, TFRecord and image-folder datasets ``sketchprep preprocess`` writes.

A dataset directory holds ``manifest.json`` and, per split, shards ``{split}-NNNNN-of-NNNNN``:
``.x.npy`` (features), ``.y.npy`` (int32 labels) and ``.keys.txt`` (one key per line), or
``.tfrecord`` files; an image folder holds one PNG per example, ``{split}/{word}/{key}.png``.
Files are taken from the manifest (never from a directory listing) and checked against it, in the
manifest's order, which is the dataset's order.
"""
from __future__ import annotations

import bisect
import pathlib
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _layout
from .errors import DatasetError
from .manifests import SPLITS, Manifest, PathLike, check_split, read_manifest

__all__ = ["Split", "load_split", "classes", "manifest", "ShardDataset", "tf_dataset"]


class Split(NamedTuple):
    """One split: features ``x`` ``(N, …)``, int32 labels ``y`` ``(N,)`` and the ``N`` keys.

    With ``mmap=True`` ``x`` and ``y`` are lists of memory-mapped per-shard arrays.
    """

    x: Union[np.ndarray, List[np.ndarray]]
    y: Union[np.ndarray, List[np.ndarray]]
    keys: List[str]


def manifest(directory: PathLike) -> Dict[str, Any]:
    """The parsed ``manifest.json`` of a dataset directory (shard paths checked)."""
    return read_manifest(directory).data


def classes(directory: PathLike) -> List[str]:
    """Class words in label order: label ``i`` is ``classes(directory)[i]``."""
    return read_manifest(directory).classes()


def load_split(directory: PathLike, split: str, *, normalize: bool = False, mmap: bool = False,
               verify: bool = False) -> Split:
    """Features, labels and keys of ``split`` (``"train"``, ``"val"`` or ``"test"``) of an NPY dataset
    or an image folder (its PNGs decoded with Pillow, in the dataset's order; no ``mmap``).

    Features keep their stored dtype (float32 stroke tensors, uint8 or float32 rasters) unless
    ``normalize`` applies the manifest's ``encode.unit_scale`` (uint8 rasters become float32
    ``pixel / 255``, the CLI's float32 values; datasets without a unit scale are unchanged).
    A listed shard that is missing or has another size raises :class:`DatasetError`, as does
    one whose SHA-256 differs with ``verify=True``. An empty split gives zero-length arrays.
    """
    dataset = read_manifest(directory)
    dataset.require(("npy", "imagefolder"), "load_split")
    if dataset.format == "imagefolder":
        if mmap:
            raise DatasetError(f"{dataset.directory}: an image folder holds PNG files, which cannot be memory-mapped")
        x, y, keys = _image_folder_split(dataset, split, verify)
        return Split(_normalized(x, dataset.unit_scale) if normalize else x, y, keys)
    stems = _npy_stems(dataset, split, verify)
    xs, ys, keys = [], [], []
    for stem in stems:
        x, y, stem_keys = _load_shard(dataset.directory, stem, mmap)
        xs.append(x)
        ys.append(y)
        keys += stem_keys
    if not stems:
        xs, ys = [_empty_features(dataset)], [np.zeros((0,), dtype=np.int32)]
    if normalize:
        xs = [_normalized(x, dataset.unit_scale) for x in xs]
    if mmap:
        return Split(xs, ys, keys)
    return Split(np.concatenate(xs), np.concatenate(ys), keys)


class ShardDataset:
    """A map-style dataset over one split of an NPY dataset, for ``torch.utils.data.DataLoader``
    (or any loader that calls ``len()`` and ``[i]``) without this package importing torch.

    Shards are memory-mapped on first use in each process, so workers share the page cache and
    the object pickles cheaply to ``DataLoader`` workers. ``dataset[i]`` is ``(x, y)``: a numpy
    array of one example (a copy, in the stored dtype or normalised) and its label as int.
    ``keys`` lists every example's key in order.
    """

    def __init__(self, directory: PathLike, split: str, *, normalize: bool = False, verify: bool = False) -> None:
        dataset = read_manifest(directory)
        dataset.require(("npy",), "ShardDataset")
        self.directory = dataset.directory
        self.split = split
        self.normalize = normalize
        self._unit_scale = dataset.unit_scale
        self._stems = _npy_stems(dataset, split, verify)
        self._starts: List[int] = []
        self.keys: List[str] = []
        self._arrays: Optional[List[Tuple[np.ndarray, np.ndarray]]] = None
        for stem in self._stems:
            x, y, keys = _load_shard(self.directory, stem, mmap=True)
            self._starts.append(len(self.keys))
            self.keys += keys
        self.classes = dataset.classes()

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, index: int) -> Tuple[np.ndarray, int]:
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
            raise TypeError(f"ShardDataset indices are integers, not {type(index).__name__}")
        count = len(self.keys)
        if not -count <= index < count:
            raise IndexError(f"index {index} out of range for {count} examples")
        index = int(index) % count
        shard = bisect.bisect_right(self._starts, index) - 1
        x, y = self._shards()[shard]
        row = index - self._starts[shard]
        example = np.array(x[row])
        if self.normalize:
            example = _normalized(example, self._unit_scale)
        return example, int(y[row])

    def _shards(self) -> List[Tuple[np.ndarray, np.ndarray]]:
        if self._arrays is None:
            self._arrays = [_load_shard(self.directory, stem, mmap=True)[:2] for stem in self._stems]
        return self._arrays

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_arrays"] = None  # each process maps the shards itself
        return state


def tf_dataset(directory: PathLike, split: str, *, normalize: bool = False, verify: bool = False):
    """A ``tf.data.Dataset`` of ``(x, label)`` over ``split`` of a TFRecord dataset.

    Stroke tensors come back as float32 ``(rows, 3)`` (variable-length datasets have per-example
    row counts), float32 rasters as ``(size, size)``, PNG rasters as uint8 ``(size, size)``
    (float32 ``pixel / 255`` with ``normalize``). TensorFlow is imported only here.
    """
    dataset = read_manifest(directory)
    dataset.require(("tfrecord",), "tf_dataset")
    files = [str(dataset.check_file(entry, verify)) for entry in dataset.split_entries(split)]
    import tensorflow as tf  # noqa: PLC0415 (optional dependency, imported when used)

    png = dataset.encode.get("kind") == "raster" and dataset.encode.get("dtype") == "uint8"
    if png:
        features = {"image/encoded": tf.io.FixedLenFeature([], tf.string),
                    "image/class/label": tf.io.FixedLenFeature([1], tf.int64)}
    else:
        features = {"ink": tf.io.VarLenFeature(tf.float32), "shape": tf.io.FixedLenFeature([2], tf.int64),
                    "class_index": tf.io.FixedLenFeature([1], tf.int64)}
    divisor = _unit_divisor(dataset.unit_scale)

    def parse(record):
        example = tf.io.parse_single_example(record, features)
        if png:
            image = tf.squeeze(tf.io.decode_png(example["image/encoded"], channels=1), axis=-1)
            if normalize and divisor is not None:
                image = tf.cast(image, tf.float32) / divisor
            return image, tf.cast(example["image/class/label"][0], tf.int32)
        values = tf.reshape(tf.sparse.to_dense(example["ink"]), example["shape"])
        return values, tf.cast(example["class_index"][0], tf.int32)

    return tf.data.TFRecordDataset(files).map(parse)


def _image_folder_split(dataset: Manifest, split: str, verify: bool) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """The images, labels and keys of ``split`` of an image folder: its files in manifest order,
    the label from the class directory, the key_id from the file name (WebDataset's escaping)."""
    from PIL import Image  # noqa: PLC0415 (optional dependency, imported when used)

    check_split(split, SPLITS)
    labels = {word: index for index, word in enumerate(dataset.classes())}
    images, ys, keys = [], [], []
    for entry in dataset.shards:
        if entry.get("split") != split:
            continue
        parts = entry["file"].split("/")
        if len(parts) != 3 or parts[0] != split or parts[1] not in labels or not parts[2].endswith(".png"):
            raise DatasetError(f"{dataset.directory}: {entry['file']!r} is not {split}/<class>/<key>.png of a listed class")
        path = dataset.check_file(entry, verify)
        try:
            with Image.open(path) as image:
                images.append(np.asarray(image))
        except OSError as error:
            raise DatasetError(f"{path}: unreadable image: {error}") from None
        ys.append(labels[parts[1]])
        keys.append(_key_id(parts[2][: -len(".png")], path))
    if not images:  # zero examples in the shape of the dataset's images (any split's)
        for entry in dataset.shards[:1]:
            with Image.open(dataset.check_file(entry, False)) as image:
                return np.zeros((0,) + np.asarray(image).shape, dtype=np.uint8), np.zeros((0,), dtype=np.int32), []
        return np.zeros((0,), dtype=np.uint8), np.zeros((0,), dtype=np.int32), []
    try:
        x = np.stack(images)
    except ValueError as error:
        raise DatasetError(f"{dataset.directory}: the images of {split} differ in shape: {error}") from None
    return x, np.asarray(ys, dtype=np.int32), keys


def _key_id(key: str, path: pathlib.Path) -> str:
    """The key_id of a WebDataset-escaped key (``~XX`` is the byte 0xXX)."""
    out = bytearray()
    index = 0
    try:
        while index < len(key):
            if key[index] == "~":
                out.append(int(key[index + 1:index + 3], 16))
                index += 3
            else:
                out += key[index].encode("ascii")
                index += 1
        return out.decode("utf-8")
    except (ValueError, UnicodeError):
        raise DatasetError(f"{path}: the file name is not an escaped key_id") from None


def _npy_stems(dataset: Manifest, split: str, verify: bool) -> List[str]:
    """The shard stems of ``split`` in order, after checking each listed file."""
    entries = dataset.split_entries(split)
    stems = sorted({entry["file"][: -len(_layout.FEATURES)] for entry in entries if entry["file"].endswith(_layout.FEATURES)})
    listed = {entry["file"]: entry for entry in entries}
    for stem in stems:
        for suffix in (_layout.FEATURES, _layout.LABELS, _layout.KEYS):
            entry = listed.get(stem + suffix)
            if entry is None:
                raise DatasetError(f"{dataset.directory / (stem + suffix)}: not listed in {_layout.MANIFEST}")
            dataset.check_file(entry, verify)
    return stems


def _load_shard(directory: pathlib.Path, stem: str, mmap: bool) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """One shard's features, labels and keys; their counts must agree."""
    mode = "r" if mmap else None
    try:
        x = np.load(directory / (stem + _layout.FEATURES), mmap_mode=mode, allow_pickle=False)
        y = np.load(directory / (stem + _layout.LABELS), mmap_mode=mode, allow_pickle=False)
        keys = (directory / (stem + _layout.KEYS)).read_text(encoding="utf-8").splitlines()
    except (ValueError, OSError, UnicodeDecodeError) as error:
        raise DatasetError(f"{directory / stem}: unreadable shard: {error}") from None
    if not (len(x) == len(y) == len(keys)):
        raise DatasetError(f"{directory / stem}: {len(x)} features, {len(y)} labels, {len(keys)} keys")
    return x, y, keys


def _empty_features(dataset: Manifest) -> np.ndarray:
    """Zero examples in the dataset's feature shape and dtype (taken from any of its shards)."""
    for entry in dataset.shards:
        if entry["file"].endswith(_layout.FEATURES):
            sample = np.load(dataset.check_file(entry, False), mmap_mode="r", allow_pickle=False)
            return np.zeros((0,) + sample.shape[1:], dtype=sample.dtype)
    return np.zeros((0,), dtype=np.float32)


def _unit_divisor(unit_scale: Optional[float]) -> Optional[float]:
    """``1 / unit_scale`` when the dataset has a unit scale other than 1 (255 for uint8 rasters)."""
    if unit_scale is None or unit_scale == 1 or not unit_scale > 0:
        return None
    return float(round(1 / unit_scale))


def _normalized(x: np.ndarray, unit_scale: Optional[float]) -> np.ndarray:
    """``x`` in units: ``pixel / 255`` in float32 for uint8 rasters (the CLI's own float32 values)."""
    divisor = _unit_divisor(unit_scale)
    if divisor is None:
        return x
    if abs(divisor * unit_scale - 1) > 1e-12:
        return np.asarray(x, dtype=np.float32) * np.float32(unit_scale)
    return np.asarray(x, dtype=np.float32) / np.float32(divisor)
