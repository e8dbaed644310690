"""The loaders read what `sketchprep preprocess` just wrote: equal to reading every shard by hand
with numpy, in shard order, checked against the manifest (missing, resized or altered shards and
unsafe paths fail loudly), with clear errors for unknown splits and dataset kinds."""
import json
import pickle
import shutil
import zipfile

import numpy as np
import pytest

import sketchprep
from sketchprep import DatasetError


@pytest.fixture(scope="session")
def datasets(fixtures):
    return fixtures / "datasets"


def shard_stems(directory, split):
    return sorted(p.name[: -len(".x.npy")] for p in directory.glob(f"{split}-*.x.npy"))


def by_hand(directory, split):
    stems = shard_stems(directory, split)
    x = np.concatenate([np.load(directory / f"{s}.x.npy") for s in stems])
    y = np.concatenate([np.load(directory / f"{s}.y.npy") for s in stems])
    keys = [k for s in stems for k in (directory / f"{s}.keys.txt").read_text().splitlines()]
    return x, y, keys


def copy_of(datasets, name, tmp_path):
    target = tmp_path / name
    shutil.copytree(datasets / name, target)
    return target


def test_load_split_reads_an_image_folder_equal_to_the_npy_dataset_of_the_same_run(datasets):
    for split in ("train", "val", "test"):
        expected = sketchprep.load_split(datasets / "quickdraw-bitmap28", split)
        got = sketchprep.load_split(datasets / "quickdraw-bitmap28-imagefolder", split, verify=True)
        assert got.keys == expected.keys and np.array_equal(got.y, expected.y)
        assert got.x.dtype == expected.x.dtype and np.array_equal(got.x, expected.x)
        normalized = sketchprep.load_split(datasets / "quickdraw-bitmap28-imagefolder", split, normalize=True)
        assert np.array_equal(normalized.x, sketchprep.load_split(datasets / "quickdraw-bitmap28", split, normalize=True).x)


@pytest.mark.parametrize("name", ["quickdraw-rnn", "quickdraw-bitmap28"])
def test_load_split_equals_reading_every_shard_by_hand(datasets, name):
    directory = datasets / name
    total = 0
    for split in ("train", "val", "test"):
        x, y, keys = sketchprep.load_split(directory, split)
        ex, ey, ekeys = by_hand(directory, split)
        assert x.dtype == ex.dtype and x.tobytes() == ex.tobytes() and x.shape == ex.shape
        assert y.dtype == np.int32 and np.array_equal(y, ey) and keys == ekeys
        xm, ym, km = sketchprep.load_split(directory, split, mmap=True)
        assert np.array_equal(np.concatenate(xm), x) and np.array_equal(np.concatenate(ym), y) and km == keys
        total += len(keys)
    assert total == json.loads((directory / "manifest.json").read_text())["records"]["written"] > 0
    assert sketchprep.classes(directory) == (directory / "classes.txt").read_text().splitlines()


def test_normalize_applies_the_manifests_unit_scale(datasets):
    directory = datasets / "quickdraw-bitmap28"
    stored = sketchprep.load_split(directory, "train").x
    units = sketchprep.load_split(directory, "train", normalize=True).x
    assert stored.dtype == np.uint8 and units.dtype == np.float32
    assert units.tobytes() == (stored.astype(np.float32) / np.float32(255)).tobytes()
    strokes = datasets / "quickdraw-rnn"
    assert sketchprep.load_split(strokes, "val", normalize=True).x.tobytes() == sketchprep.load_split(strokes, "val").x.tobytes()


def test_shard_dataset_follows_the_map_style_dataloader_protocol(datasets):
    directory = datasets / "quickdraw-bitmap28"
    x, y, keys = sketchprep.load_split(directory, "train", normalize=True)
    dataset = sketchprep.ShardDataset(directory, "train", normalize=True)
    assert len(dataset) == len(x) and dataset.keys == keys
    # What torch.utils.data.DataLoader does with a map-style dataset: len(), then dataset[i]
    # for sampled integer indices in (possibly pickled) worker copies, then collate.
    worker_copy = pickle.loads(pickle.dumps(dataset))
    order = np.random.default_rng(0).permutation(len(dataset))
    for start in range(0, len(order), 32):
        items = [worker_copy[int(i)] for i in order[start:start + 32]]
        features = np.stack([item[0] for item in items])
        labels = np.array([item[1] for item in items])
        assert np.array_equal(features, x[order[start:start + 32]]) and np.array_equal(labels, y[order[start:start + 32]])
    example, label = dataset[-1]
    assert np.array_equal(example, x[-1]) and label == y[-1] and isinstance(label, int)
    with pytest.raises(IndexError):
        dataset[len(dataset)]
    with pytest.raises(TypeError):
        dataset["0"]


def test_unknown_split_names_the_valid_splits(datasets):
    with pytest.raises(DatasetError, match="unknown split 'validation'; valid splits: train, val, test"):
        sketchprep.load_split(datasets / "quickdraw-rnn", "validation")
    with pytest.raises(DatasetError, match="valid splits: train, valid, test"):
        sketchprep.load_stroke3(datasets / "quickdraw-sketchrnn", "dev")


def test_a_loader_names_the_dataset_kind_it_does_not_read(datasets):
    with pytest.raises(DatasetError, match="npz/stroke3 dataset .*load_stroke3"):
        sketchprep.load_split(datasets / "quickdraw-sketchrnn", "train")
    with pytest.raises(DatasetError, match="tfrecord/strokes dataset .*tf_dataset"):
        sketchprep.ShardDataset(datasets / "quickdraw-rnn-tfrecord", "train")
    with pytest.raises(DatasetError, match="npy/strokes dataset"):
        sketchprep.tf_dataset(datasets / "quickdraw-rnn", "train")
    with pytest.raises(DatasetError, match="npy/raster dataset"):
        sketchprep.load_stroke3(datasets / "quickdraw-bitmap28", "train")


def test_missing_resized_and_altered_shards_fail_loudly(datasets, tmp_path):
    directory = copy_of(datasets, "quickdraw-rnn", tmp_path)
    shard = directory / f"{shard_stems(directory, 'train')[0]}.x.npy"
    data = bytearray(shard.read_bytes())
    data[-1] ^= 1
    shard.write_bytes(bytes(data))
    sketchprep.load_split(directory, "train")  # same size: only the hash can tell
    with pytest.raises(DatasetError, match="sha256 mismatch"):
        sketchprep.load_split(directory, "train", verify=True)
    shard.write_bytes(bytes(data[:-4]))
    with pytest.raises(DatasetError, match="size mismatch"):
        sketchprep.load_split(directory, "train")
    shard.unlink()
    with pytest.raises(DatasetError, match="missing"):
        sketchprep.ShardDataset(directory, "train")


# The loaders refuse a shard name as `sketchprep info` and `verify` do (Manifest.invalidFields, DirectoryMember):
# a backslash is an ordinary character of a POSIX file name, so `a\..\b.x.npy` is a plain name, of a file that is not there.
@pytest.mark.parametrize("name, reason", [
    ("../outside.x.npy", r"shards\[0\]\.file: .* has an empty, `\.` or `\.\.` component"),
    ("/etc/passwd", r"shards\[0\]\.file: .* is an absolute path"),
    ("sub/../../x.npy", r"shards\[0\]\.file: .* has an empty, `\.` or `\.\.` component"),
    ("", r"shards\[0\]\.file: .* is empty"),
    ("a\\..\\b.x.npy", r"a\\\.\.\\b\.x\.npy: missing: listed in the manifest but not present"),
])
def test_manifest_paths_must_stay_inside_the_directory(datasets, tmp_path, name, reason):
    directory = copy_of(datasets, "quickdraw-rnn", tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["shards"][0]["file"] = name
    (directory / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match=reason):
        sketchprep.load_split(directory, manifest["shards"][0]["split"])


def test_an_empty_split_gives_zero_examples_of_the_dataset_shape(datasets, tmp_path):
    directory = copy_of(datasets, "quickdraw-rnn", tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["shards"] = [entry for entry in manifest["shards"] if entry["split"] != "test"]
    (directory / "manifest.json").write_text(json.dumps(manifest))
    x, y, keys = sketchprep.load_split(directory, "test")
    assert x.shape == (0, 75, 3) and x.dtype == np.float32 and y.shape == (0,) and keys == []


def test_load_stroke3_equals_numpys_pickle_reading(datasets):
    directory = datasets / "quickdraw-sketchrnn"
    words = sketchprep.classes(directory)
    for split in ("train", "valid", "test"):
        loaded = sketchprep.load_stroke3(directory, split)
        expected = [(label, array) for label, word in enumerate(words)
                    for array in np.load(directory / f"{word}.npz", encoding="latin1", allow_pickle=True)[split]]
        assert loaded.classes == words and len(loaded.strokes) == len(expected)
        for (label, array), got, got_label in zip(expected, loaded.strokes, loaded.labels):
            assert got.dtype == np.int16 and np.array_equal(got, array) and got_label == label
    assert len(sketchprep.load_stroke3(directory, "val").strokes) == len(sketchprep.load_stroke3(directory, "valid").strokes)


def test_load_stroke3_reads_the_flat_layout(datasets, tmp_path):
    directory = copy_of(datasets, "quickdraw-sketchrnn", tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    expected = {}
    for entry in manifest["shards"]:
        path = directory / entry["file"]
        arrays = np.load(path, encoding="latin1", allow_pickle=True)
        flat = {}
        for split in ("train", "valid", "test"):
            items = list(arrays[split])
            expected.setdefault(split, {})[entry["file"]] = items
            flat[f"{split}_points"] = np.concatenate(items) if items else np.zeros((0, 3), np.int16)
            flat[f"{split}_offsets"] = np.concatenate([[0], np.cumsum([len(a) for a in items])]).astype(np.int64)
        np.savez(path, **flat)
        entry["bytes"] = path.stat().st_size
    (directory / "manifest.json").write_text(json.dumps(manifest))
    for split in ("train", "valid", "test"):
        loaded = sketchprep.load_stroke3(directory, split)
        reference = [a for word in loaded.classes for a in expected[split][f"{word}.npz"]]
        assert len(loaded.strokes) == len(reference)
        assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(loaded.strokes, reference))


class _Exploit:
    def __reduce__(self):
        return (print, ("pickle payload ran",))


def test_a_stroke3_file_with_foreign_pickle_globals_is_refused(datasets, tmp_path, capsys):
    directory = copy_of(datasets, "quickdraw-sketchrnn", tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    entry = manifest["shards"][0]
    path = directory / entry["file"]
    payload = np.array([_Exploit()], dtype=object)
    with zipfile.ZipFile(path, "w") as archive:
        for split in ("train", "valid", "test"):
            with archive.open(f"{split}.npy", "w") as member:
                np.lib.format.write_array(member, payload, allow_pickle=True)
    entry["bytes"] = path.stat().st_size
    (directory / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match="not allowed"):
        sketchprep.load_stroke3(directory, "train")
    assert "pickle payload ran" not in capsys.readouterr().out


@pytest.mark.parametrize("name", ["quickdraw-rnn", "quickdraw-rnn-tfrecord", "quickdraw-sketchrnn"])
def test_info_returns_what_the_cli_reports_for_the_dataset(datasets, name):
    # scripts/dev/test-wheel.sh unsets SKETCHPREP_BIN: info() runs the CLI bundled in the wheel.
    manifest = sketchprep.manifest(datasets / name)
    info = sketchprep.info(datasets / name)
    assert info["classes"] == sketchprep.classes(datasets / name)
    assert info["pipeline"] == name and info["sources"] == manifest["sources"]
    assert {s["split"]: s["examples"] for s in info["splits"]} == {k: v["total"] for k, v in manifest["counts"].items()}
