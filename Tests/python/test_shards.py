"""Sharded datasets from `sketchprep preprocess`: NPY shards load with numpy (also memory-mapped),
TFRecord shards parse with the published `tfrecord` reader, values equal the numpy reference,
re-runs are byte-identical, configuration errors name the file and key."""
import hashlib
import json
import pathlib
import struct
import subprocess

import numpy as np
import pytest

from conftest import REPO, SHARED
from stroke_reference import book_tensor, read_drawings, tutorial_deltas

SIMPLIFIED = SHARED / "quickdraw" / "simplified"
CATEGORIES = ["airplane", "apple", "cat", "fish"]


def inputs():
    files = [SIMPLIFIED / f"{c}.ndjson" for c in CATEGORIES]
    if not all(f.exists() for f in files):
        pytest.skip(f"simplified data missing in {SIMPLIFIED}")
    return files


def preprocess(sketchprep, pipeline, output, *extra, check=True):
    args = [sketchprep, "preprocess", "--pipeline", str(pipeline), "--output", str(output), "--quiet", *extra]
    for f in inputs():
        args += ["--input", str(f)]
    return subprocess.run(args, capture_output=True, text=True, check=check)


def pipeline_file(tmp_path, body, name="p.yaml"):
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


NPY_PIPELINE = """
source: {kind: quickdraw-ndjson}
encode: {kind: strokes, length: 75}
split: {train: 70, val: 20, test: 10}
output: {format: npy, examples_per_shard: 100, seed: 3}
"""

TFRECORD_PIPELINE = """
source: {kind: quickdraw-ndjson}
encode: {kind: strokes, length: null}
output: {format: tfrecord, examples_per_shard: 150, seed: 3}
"""


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_npy_shards_load_with_numpy_and_equal_the_reference(sketchprep, tmp_path):
    out = tmp_path / "out"
    preprocess(sketchprep, pipeline_file(tmp_path, NPY_PIPELINE), out)
    manifest = json.loads((out / "manifest.json").read_text())
    words = {c["index"]: c["word"] for c in manifest["classes"]}
    assert sorted(words.values()) == CATEGORIES
    reference = {key: (word, strokes) for key, word, strokes in read_drawings(inputs())}
    seen = 0
    for shard in manifest["shards"]:
        assert sha256(out / shard["file"]) == shard["sha256"]
        if not shard["file"].endswith(".x.npy"):
            continue
        stem = shard["file"][:-len(".x.npy")]
        x = np.load(out / shard["file"], mmap_mode="r")
        y = np.load(out / f"{stem}.y.npy")
        keys = (out / f"{stem}.keys.txt").read_text().splitlines()
        assert x.dtype == np.float32 and x.shape == (len(keys), 75, 3) and x.offset % 64 == 0
        assert y.dtype == np.int32 and y.shape == (len(keys),)
        for row, key in enumerate(keys):
            word, strokes = reference[key]
            assert words[int(y[row])] == word
            assert np.array_equal(x[row], book_tensor(strokes))
        seen += len(keys)
    assert seen == len(reference)
    records = manifest["records"]
    assert records == {"read": len(reference), "written": len(reference), "filtered": 0, "rejected": 0, "source_errors": 0,
                       "duplicate_key_ids": 0}
    assert sum(manifest["counts"][s]["total"] for s in ("train", "val", "test")) == len(reference)
    for source in manifest["sources"]:
        assert sha256(pathlib.Path(source["path"])) == source["sha256"]


def test_tfrecord_shards_parse_with_published_reader_and_equal_the_reference(sketchprep, tmp_path):
    tfrecord_reader = pytest.importorskip("tfrecord.reader")
    example_pb2 = pytest.importorskip("tfrecord.example_pb2")
    crc32c = pytest.importorskip("crc32c")
    out = tmp_path / "tf"
    preprocess(sketchprep, pipeline_file(tmp_path, TFRECORD_PIPELINE), out)
    manifest = json.loads((out / "manifest.json").read_text())
    words = {c["index"]: c["word"] for c in manifest["classes"]}
    by_deltas = {}
    for _, word, strokes in read_drawings(inputs()):
        by_deltas.setdefault(tutorial_deltas(strokes).tobytes(), set()).add(word)
    count = 0
    for shard in manifest["shards"]:
        path = out / shard["file"]
        description = {"ink": "float", "shape": "int", "class_index": "int"}
        for example in tfrecord_reader.tfrecord_loader(str(path), None, description):
            rows, cols = example["shape"]
            ink = np.asarray(example["ink"], dtype=np.float32).reshape(rows, cols)
            assert cols == 3
            assert words[int(example["class_index"][0])] in by_deltas[ink.tobytes()]
            count += 1
        _check_framing_and_encoding(path.read_bytes(), crc32c, example_pb2)
    assert count == manifest["records"]["written"] == len(read_drawings(inputs()))


def _varint(data, offset):
    value, shift = 0, 0
    while True:
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, offset


def _fields(message):
    """(tag, bytes) of every length-delimited field of `message`, in order."""
    offset, out = 0, []
    while offset < len(message):
        tag, offset = _varint(message, offset)
        length, offset = _varint(message, offset)
        out.append((tag, message[offset:offset + length]))
        offset += length
    return out


def _feature_entries(example):
    """The raw map entries of an `Example`'s `Features`, in the order they are written."""
    ((_, features),) = _fields(example)
    return [entry for _, entry in _fields(features)]


def _feature_entries_key(entry):
    return dict(_fields(entry))[0x0A]


def _check_framing_and_encoding(data, crc32c, example_pb2):
    """Every record's masked CRC32Cs verify, and its bytes are protobuf's deterministic serialization
    except that the label's `Features` entry comes last (the reduce side appends it: manifest format 4)."""
    def masked(crc):
        return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF

    offset = 0
    while offset < len(data):
        length_bytes = data[offset:offset + 8]
        (length,) = struct.unpack("<Q", length_bytes)
        (length_crc,) = struct.unpack("<I", data[offset + 8:offset + 12])
        assert length_crc == masked(crc32c.crc32c(length_bytes))
        record = data[offset + 12:offset + 12 + length]
        (data_crc,) = struct.unpack("<I", data[offset + 12 + length:offset + 16 + length])
        assert data_crc == masked(crc32c.crc32c(record))
        example = example_pb2.Example()
        example.ParseFromString(record)
        entries = _feature_entries(record)
        assert sorted(entries) == sorted(_feature_entries(example.SerializeToString(deterministic=True)))
        keys = [_feature_entries_key(entry) for entry in entries]
        assert keys[-1] in (b"class_index", b"image/class/label") and keys[:-1] == sorted(keys[:-1])
        offset += 16 + length
    assert offset == len(data)


def test_rerun_gives_identical_sha256_for_every_shard_and_the_manifest(sketchprep, tmp_path):
    pipeline = pipeline_file(tmp_path, NPY_PIPELINE)
    first, second = tmp_path / "a", tmp_path / "b"
    preprocess(sketchprep, pipeline, first)
    preprocess(sketchprep, pipeline, second)
    # timings.json holds wall-clock seconds: the one file that is not reproducible.
    names = sorted(p.name for p in first.iterdir() if p.name != "timings.json")
    assert names == sorted(p.name for p in second.iterdir() if p.name != "timings.json")
    for name in names:
        assert sha256(first / name) == sha256(second / name), name
    again = preprocess(sketchprep, pipeline, first)
    assert "up to date" in again.stdout
    for name in names:
        assert sha256(first / name) == sha256(second / name), name


def test_rerun_rewrites_only_a_damaged_shard(sketchprep, tmp_path):
    pipeline = pipeline_file(tmp_path, NPY_PIPELINE)
    out = tmp_path / "out"
    preprocess(sketchprep, pipeline, out)
    manifest = json.loads((out / "manifest.json").read_text())
    victim = out / manifest["shards"][0]["file"]
    victim.write_bytes(b"broken")
    result = preprocess(sketchprep, pipeline, out)
    assert sha256(victim) == manifest["shards"][0]["sha256"]
    assert f"{len(manifest['shards']) - 1} shard file(s) were already complete" in result.stdout


def test_filters_and_category_override_fix_classes_and_reconcile(sketchprep, tmp_path):
    body = NPY_PIPELINE.replace("encode:", "filters: {recognized_only: true, max_per_class: 10}\nencode:")
    out = tmp_path / "f"
    preprocess(sketchprep, pipeline_file(tmp_path, body), out, "--category", "fish", "--category", "cat")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["classes"] == [{"index": 0, "word": "fish"}, {"index": 1, "word": "cat"}]
    r = manifest["records"]
    recognized = {}
    for f in inputs():
        for line in f.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            recognized[record["word"]] = recognized.get(record["word"], 0) + record["recognized"]
    assert r["written"] == min(recognized["fish"], 10) + min(recognized["cat"], 10)
    assert r["read"] == r["written"] + r["filtered"] + r["rejected"]


@pytest.mark.parametrize("body,key", [
    ("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes, lenght: 75}\n", "encode.lenght"),
    ("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes}\noutput: {format: parquet}\n", "output.format"),
    ("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes}\nsplit: {train: 80, val: 30, test: 0}\n", "split"),
    ("source: {kind: tuberlin}\nencode: {kind: strokes}\n", "source.kind"),
    ("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes, length: null}\n", "encode.length"),
])
def test_bad_pipeline_files_fail_naming_file_and_key(sketchprep, tmp_path, body, key):
    pipeline = pipeline_file(tmp_path, body, name="bad.yaml")
    result = preprocess(sketchprep, pipeline, tmp_path / "o", check=False)
    assert result.returncode != 0
    assert "bad.yaml" in result.stderr and key in result.stderr
    assert "Fatal error" not in result.stderr
