"""Every function takes what the package's own functions give: a `SketchDrawing` from `read` wherever a
drawing goes (its strokes, the same results as passing them), and one path or many, as str, bytes or
os.PathLike, wherever paths go (`read`, `preprocess(inputs=…)`, `parity`)."""
import json
import os
import pathlib

import numpy as np
import pytest

import sketchprep
from sketchprep import SketchPrepError, StrokeBatch


def batch_arrays(batch):
    return [batch.points.tolist(), batch.stroke_offsets.tolist(), batch.drawing_offsets.tolist(), batch.rejected]


def drawn(reader):
    """What a reader handed out: each drawing's key_id and strokes as lists."""
    return [(drawing.key_id, [stroke.tolist() for stroke in drawing.strokes]) for drawing in reader]


def test_simplify_encode_and_to_stroke3_take_a_read_drawing_as_its_strokes(quickdraw):
    raw = list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))[:10]
    simplified = list(sketchprep.read(quickdraw / "simplified" / "cat.ndjson"))[:10]
    assert raw and simplified
    for drawing in raw:
        assert sketchprep.simplify(drawing) == sketchprep.simplify(drawing.strokes)
        assert sketchprep.simplify(drawing, epsilon=3.5) == sketchprep.simplify(drawing.strokes, epsilon=3.5)
    for drawing in simplified:
        assert sketchprep.encode(drawing).tobytes() == sketchprep.encode(drawing.strokes).tobytes()
        cut = sketchprep.encode(drawing.strokes, 40, "back")
        assert sketchprep.encode(drawing, 40, "back").tobytes() == cut.tobytes()
        stroke3 = sketchprep.to_stroke3(drawing)
        assert stroke3.dtype == np.int16 and stroke3.tobytes() == sketchprep.to_stroke3(drawing.strokes).tobytes()


def test_the_batch_functions_take_read_drawings_as_their_strokes(quickdraw):
    raw = list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))[:10]
    simplified = list(sketchprep.read(quickdraw / "simplified" / "cat.ndjson"))[:10]
    raw_strokes = [drawing.strokes for drawing in raw]
    mixed = [drawing if index % 2 else drawing.strokes for index, drawing in enumerate(raw)]
    expected = batch_arrays(StrokeBatch.from_drawings(raw_strokes))
    assert batch_arrays(StrokeBatch.from_drawings(raw)) == expected
    assert batch_arrays(StrokeBatch.from_drawings(mixed)) == expected
    assert batch_arrays(sketchprep.simplify_batch(raw)) == batch_arrays(sketchprep.simplify_batch(raw_strokes))
    encoded = sketchprep.encode_batch([drawing.strokes for drawing in simplified])
    assert sketchprep.encode_batch(simplified).tobytes() == encoded.tobytes()


def test_read_takes_a_bytes_path_as_one_path(quickdraw):
    path = quickdraw / "simplified" / "cat.ndjson"
    expected = drawn(sketchprep.read(str(path)))
    assert expected
    assert drawn(sketchprep.read(os.fsencode(path))) == expected
    assert drawn(sketchprep.read([os.fsencode(path), path])) == expected + expected
    with pytest.raises(SketchPrepError, match="at least one path"):
        sketchprep.read([])


def test_a_path_that_is_not_utf8_is_refused_naming_its_bytes(quickdraw, tmp_path):
    latin1 = os.fsencode(tmp_path) + b"/caf\xe9.ndjson"
    with open(latin1, "wb") as file:
        file.write((quickdraw / "simplified" / "cat.ndjson").read_bytes())
    with pytest.raises(SketchPrepError) as refused:
        list(sketchprep.read(latin1))
    assert str(refused.value) == f"input {tmp_path}/caf\\xe9.ndjson: path is not valid UTF-8 (rename it to read it)"
    # Found in a directory instead, the file is listed as rejected for the same reason.
    reader = sketchprep.read(tmp_path)
    assert list(reader) == []
    assert [rejection.reason for rejection in reader.rejected] == [
        "source error at byte 0: file name is not valid UTF-8 (rename it to read it)"]


def test_a_value_that_is_no_path_is_refused_with_a_type_error_naming_it(quickdraw):
    with pytest.raises(TypeError, match="expected a path .* or an iterable of paths, not int"):
        sketchprep.read(3)
    with pytest.raises(TypeError, match=r"expected a path \(str, bytes, os.PathLike\), not int"):
        sketchprep.read([quickdraw / "raw" / "cat.ndjson", 3])


def test_preprocess_takes_one_path_as_its_inputs_in_every_path_type(fixtures, tmp_path):
    arguments = json.loads((fixtures / "console-preprocess.json").read_text())
    pipeline = arguments[arguments.index("--pipeline") + 1]
    source = arguments[arguments.index("--input") + 1]
    category = arguments[arguments.index("--category") + 1]

    def run(name, inputs):
        output = tmp_path / name
        manifest = sketchprep.preprocess(pipeline, inputs=inputs, categories=[category], output=output)
        files = {path.name: path.read_bytes() for path in output.iterdir() if path.name != "timings.json"}
        return manifest, files

    expected = run("list", [source])
    assert expected[0]["records"]["written"] > 0 and expected[0]["sources"][0]["path"] == source
    assert run("path", pathlib.Path(source)) == expected
    assert run("bytes", os.fsencode(source)) == expected
    assert run("str", source) == expected  # one path, never its characters


def test_parity_takes_bytes_paths_as_one_path_each(quickdraw):
    raw, simplified = quickdraw / "raw" / "cat.ndjson", quickdraw / "simplified" / "cat.ndjson"
    expected = sketchprep.parity(str(raw), str(simplified))
    assert expected["pairs"] > 0
    assert sketchprep.parity(os.fsencode(raw), os.fsencode(simplified)) == expected
    assert sketchprep.parity([os.fsencode(raw)], [simplified]) == expected
