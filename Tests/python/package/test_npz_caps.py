"""The Python stroke-3 loader holds a `.npz` to the CLI's caps before it inflates anything: the
caps are the Swift constants (read from Sources/SketchFormats here), an archive over one is refused
with the cap's name, and an NPY header claiming more than its bytes is refused before numpy
allocates for it."""
import io
import pathlib
import re
import struct
import zipfile

import numpy as np
import pytest

from sketchprep import DatasetError, stroke3

SOURCES = pathlib.Path(__file__).resolve().parents[3] / "Sources" / "SketchFormats"


def swift_constant(file, name):
    """The value of `static let <name> = <integer expression>` in a Swift source file."""
    text = (SOURCES / file).read_text()
    match = re.search(rf"static let {name} = ([0-9_ <>*+]+)\n", text)
    assert match, f"{name} not found in {file}"
    expression = match.group(1).replace("_", "")
    assert re.fullmatch(r"[0-9 <>*+]+", expression)
    return eval(expression)  # noqa: S307 (digits and shift/arithmetic operators only, checked above)


@pytest.mark.parametrize("python_name, file, swift_name", [
    ("MAX_NPZ_ENTRIES", "ZipArchive.swift", "maximumEntryCount"),
    ("MAX_NPZ_ENTRY_BYTES", "ZipArchive.swift", "maximumEntryBytes"),
    ("MAX_NPZ_TOTAL_BYTES", "ZipArchive.swift", "maximumArchiveBytes"),
    ("MAX_NPZ_FILE_BYTES", "Stroke3File.swift", "maximumFileSize"),
])
def test_the_loaders_caps_are_the_clis(python_name, file, swift_name):
    assert getattr(stroke3, python_name) == swift_constant(file, swift_name)


def patched_sizes(data, claimed):
    """`data` (a zip) with every local and central record claiming `claimed` inflated bytes."""
    out = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := out.find(signature, start)) >= 0:
            out[start + offset:start + offset + 4] = struct.pack("<I", claimed)
            start += 4
    return bytes(out)


def npz(entries, method=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_an_entry_claiming_more_than_the_entry_cap_is_refused_before_it_is_inflated(tmp_path):
    path = tmp_path / "bomb.npz"
    path.write_bytes(patched_sizes(npz([("train.npy", b"\0" * 1000)]), stroke3.MAX_NPZ_ENTRY_BYTES + 1))
    with pytest.raises(DatasetError, match="ZipArchive.maximumEntryBytes"):
        stroke3.read_npz_split(path, "train")


def test_entries_over_the_total_cap_or_too_many_entries_are_refused(tmp_path):
    path = tmp_path / "many.npz"
    path.write_bytes(npz([(f"e{i}.npy", b"") for i in range(stroke3.MAX_NPZ_ENTRIES + 1)]))
    with pytest.raises(DatasetError, match="ZipArchive.maximumEntryCount"):
        stroke3.read_npz_split(path, "train")
    path.write_bytes(patched_sizes(npz([("train.npy", b"1"), ("valid.npy", b"2")]), stroke3.MAX_NPZ_TOTAL_BYTES // 2 + 1))
    with pytest.raises(DatasetError, match="ZipArchive.maximumArchiveBytes"):
        stroke3.read_npz_split(path, "train")
    path.write_bytes(npz([("train.npy", b"x")], zipfile.ZIP_BZIP2))
    with pytest.raises(DatasetError, match="compression method"):
        stroke3.read_npz_split(path, "train")


def test_an_npy_header_claiming_more_than_its_bytes_is_refused_before_numpy_allocates(tmp_path):
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i2", "fortran_order": False, "shape": (1 << 31, 3)})
    path = tmp_path / "claim.npz"
    path.write_bytes(npz([("train_points.npy", header.getvalue() + b"\0" * 6), ("train_offsets.npy", header.getvalue())]))
    with pytest.raises(DatasetError, match="does not match"):
        stroke3.read_npz_split(path, "train")


def test_damaged_deflate_data_and_a_name_that_is_not_utf8_are_refused_as_dataset_errors(tmp_path):
    """Two inputs the atheris harness (Fuzz/Python/FuzzPythonLoaders.py) found raising zlib.error and
    UnicodeDecodeError out of the loader."""
    data = bytearray(npz([("train.npy", bytes(range(256)) * 64)]))
    start = data.find(b"train.npy") + len("train.npy")
    data[start:start + 40] = b"\xff" * 40  # the deflate stream's first bytes
    path = tmp_path / "damaged.npz"
    path.write_bytes(bytes(data))
    with pytest.raises(DatasetError):
        stroke3.read_npz_split(path, "train")
    named = bytearray(npz([("train.npy", b"x")]))
    for signature, flags in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = named.find(signature)
        named[at + flags + 1] |= 0x08  # bit 11 of the flags: the name is UTF-8
    named = bytes(named).replace(b"train.npy", b"tr\x80in.npy")
    path.write_bytes(named)
    with pytest.raises(DatasetError):
        stroke3.read_npz_split(path, "train")
