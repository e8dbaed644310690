"""Reader of sketch-rnn stroke-3 ``.npz`` datasets (``output.format: npz``): one ``<word>.npz``
per class holding ``train``, ``valid`` and ``test`` arrays of int16 ``(n, 3)`` stroke-3 arrays,
either as numpy object arrays (sketch-rnn's pickled layout) or, in the flat layout, as
``{split}_points`` ``(P, 3)`` with ``{split}_offsets`` ``(N + 1,)`` int64.

Object arrays are unpickled with only numpy's array-rebuilding globals allowed, so a crafted
file cannot run code (``np.load(allow_pickle=True)`` would). An archive is held to the CLI's caps
(``ZipArchive`` and ``Stroke3NPZ`` in Sources/SketchFormats, docs/limits.md) before anything is
inflated: the file's size, the number of entries, the stored or deflated method, each entry's and
all entries' inflated size as the central directory declares them (zipfile never inflates past the
declared size), and an NPY entry's shape against the bytes it holds before numpy allocates it.
"""
from __future__ import annotations

import io
import pickle
import struct
import zipfile
import zlib
from typing import Any, List, NamedTuple

import numpy as np

from . import _layout, _native
from .errors import DatasetError
from .manifests import PathLike, check_split, read_manifest

__all__ = ["Stroke3Split", "load_stroke3"]

#: The split names inside a sketch-rnn ``.npz`` (``val`` is accepted for ``valid``).
NPZ_SPLITS = ("train", "valid", "test")

# The CLI's caps, from the native library (docs/limits.md).
#: Largest ``.npz`` read (``Stroke3NPZ.maximumFileSize``).
MAX_NPZ_FILE_BYTES = _native.limit("Stroke3NPZ.maximumFileSize")
#: Most entries in one ``.npz`` (``ZipArchive.maximumEntryCount``).
MAX_NPZ_ENTRIES = _native.limit("ZipArchive.maximumEntryCount")
#: Largest inflated size of one entry (``ZipArchive.maximumEntryBytes``).
MAX_NPZ_ENTRY_BYTES = _native.limit("ZipArchive.maximumEntryBytes")
#: Largest inflated size of all entries together (``ZipArchive.maximumArchiveBytes``).
MAX_NPZ_TOTAL_BYTES = _native.limit("ZipArchive.maximumArchiveBytes")

_ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
}


class Stroke3Split(NamedTuple):
    """One split of a stroke-3 dataset over every class: the drawings (int16 ``(n, 3)`` arrays),
    their int32 labels (class indices) and the class words."""

    strokes: List[np.ndarray]
    labels: np.ndarray
    classes: List[str]


def load_stroke3(directory: PathLike, split: str, *, verify: bool = False) -> Stroke3Split:
    """``split`` (``"train"``, ``"valid"``/``"val"`` or ``"test"``) of every class of a stroke-3
    dataset, classes in label order and each class's drawings in file order.

    Each listed ``.npz`` must be present with the recorded size (and SHA-256 with ``verify``).
    """
    dataset = read_manifest(directory)
    dataset.require(("npz",), "load_stroke3")
    split = "valid" if split == "val" else split
    check_split(split, NPZ_SPLITS + ("val",))
    words = dataset.classes()
    listed = {entry["file"]: entry for entry in dataset.shards}
    strokes: List[np.ndarray] = []
    labels: List[int] = []
    for label, word in enumerate(words):
        entry = listed.get(word + _layout.STROKE3)
        if entry is None:
            raise DatasetError(
                f"{dataset.directory / (word + _layout.STROKE3)}: class {word!r} has no {_layout.STROKE3} listed in {_layout.MANIFEST}"
            )
        arrays = read_npz_split(dataset.check_file(entry, verify), split)
        strokes += arrays
        labels += [label] * len(arrays)
    return Stroke3Split(strokes, np.array(labels, dtype=np.int32), words)


def read_npz_split(path: Any, split: str) -> List[np.ndarray]:
    """The stroke-3 arrays of ``split`` in one ``.npz`` file (either layout)."""
    try:
        with open(path, "rb") as file:
            size = file.seek(0, io.SEEK_END)
            if size > MAX_NPZ_FILE_BYTES:
                raise DatasetError(f"{path}: larger than {MAX_NPZ_FILE_BYTES} bytes (Stroke3NPZ.maximumFileSize, docs/limits.md)")
            file.seek(0)
            with zipfile.ZipFile(file) as archive:
                _check_caps(archive, path)
                names = set(archive.namelist())
                if f"{split}_points.npy" in names and f"{split}_offsets.npy" in names:
                    points = _plain_array(archive.read(f"{split}_points.npy"), path)
                    offsets = _plain_array(archive.read(f"{split}_offsets.npy"), path)
                    return _split_flat(points, offsets, path, split)
                if f"{split}.npy" not in names:
                    raise DatasetError(f"{path}: no {split!r} array (has {', '.join(sorted(names))})")
                return _object_arrays(archive.read(f"{split}.npy"), path, split)
    except DatasetError:
        raise
    except (zipfile.BadZipFile, zlib.error, struct.error, OSError, EOFError, NotImplementedError, RuntimeError,
            ValueError) as error:
        # zlib.error: damaged deflate data; ValueError: zipfile's own refusals, e.g. a name that is not
        # UTF-8 although flagged so.
        raise DatasetError(f"{path}: not a readable .npz: {error}") from None


def _check_caps(archive: zipfile.ZipFile, path: Any) -> None:
    """The CLI's caps on the central directory, before any entry is inflated."""
    entries = archive.infolist()
    if len(entries) > MAX_NPZ_ENTRIES:
        raise DatasetError(f"{path}: the archive lists {len(entries)} entries, more than {MAX_NPZ_ENTRIES} (ZipArchive.maximumEntryCount)")
    names = set()
    total = 0
    for entry in entries:
        if entry.filename in names:
            raise DatasetError(f"{path}: entry {entry.filename} is listed twice")
        names.add(entry.filename)
        if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise DatasetError(f"{path}: entry {entry.filename} uses compression method {entry.compress_type} (only stored and deflated)")
        if entry.file_size > MAX_NPZ_ENTRY_BYTES:
            raise DatasetError(
                f"{path}: entry {entry.filename} inflates to {entry.file_size} bytes, more than {MAX_NPZ_ENTRY_BYTES}"
                " (ZipArchive.maximumEntryBytes)")
        total += entry.file_size
        if total > MAX_NPZ_TOTAL_BYTES:
            raise DatasetError(
                f"{path}: the entries inflate to more than {MAX_NPZ_TOTAL_BYTES} bytes together (ZipArchive.maximumArchiveBytes)")


def _plain_array(data: bytes, path: Any) -> np.ndarray:
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
        count = 1
        for side in shape:
            count *= side
        if dtype.hasobject or count * dtype.itemsize != len(data) - stream.tell():
            raise ValueError(f"the header's shape {shape} of {dtype} does not match the {len(data) - stream.tell()} bytes after it")
        return np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, TypeError, SyntaxError) as error:
        raise DatasetError(f"{path}: unreadable array: {error}") from None


def _split_flat(points: np.ndarray, offsets: np.ndarray, path: Any, split: str) -> List[np.ndarray]:
    if points.ndim != 2 or points.shape[1] != 3 or offsets.ndim != 1 or not np.issubdtype(offsets.dtype, np.integer):
        raise DatasetError(f"{path}: {split}_points must be (P, 3) and {split}_offsets (N + 1,) integers")
    if len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != len(points) or np.any(np.diff(offsets) < 0):
        raise DatasetError(f"{path}: {split}_offsets must start at 0, not decrease and end at {len(points)}")
    return [] if len(offsets) == 1 else np.split(points, offsets[1:-1])


class _NumpyOnlyUnpickler(pickle.Unpickler):
    """Unpickles numpy object arrays; any other global is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED_GLOBALS:
            raise pickle.UnpicklingError(f"global {module}.{name} is not allowed in a stroke-3 file")
        return super().find_class(module, name)


def _object_arrays(data: bytes, path: Any, split: str) -> List[np.ndarray]:
    stream = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
    except (ValueError, TypeError, SyntaxError) as error:
        raise DatasetError(f"{path}: {split}.npy: bad NPY header: {error}") from None
    if dtype != np.dtype(object):
        return list(_plain_array(data, path))
    try:
        array = _NumpyOnlyUnpickler(stream, encoding="latin1").load()
    except Exception as error:  # noqa: BLE001 (any unpickling failure is a damaged file)
        raise DatasetError(f"{path}: {split}.npy: unreadable object array: {error}") from None
    if not isinstance(array, np.ndarray) or array.shape != tuple(shape):
        raise DatasetError(f"{path}: {split}.npy: not an object array of shape {shape}")
    result: List[np.ndarray] = []
    for index, item in enumerate(array.ravel()):
        if not isinstance(item, np.ndarray) or item.ndim != 2 or item.shape[1] != 3:
            raise DatasetError(f"{path}: {split}[{index}] is not an (n, 3) stroke-3 array")
        result.append(item)
    return result


