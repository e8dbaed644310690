"""The Python API over the same native code as the CLI: `read` gives the CLI's drawings for every
shared input format and lists rejected records, `bitmap` gives Google's official bitmaps byte for
byte, `preprocess` writes the CLI's bytes and returns the manifest, `verify`, `info` and `parity`
return their `--report-json`, the CLI's errors arrive as exceptions, and the Python examples of
README.md and docs/python.md run."""
import json
import os
import pathlib
import pickle
import re

import numpy as np
import pytest

import sketchprep
from sketchprep import CommandError, DatasetError, DrawingError, SketchPrepError

import run_examples

REPO = pathlib.Path(__file__).resolve().parents[3]
BITMAP_CLASSES = ["apple", "bicycle", "bowtie", "cat", "diamond", "eye", "fish", "lollipop", "rainbow"]


def read_json_lines(directory):
    records = []
    for path in sorted(pathlib.Path(directory).glob("*.ndjson")):
        records += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return records


def read_cases(fixtures):
    listed = fixtures / "read" / "read.json"
    return json.loads(listed.read_text()) if listed.is_file() else {}


def pytest_generate_tests(metafunc):
    if "read_case" in metafunc.fixturenames:
        from conftest import FIXTURES
        metafunc.parametrize("read_case", sorted(read_cases(FIXTURES)) or [None])


def test_read_gives_the_clis_drawings_for_every_shared_format(fixtures, read_case):
    if read_case is None:
        pytest.fail("no read fixtures: run Tests/python/package/make_fixtures.py (make test does)")
    case = read_cases(fixtures)[read_case]
    converted = fixtures / "read" / read_case / "converted"
    expected = {(r["word"], r["key_id"]): r for r in read_json_lines(converted)}
    reader = sketchprep.read(case["inputs"], format=case["format"])
    ours = {}
    for drawing in reader:
        assert all(stroke.dtype == np.float64 and stroke.shape[0] in (2, 3) for stroke in drawing.strokes)
        key = (drawing.word, drawing.key_id)
        if key in expected and len(expected[key]["drawing"][0]) == 3:
            strokes = [stroke.tolist() for stroke in drawing.strokes]  # convert keeps SVG's raw strokes, times and all
        else:
            try:
                strokes = sketchprep.simplify(drawing.strokes)
            except DrawingError:
                continue  # the CLI quarantines it too: the keys below compare
        ours[key] = {"word": drawing.word, "countrycode": drawing.countrycode, "timestamp": drawing.timestamp,
                     "recognized": drawing.recognized, "key_id": drawing.key_id, "drawing": strokes}
    assert len(expected) > 0 and reader.read >= len(expected)
    assert sorted(ours) == sorted(expected)
    for key, record in expected.items():
        assert ours[key] == {name: record[name] for name in ours[key]}, key


def test_raw_drawings_keep_their_times_and_simplified_ones_have_none(quickdraw):
    raw = next(iter(sketchprep.read(quickdraw / "raw" / "cat.ndjson")))
    first = json.loads((quickdraw / "raw" / "cat.ndjson").read_text().splitlines()[0])
    assert raw.key_id == first["key_id"] and raw.recognized == first["recognized"]
    assert [stroke.tolist() for stroke in raw.strokes] == first["drawing"]
    simplified = next(iter(sketchprep.read(quickdraw / "simplified" / "cat.ndjson")))
    assert all(stroke.shape[0] == 2 for stroke in simplified.strokes)


def test_a_batch_mixing_timed_untimed_and_partly_timed_drawings_keeps_each_drawings_times(tmp_path):
    def line(key, strokes):
        return json.dumps({"word": "cat", "countrycode": "US", "timestamp": "t", "recognized": True, "key_id": key,
                           "drawing": strokes})

    drawings = {"untimed": [[[1, 2], [3, 4]]],
                "timed": [[[5, 6, 7], [8, 9, 10], [0, 16, 40]], [[11], [12], [55]]],
                "partly": [[[1.5, 2], [3, 4]], [[5, 6], [7, 8], [0, 9]]],
                "timed again": [[[20, 21], [22, 23], [100, 130]]]}
    path = tmp_path / "times.ndjson"
    path.write_text("".join(line(key, strokes) + "\n" for key, strokes in drawings.items()))
    read = {drawing.key_id: [stroke.tolist() for stroke in drawing.strokes] for drawing in sketchprep.read(path)}
    # A drawing has times only when every stroke has them; the others give x and y alone.
    assert read == {key: strokes if all(len(stroke) == 3 for stroke in strokes) else [stroke[:2] for stroke in strokes]
                    for key, strokes in drawings.items()}


def test_rejected_records_are_listed_with_file_line_and_reason_unless_strict(quickdraw, tmp_path):
    good = (quickdraw / "simplified" / "cat.ndjson").read_text().splitlines()[0]
    path = tmp_path / "mixed.ndjson"
    path.write_text(f"{good}\n{{\"word\": \"cat\"}}\n{good}\n")
    seen = []
    reader = sketchprep.read(path, on_rejected=seen.append)
    assert len(list(reader)) == 2
    assert len(reader.rejected) == 1 and reader.rejected == seen
    assert reader.rejected[0].file == str(path) and reader.rejected[0].line == 2 and reader.rejected[0].reason
    with pytest.raises(DrawingError, match=f"{re.escape(str(path))}:2: "):
        list(sketchprep.read(path, strict=True))


def test_read_refuses_a_missing_input_and_an_unknown_format_with_the_clis_words(tmp_path):
    with pytest.raises(SketchPrepError, match="missing.ndjson"):
        list(sketchprep.read(tmp_path / "missing.ndjson"))
    with pytest.raises(SketchPrepError, match="unknown format"):
        sketchprep.read(tmp_path, format="jpeg")


def test_a_reader_stopped_early_ends_its_read_and_hands_out_no_more(quickdraw):
    reader = sketchprep.read(quickdraw / "raw", batch_size=16)
    for count, _ in enumerate(reader, 1):
        if count == 20:
            break
    assert reader.read == 20


def read_everything(paths, **options):
    """Every drawing a reader hands out, field by field, and its rejections, in order."""
    reader = sketchprep.read(paths, **options)
    drawings = [(d.word, d.key_id, d.countrycode, d.timestamp, d.recognized, [s.tolist() for s in d.strokes])
                for d in reader]
    return drawings, reader.rejected


def test_read_hands_out_the_same_drawings_and_rejections_in_order_for_any_jobs_and_batch_size(quickdraw, tmp_path):
    lines = (quickdraw / "simplified" / "cat.ndjson").read_text().splitlines()
    lines = lines * (2100 // len(lines) + 1)  # several engine batches of 1,024 lines
    lines[700] = '{"word": "cat"}'
    lines[1500] = lines[1500][:-9]
    (tmp_path / "long.ndjson").write_text("\n".join(lines) + "\n")
    paths = [quickdraw / "raw", tmp_path / "long.ndjson", quickdraw / "simplified" / "bicycle.ndjson"]
    expected, rejected = read_everything(paths, jobs=1)
    assert len(expected) > 2000 and [(r.file, r.line) for r in rejected] == [(str(tmp_path / "long.ndjson"), 701),
                                                                           (str(tmp_path / "long.ndjson"), 1501)]
    for options in [{"jobs": 2}, {"jobs": 3, "batch_size": 7}, {"batch_size": 1}, {"jobs": 2, "batch_size": 5000}, {}]:
        assert read_everything(paths, **options) == (expected, rejected), options


def test_read_batches_hold_at_most_the_batch_size_whatever_the_jobs(quickdraw):
    from sketchprep import _native
    for jobs in (1, 2):
        sizes = [len(arrays[3]) for arrays in _native.read_batches([str(quickdraw / "raw")], None, None, True, 100, jobs)]
        assert sum(sizes) > 1000 and max(sizes) <= 100 and sum(sizes) / len(sizes) > 50, sizes  # files' batches joined


def test_read_hands_rejected_lines_on_in_batches_of_at_most_the_batch_size(quickdraw, tmp_path):
    from sketchprep import _native
    drawing = (quickdraw / "simplified" / "cat.ndjson").read_text().splitlines()[0]
    lines = ['{"word": "cat", "drawing": [[[1, 2], [3]]]}'] * 2500 + [drawing]
    (tmp_path / "bad.ndjson").write_text("\n".join(lines) + "\n")
    for jobs in (1, 2):
        batches = list(_native.read_batches([str(tmp_path / "bad.ndjson")], None, None, True, 100, jobs))
        records = [len(arrays[3]) + (len(arrays[8]) - 1) // 3 for arrays in batches]
        assert sum(records) == 2501 and max(records) <= 100, records  # not 2,500 rejected lines gathered at once
        assert sum(len(arrays[3]) for arrays in batches) == 1


def test_read_refuses_jobs_that_are_not_a_thread_count(quickdraw):
    path = quickdraw / "simplified" / "cat.ndjson"
    for jobs in (0, -1, True, 2.0, "2"):
        with pytest.raises(SketchPrepError, match="jobs must be a number of threads"):
            sketchprep.read(path, jobs=jobs)
    with pytest.raises(SketchPrepError, match="jobs must be between 1 and 256"):
        list(sketchprep.read(path, jobs=257))


def test_a_reader_on_several_threads_stopped_early_ends_its_read(quickdraw):
    reader = sketchprep.read(quickdraw / "raw", batch_size=8, jobs=3)
    for count, _ in enumerate(reader, 1):
        if count == 30:
            break
    assert reader.read == 30
    assert len(list(sketchprep.read(quickdraw / "raw" / "cat.ndjson", jobs=3))) > 0


def test_read_drawings_build_their_strokes_on_access_as_views_of_their_batch(quickdraw):
    drawing = next(iter(sketchprep.read(quickdraw / "raw" / "cat.ndjson")))
    first, second = drawing.strokes, drawing.strokes
    assert first is not second and [a.tolist() for a in first] == [b.tolist() for b in second]
    assert all(np.shares_memory(a, b) for a, b in zip(first, second))


def test_read_drawings_pickle_with_their_metadata_and_strokes(quickdraw):
    for drawing in list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))[:3]:
        copy = pickle.loads(pickle.dumps(drawing))
        fields = ("word", "key_id", "countrycode", "timestamp", "recognized")
        assert [getattr(copy, name) for name in fields] == [getattr(drawing, name) for name in fields]
        assert [stroke.tolist() for stroke in copy.strokes] == [stroke.tolist() for stroke in drawing.strokes]


def test_bitmap_of_numpy_strokes_equals_bitmap_of_the_same_lists(quickdraw):
    drawings = list(sketchprep.read(quickdraw / "simplified" / "cat.ndjson"))[:20]
    lists = [[stroke.tolist() for stroke in drawing.strokes] for drawing in drawings]
    integers = [[stroke.astype(np.int64) for stroke in drawing.strokes] for drawing in drawings]
    expected = sketchprep.bitmap(lists)
    assert np.array_equal(sketchprep.bitmap(drawings), expected)
    assert np.array_equal(sketchprep.bitmap(integers), expected)


def test_bitmap_equals_googles_official_bitmaps(quickdraw):
    if not (quickdraw / "bitmap").is_dir():
        pytest.skip("no official bitmaps in the shared data")
    drawings = []
    for word in BITMAP_CLASSES:
        drawings += list(sketchprep.read(quickdraw / "simplified" / f"{word}.ndjson"))[:25]
    ours = sketchprep.bitmap(drawings)
    official = np.concatenate([np.load(quickdraw / "bitmap" / f"{word}.npy").reshape(-1, 28, 28)[:25]
                               for word in BITMAP_CLASSES])
    assert ours.dtype == np.uint8 and ours.shape == official.shape == (225, 28, 28)
    assert (ours == official).all()


def test_bitmap_simplifies_raw_drawings_first_as_the_cli_does(quickdraw):
    raw = list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))[:20]
    simplified = [sketchprep.simplify(drawing.strokes) for drawing in raw]
    assert (sketchprep.bitmap(raw) == sketchprep.bitmap(simplified)).all()
    assert (sketchprep.bitmap(raw, input_format="raw") == sketchprep.bitmap(simplified)).all()


def test_raster_and_time_channels_have_the_clis_shapes_and_checks(quickdraw):
    raw = list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))[:3]
    assert sketchprep.raster(raw).shape == (3, 256, 256)
    channels = sketchprep.raster(raw, channels="order,time,speed")
    assert channels.shape == (3, 256, 256, 3) and channels.dtype == np.uint8 and channels.any()
    with pytest.raises(DrawingError, match="size must be between 1 and 8192"):
        sketchprep.bitmap(raw, size=10_000)
    with pytest.raises(DrawingError, match="channels takes 1 or 3 of"):
        sketchprep.bitmap(raw, channels="order,time")
    with pytest.raises(DrawingError, match="drawing 1: "):
        sketchprep.bitmap([raw[0].strokes, [[[float("nan")], [1.0]]]])


def test_preprocess_through_the_api_writes_the_clis_bytes_and_returns_the_manifest(fixtures, tmp_path):
    arguments = json.loads((fixtures / "console-preprocess.json").read_text())
    pipeline = arguments[arguments.index("--pipeline") + 1]
    inputs = [arguments[arguments.index("--input") + 1]]
    category = arguments[arguments.index("--category") + 1]
    lines = []
    manifest = sketchprep.preprocess(pipeline, inputs=inputs, categories=[category], output=tmp_path / "out",
                                     progress=lines.append)
    expected = fixtures / "console-preprocess"
    names = sorted(p.name for p in expected.iterdir() if p.name != "timings.json")
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.name != "timings.json") == names
    for name in names:
        assert (tmp_path / "out" / name).read_bytes() == (expected / name).read_bytes(), name
    written = json.loads((expected / "manifest.json").read_text())
    assert manifest["shards"] == written["shards"] and manifest["classes"] == written["classes"]
    assert manifest["records"] == written["records"]
    assert any("(100 %)" in line for line in lines), lines  # the CLI's progress reached the callback


def test_verify_info_and_parity_return_their_report_json(fixtures, quickdraw, tmp_path):
    dataset = fixtures / "datasets" / "quickdraw-rnn"
    verified = sketchprep.verify(dataset)
    assert verified["ok"] is True and verified["problems"] == []
    assert sketchprep.info(dataset)["kind"] == "npy"
    report = sketchprep.parity(quickdraw / "raw" / "cat.ndjson", quickdraw / "simplified" / "cat.ndjson")
    assert isinstance(report, dict) and report


def test_the_clis_errors_are_exceptions(fixtures, tmp_path):
    with pytest.raises(DatasetError, match="not found|no manifest"):
        sketchprep.verify(tmp_path / "nothing")
    with pytest.raises(CommandError) as refused:
        sketchprep.preprocess(tmp_path / "missing.yaml", output=tmp_path / "out")
    assert refused.value.returncode != 0 and "missing.yaml" in str(refused.value)


def test_the_loaders_take_the_manifest_checks_of_the_native_library(fixtures, tmp_path):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    source = fixtures / "datasets" / "quickdraw-rnn"
    for path in source.iterdir():
        (dataset / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((dataset / "manifest.json").read_text())
    manifest["records"]["read"] = -1
    (dataset / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match=r"records\.read: -1 is not a count"):
        sketchprep.load_split(dataset, "train")


@pytest.mark.parametrize("document", ["README.md", "docs/python.md"])
def test_the_python_examples_run(document, monkeypatch):
    monkeypatch.chdir(REPO)
    assert run_examples.run(document) >= 1
