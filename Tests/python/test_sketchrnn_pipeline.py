"""The sketch-rnn pipeline (encode.kind: stroke3, output.format: npz): one <word>.npz per class
that sketch-rnn's loader reads, the one split rule shared with NPY datasets and `convert`, the
same bytes for every --jobs and for partitions + merge, and stroke-3 input kept in place."""
import json
import shutil
import subprocess

import numpy as np

from conftest import REPO, SHARED
from test_formats import sketch_rnn_split, stroke3_drawing

PIPELINE = REPO / "Pipelines" / "quickdraw-sketchrnn.yaml"
SIMPLIFIED = SHARED / "quickdraw" / "simplified"
WORDS = ["apple", "cat", "The Eiffel Tower"]


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def simplified_inputs(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for word in WORDS:
        shutil.copy(SIMPLIFIED / f"{word}.ndjson", inputs)
    return inputs


def records(word):
    return [json.loads(line) for line in open(SIMPLIFIED / f"{word}.ndjson") if line.strip()]


def test_the_npz_loads_as_sketch_rnn_data_and_cumulative_sums_give_the_simplified_points(sketchprep, tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("source: {kind: quickdraw-ndjson, format: simplified}\nencode: {kind: stroke3}\noutput: {format: npz}\n")
    run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", simplified_inputs(tmp_path), "-o", tmp_path / "out", "-q")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert sorted(entry["file"] for entry in manifest["shards"]) == sorted(f"{w}.npz" for w in WORDS)
    assert all("split" not in entry for entry in manifest["shards"])
    for word in WORDS:
        data = np.load(tmp_path / "out" / f"{word}.npz", encoding="latin1", allow_pickle=True)
        assert sorted(data.files) == ["test", "train", "valid"]
        by_drawing = {json.dumps(r["drawing"]): r["key_id"] for r in records(word)}
        placed = 0
        for split in ["train", "valid", "test"]:
            for sketch in data[split]:
                assert sketch.dtype == np.int16 and sketch.ndim == 2 and sketch.shape[1] == 3
                key = by_drawing[json.dumps(stroke3_drawing(sketch))]
                assert sketch_rnn_split(key) == split  # the one split rule, 28 : 1 : 1 shares
                placed += 1
        assert placed == len(records(word))  # fewer than Magenta's sizes: every drawing is kept
    run(sketchprep, "verify", tmp_path / "out")


def test_a_drawing_is_in_the_same_split_in_the_npz_the_npy_dataset_and_convert(sketchprep, tmp_path):
    inputs = simplified_inputs(tmp_path)
    split = "split: {train: 93.33, val: 3.33, test: 3.34}\n"
    (tmp_path / "npz.yaml").write_text("source: {kind: quickdraw-ndjson}\nencode: {kind: stroke3}\noutput: {format: npz}\n" + split)
    (tmp_path / "npy.yaml").write_text("source: {kind: quickdraw-ndjson}\nencode: {kind: strokes}\n" + split)
    run(sketchprep, "preprocess", "--pipeline", tmp_path / "npz.yaml", "--input", inputs, "-o", tmp_path / "npz", "-q")
    run(sketchprep, "preprocess", "--pipeline", tmp_path / "npy.yaml", "--input", inputs, "-o", tmp_path / "npy", "-q")
    run(sketchprep, "convert", inputs, "--to", "stroke3", "-o", tmp_path / "convert", "-q")
    npy_split = {}
    for split in ["train", "val", "test"]:
        for keys in (tmp_path / "npy").glob(f"{split}-*.keys.txt"):
            for key in keys.read_text().split():
                npy_split[key] = {"val": "valid"}.get(split, split)
    for word in WORDS:
        by_drawing = {json.dumps(r["drawing"]): r["key_id"] for r in records(word)}
        pipeline = np.load(tmp_path / "npz" / f"{word}.npz", encoding="latin1", allow_pickle=True)
        converted = np.load(tmp_path / "convert" / f"{word}.npz", encoding="latin1", allow_pickle=True)
        for split in ["train", "valid", "test"]:
            keys = [by_drawing[json.dumps(stroke3_drawing(s))] for s in pipeline[split]]
            assert all(npy_split[k] == split for k in keys)
            assert [by_drawing[json.dumps(stroke3_drawing(s))] for s in converted[split]] == keys
        # One rule for .npz bytes: the same arrays give the same file from the pipeline and from convert.
        assert (tmp_path / "npz" / f"{word}.npz").read_bytes() == (tmp_path / "convert" / f"{word}.npz").read_bytes()


def test_npz_bytes_are_the_same_for_every_job_count_and_for_partitions_and_merge(sketchprep, tmp_path):
    inputs = simplified_inputs(tmp_path)
    run(sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", inputs, "-o", tmp_path / "j1", "--jobs", 1, "-q")
    run(sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", inputs, "-o", tmp_path / "j2", "--jobs", 2, "-q")
    for i in range(2):
        run(sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", inputs, "-o", tmp_path / f"part{i}", "--partition", f"{i}/2", "-q")
    run(sketchprep, "merge", tmp_path / "part0", tmp_path / "part1", "-o", tmp_path / "merged", "-q")
    for name in [f"{w}.npz" for w in WORDS] + ["manifest.json", "classes.txt"]:
        one = (tmp_path / "j1" / name).read_bytes()
        assert one == (tmp_path / "j2" / name).read_bytes() == (tmp_path / "merged" / name).read_bytes(), name


def test_stroke3_input_keeps_its_splits_and_order(sketchprep, tmp_path):
    shutil.copy(SHARED / "sketchrnn" / "short_kanji.npz", tmp_path / "kanji.npz")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("source: {kind: quickdraw-ndjson, format: simplified}\nencode: {kind: stroke3}\n"
                        "output: {format: npz}\nsplit: {counts: {train: 100000, val: 100000, test: 100000}}\n")
    run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", tmp_path / "kanji.npz", "-o", tmp_path / "out", "-q")
    original = np.load(tmp_path / "kanji.npz", encoding="latin1", allow_pickle=True)
    written = np.load(tmp_path / "out" / "kanji.npz", encoding="latin1", allow_pickle=True)
    for split in ["train", "valid", "test"]:
        assert len(original[split]) == len(written[split])
        assert all(np.array_equal(a.astype(np.int64), b.astype(np.int64)) for a, b in zip(original[split], written[split]))
