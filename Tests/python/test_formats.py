"""Real clients read what `sketchprep convert` writes: the PyPI `quickdraw` package reads our .bin,
numpy loads our stroke-3 .npz as Magenta's sketch-rnn does; and we read an independently written .bin
and the published sketch-rnn files."""
import glob
import json
import os
import pickle
import struct
import subprocess
import zipfile

import numpy as np
import pytest

from conftest import SHARED

SIMPLIFIED = SHARED / "quickdraw" / "simplified"
SKETCHRNN = SHARED / "sketchrnn"


def convert(sketchprep, inputs, target, out, *extra):
    result = subprocess.run([str(sketchprep), "convert", *map(str, inputs), "--to", target, "-o", str(out), "-q", *extra],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def simplified_records(word):
    with open(SIMPLIFIED / f"{word}.ndjson") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def bin_dir(sketchprep, tmp_path_factory):
    out = tmp_path_factory.mktemp("bin")
    convert(sketchprep, [SIMPLIFIED], "bin", out)
    return out


def test_quickdraw_package_reads_our_bin_files_with_the_same_drawings(bin_dir):
    from quickdraw import QuickDrawDataGroup
    words = ["The Eiffel Tower", "apple", "cat"]
    for word in words:
        group = QuickDrawDataGroup(word, max_drawings=None, cache_dir=str(bin_dir), print_messages=False)
        drawings = list(group.drawings)
        expected = simplified_records(word)
        assert len(drawings) == len(expected)
        for drawing, record in zip(drawings, expected):
            assert drawing.key_id == int(record["key_id"])
            assert drawing.countrycode == record["countrycode"]
            assert drawing.recognized == record["recognized"]
            assert [[[x for x, _ in stroke], [y for _, y in stroke]] for stroke in drawing.strokes] == record["drawing"]


def test_bin_to_ndjson_keeps_everything_but_the_fraction_of_a_second(sketchprep, bin_dir, tmp_path):
    convert(sketchprep, [bin_dir], "ndjson", tmp_path)
    for path in glob.glob(str(SIMPLIFIED / "*.ndjson")):
        ours = [json.loads(line) for line in open(tmp_path / os.path.basename(path))]
        theirs = simplified_records(os.path.basename(path)[:-len(".ndjson")])
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert a["timestamp"] == b["timestamp"].split(".")[0].removesuffix(" UTC") + " UTC"
            assert {k: v for k, v in a.items() if k != "timestamp"} == {k: v for k, v in b.items() if k != "timestamp"}


def pack_bin(records):
    """An independent writer of Google's documented .bin layout."""
    out = b""
    for r in records:
        out += struct.pack("<Q2sBIH", int(r["key_id"]), r["countrycode"].encode("ascii"), int(r["recognized"]), 1489007527, len(r["drawing"]))
        for xs, ys in r["drawing"]:
            out += struct.pack("<H", len(xs)) + struct.pack(f"{len(xs)}B", *xs) + struct.pack(f"{len(ys)}B", *ys)
    return out


def test_a_bin_written_with_struct_pack_is_read_and_a_truncated_tail_quarantined(sketchprep, tmp_path):
    records = simplified_records("apple")
    data = pack_bin(records)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "apple.bin").write_bytes(data[:-5])
    result = convert(sketchprep, [tmp_path / "in" / "apple.bin"], "ndjson", tmp_path / "out")
    ours = [json.loads(line) for line in open(tmp_path / "out" / "apple.ndjson")]
    assert [r["key_id"] for r in ours] == [r["key_id"] for r in records[:-1]]
    assert [r["drawing"] for r in ours] == [r["drawing"] for r in records[:-1]]
    assert all(r["word"] == "apple" and r["timestamp"] == "2017-03-08 21:12:07 UTC" for r in ours)
    quarantined = [json.loads(line) for line in open(tmp_path / "out.rejected.ndjson")]
    assert len(quarantined) == 1 and quarantined[0]["reason"].startswith(f"record at byte offset {len(pack_bin(records[:-1]))}: truncated")
    assert "rejected 1" in result.stdout


def test_a_bin_on_stdin_needs_a_category(sketchprep, tmp_path):
    data = pack_bin(simplified_records("apple"))
    refused = subprocess.run([str(sketchprep), "convert", "-", "--to", "ndjson", "-o", str(tmp_path / "a"), "-q"],
                             input=data, capture_output=True)
    assert refused.returncode != 0 and b"--word" in refused.stderr
    accepted = subprocess.run([str(sketchprep), "convert", "-", "--word", "apple", "--to", "ndjson", "-o", str(tmp_path / "b"), "-q"],
                              input=data, capture_output=True)
    assert accepted.returncode == 0, accepted.stderr
    assert len(open(tmp_path / "b" / "apple.ndjson").readlines()) == len(simplified_records("apple"))


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def sketch_rnn_split(key_id):
    """The one split rule with sketch-rnn's 28 : 1 : 1 shares (basis points 9,333 / 333 / 334)."""
    bucket = fnv1a64(key_id) % 10_000
    return "train" if bucket < 9333 else "valid" if bucket < 9666 else "test"


def stroke3_drawing(sketch):
    points = np.cumsum(sketch[:, :2].astype(np.int64), axis=0)
    ends = np.flatnonzero(sketch[:, 2]) + 1
    return [[points[a:b, 0].tolist(), points[a:b, 1].tolist()] for a, b in zip(np.r_[0, ends[:-1]], ends)]


def test_our_stroke3_npz_loads_like_sketch_rnn_data_and_cumsums_give_the_simplified_points(sketchprep, tmp_path):
    sizes = {"train": 20, "valid": 2, "test": 3}
    convert(sketchprep, [SIMPLIFIED], "stroke3", tmp_path, "--stroke3-sizes", "20/2/3")
    for word in ["cat", "apple", "The Eiffel Tower"]:
        data = np.load(tmp_path / f"{word}.npz", encoding="latin1", allow_pickle=True)
        assert sorted(data.files) == ["test", "train", "valid"]
        records = simplified_records(word)
        for split in ["train", "valid", "test"]:
            members = [r for r in records if sketch_rnn_split(r["key_id"]) == split]
            assert len(data[split]) == min(sizes[split], len(members))
            for sketch in data[split]:
                assert sketch.dtype == np.int16 and sketch.ndim == 2 and sketch.shape[1] == 3
                assert any(stroke3_drawing(sketch) == r["drawing"] for r in members)


def test_published_sketch_rnn_files_convert_back_to_equal_arrays(sketchprep, tmp_path):
    convert(sketchprep, [SKETCHRNN], "stroke3", tmp_path)
    for name in ["omniglot", "short_kanji"]:
        theirs = np.load(SKETCHRNN / f"{name}.npz", encoding="latin1", allow_pickle=True)
        ours = np.load(tmp_path / f"{name}.npz", encoding="latin1", allow_pickle=True)
        for split in ["train", "valid", "test"]:
            assert len(ours[split]) == len(theirs[split])
            assert all(a.dtype == np.int16 and np.array_equal(a, b) for a, b in zip(ours[split], theirs[split]))


@pytest.mark.parametrize("protocol,dtype", [(2, np.int16), (3, np.int32), (4, np.float64), (5, np.int16)])
def test_numpy_written_npz_of_every_protocol_and_element_type_is_read(sketchprep, tmp_path, protocol, dtype):
    arrays = {}
    rng = np.random.default_rng(protocol)
    for split, count in [("train", 5), ("valid", 1), ("test", 2)]:
        objects = np.empty(count, dtype=object)
        for i in range(count):
            sketch = rng.integers(-50, 50, size=(rng.integers(1, 30), 3))
            sketch[:, 2] = rng.integers(0, 2, size=len(sketch))
            sketch[-1, 2] = 1
            objects[i] = sketch.astype(dtype)
        arrays[split] = objects
    path = tmp_path / "in" / "made.npz"
    path.parent.mkdir()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for split, objects in arrays.items():
            with archive.open(f"{split}.npy", "w") as entry:
                # What np.save writes, with the pickle protocol chosen (np.save itself always uses 4).
                np.lib.format.write_array_header_1_0(entry, np.lib.format.header_data_from_array_1_0(objects))
                pickle.dump(objects, entry, protocol=protocol)
    convert(sketchprep, [path], "stroke3", tmp_path / "out")
    ours = np.load(tmp_path / "out" / "made.npz", encoding="latin1", allow_pickle=True)
    for split, objects in arrays.items():
        assert all(np.array_equal(a, b) for a, b in zip(ours[split], objects)) and len(ours[split]) == len(objects)


def test_a_pickle_outside_the_numpy_subset_is_refused(sketchprep, tmp_path):
    path = tmp_path / "evil.npz"
    payload = pickle.dumps(os.system, protocol=2)  # names posix.system
    header = np.lib.format.header_data_from_array_1_0(np.empty(1, dtype=object))
    with zipfile.ZipFile(path, "w") as archive:
        with archive.open("train.npy", "w") as entry:
            np.lib.format.write_array_header_1_0(entry, header)
            entry.write(payload)
    result = subprocess.run([str(sketchprep), "convert", str(path), "--to", "stroke3", "-o", str(tmp_path / "out")],
                            capture_output=True, text=True)
    assert "is not allowed" in result.stderr
    assert json.loads((tmp_path / "out.rejected.ndjson").read_text())["source_error"] == str(path)
    assert not (tmp_path / "out" / "evil.npz").exists()


def test_convert_output_is_byte_identical_across_runs(sketchprep, tmp_path):
    for run in ["a", "b"]:
        convert(sketchprep, [SHARED / "quickdraw" / "raw" / "cat.ndjson"], "stroke3", tmp_path / run)
    assert (tmp_path / "a" / "cat.npz").read_bytes() == (tmp_path / "b" / "cat.npz").read_bytes()


def test_a_file_of_no_known_format_is_a_source_error_and_the_run_goes_on(sketchprep, tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n")
    result = subprocess.run([str(sketchprep), "convert", str(tmp_path / "notes.txt"), str(SIMPLIFIED / "cat.ndjson"),
                             "--to", "bin", "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "cannot tell the format of" in result.stderr
    quarantined = [json.loads(line) for line in open(tmp_path / "out.rejected.ndjson")]
    assert [q["source_error"] for q in quarantined] == [str(tmp_path / "notes.txt")]
    assert "1 source errors" in result.stdout
    assert (tmp_path / "out" / "cat.bin").exists()
