"""Stroke-3 values kept exactly (float64 input stays float64 through `convert` and the sketch-rnn
pipeline; int16 quantization rounds positions, never accumulates, and quarantines what does not
fit) and the pickle-free flat layout, which numpy opens with its default allow_pickle=False."""
import json
import subprocess

import numpy as np

from conftest import SHARED

SHORT_KANJI = SHARED / "sketchrnn" / "short_kanji.npz"
SPLITS = ["train", "valid", "test"]


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def object_array(sketches):
    array = np.empty(len(sketches), dtype=object)
    array[:] = sketches
    return array


def float64_file(path, seed=7):
    """A float64 file laid out like the published kanji.rdp100.npz: object arrays of (n, 3)
    float64 rows whose deltas have fractional parts (their float sums do not give them back)."""
    rng = np.random.default_rng(seed)

    def sketches(count):
        result = []
        for _ in range(count):
            rows = int(rng.integers(3, 40))
            sketch = np.zeros((rows, 3))
            sketch[:, :2] = np.round(rng.normal(0, 25, (rows, 2)), 4)
            sketch[:, 2] = rng.random(rows) < 0.2
            sketch[-1, 2] = 1
            result.append(sketch)
        return object_array(result)

    np.savez(path, train=sketches(40), valid=sketches(4), test=sketches(4))
    return path


def load_pickled(path):
    data = np.load(path, encoding="latin1", allow_pickle=True)
    return {split: list(data[split]) for split in SPLITS}


def load_flat(path):
    data = np.load(path)  # numpy's default: allow_pickle=False
    result = {}
    for split in SPLITS:
        points, offsets = data[f"{split}_points"], data[f"{split}_offsets"]
        assert offsets.dtype == np.int64 and offsets.ndim == 1 and points.ndim == 2 and points.shape[1] == 3
        result[split] = [points[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
    return result


def assert_same(expected, actual, dtype):
    for split in SPLITS:
        assert len(expected[split]) == len(actual[split])
        for a, b in zip(expected[split], actual[split]):
            assert b.dtype == dtype and np.array_equal(a, b)


def test_convert_keeps_float64_stroke3_exactly_in_both_layouts_and_reads_the_flat_file_back(sketchprep, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    original = load_pickled(float64_file(source / "kanji.npz"))
    run(sketchprep, "convert", source, "--to", "stroke3", "-o", tmp_path / "pickled", "-q")
    run(sketchprep, "convert", source, "--to", "stroke3", "--layout", "flat", "-o", tmp_path / "flat", "-q")
    assert_same(original, load_pickled(tmp_path / "pickled" / "kanji.npz"), np.float64)
    assert_same(original, load_flat(tmp_path / "flat" / "kanji.npz"), np.float64)
    run(sketchprep, "convert", tmp_path / "flat", "--to", "stroke3", "-o", tmp_path / "back", "-q")
    assert (tmp_path / "back" / "kanji.npz").read_bytes() == (tmp_path / "pickled" / "kanji.npz").read_bytes()


def test_flat_layout_holds_the_published_int16_file_in_the_same_order(sketchprep, tmp_path):
    run(sketchprep, "convert", SHORT_KANJI, "--to", "stroke3", "--layout", "flat", "-o", tmp_path, "-q")
    assert_same(load_pickled(SHORT_KANJI), load_flat(tmp_path / "short_kanji.npz"), np.int16)


def test_int16_on_request_rounds_positions_so_error_never_accumulates_and_says_so(sketchprep, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    steps = np.zeros((10, 3))
    steps[:, :2] = 0.4  # truncating each delta would give 0 everywhere; rounding deltas 0, summing 4.0 to 0
    steps[-1, 2] = 1
    original = load_pickled(float64_file(source / "kanji.npz"))
    original["train"][0] = steps
    np.savez(source / "kanji.npz", **{split: object_array(original[split]) for split in SPLITS})
    result = run(sketchprep, "convert", source, "--to", "stroke3", "--stroke3-dtype", "int16", "-o", tmp_path / "out")
    assert "48 float64 drawings rounded to int16" in result.stdout
    written = load_pickled(tmp_path / "out" / "kanji.npz")
    for split in SPLITS:
        for a, b in zip(original[split], written[split]):
            assert b.dtype == np.int16
            assert np.array_equal(np.cumsum(b[:, :2], axis=0), np.round(np.cumsum(a[:, :2], axis=0)))
    assert np.cumsum(written["train"][0][:, 0]).tolist() == [0, 1, 1, 2, 2, 2, 3, 3, 4, 4]


def test_values_beyond_int16_are_quarantined_with_a_reason_and_the_rest_written(sketchprep, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    fine = np.array([[1.5, 2.0, 0], [3.0, -1.0, 1]])
    far = np.array([[40000.0, 0, 0], [-1.0, 0, 1]])  # a first delta of 40,000 does not fit int16
    np.savez(source / "w.npz", train=object_array([fine, far]), valid=object_array([]), test=object_array([]))
    quarantine = tmp_path / "rejected.ndjson"
    result = run(sketchprep, "convert", source, "--to", "stroke3", "--stroke3-dtype", "int16", "-o", tmp_path / "out",
                 "--quarantine", quarantine)
    assert "rejected 1" in result.stdout
    assert "w.npz#train#1" in quarantine.read_text() and "outside int16" in result.stderr
    assert len(load_pickled(tmp_path / "out" / "w.npz")["train"]) == 1


def test_the_sketch_rnn_pipeline_keeps_float64_and_writes_the_flat_layout_the_same_for_any_jobs(sketchprep, tmp_path):
    source = float64_file(tmp_path / "kanji.npz")
    original = load_pickled(source)
    outputs = {}
    for layout in ["standard", "flat"]:
        pipeline = tmp_path / f"{layout}.yaml"
        pipeline.write_text("source: {kind: quickdraw-ndjson, format: simplified}\nencode: {kind: stroke3}\n"
                            f"output: {{format: npz, layout: {layout}}}\n")
        for jobs in [1, 2]:
            out = tmp_path / f"{layout}-{jobs}"
            run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", source, "-o", out, "--jobs", jobs, "-q")
            outputs[layout, jobs] = (out / "kanji.npz").read_bytes()
        assert outputs[layout, 1] == outputs[layout, 2]
        # One rule for .npz bytes: convert writes the same file for the same arrays.
        run(sketchprep, "convert", source, "--to", "stroke3", "--layout", layout, "-o", tmp_path / f"convert-{layout}", "-q")
        assert (tmp_path / f"convert-{layout}" / "kanji.npz").read_bytes() == outputs[layout, 1]
    assert_same(original, load_pickled(tmp_path / "standard-1" / "kanji.npz"), np.float64)
    assert_same(original, load_flat(tmp_path / "flat-1" / "kanji.npz"), np.float64)
    run(sketchprep, "verify", tmp_path / "flat-1")


def test_a_class_mixing_float64_and_int16_drawings_is_written_as_float64_in_both_layouts(sketchprep, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    original = load_pickled(float64_file(source / "kanji.npz"))
    drawings = [[[[0, 10, 25], [5, 5, 40]]], [[[3, 3], [0, 90]], [[50], [60]]]]
    with open(source / "more.ndjson", "w") as lines:
        for index, drawing in enumerate(drawings):
            record = {"word": "kanji", "countrycode": "US", "timestamp": "2017-01-01 00:00:00.00000 UTC",
                      "recognized": True, "key_id": f"{index}", "drawing": drawing}
            lines.write(json.dumps(record) + "\n")
    expected = [sketch for split in SPLITS for sketch in original[split]] + [stroke3_rows(d) for d in drawings]
    for layout in ["standard", "flat"]:
        pipeline = tmp_path / f"{layout}.yaml"
        pipeline.write_text("source: {kind: quickdraw-ndjson, format: simplified}\nencode: {kind: stroke3}\n"
                            f"output: {{format: npz, layout: {layout}}}\n")
        out = tmp_path / layout
        run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", source, "-o", out, "-q")
        written = (load_pickled if layout == "standard" else load_flat)(out / "kanji.npz")
        sketches = [sketch for split in SPLITS for sketch in written[split]]
        assert all(sketch.dtype == np.float64 for sketch in sketches)
        assert sorted(s.tobytes() for s in sketches) == sorted(np.asarray(e, dtype=np.float64).tobytes() for e in expected)


def stroke3_rows(drawing):
    """sketch-rnn's stroke-3 rows of a simplified drawing: deltas, pen lifted on each stroke's last point."""
    rows, previous = [], (0, 0)
    for xs, ys in drawing:
        for index, point in enumerate(zip(xs, ys)):
            rows.append([point[0] - previous[0], point[1] - previous[1], 1 if index == len(xs) - 1 else 0])
            previous = point
    return rows
