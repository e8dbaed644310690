"""Bad input raises a DrawingError (a ValueError) with the CLI's reason and never crashes the
interpreter: non-finite and out-of-range numbers, ragged and empty strokes, huge counts, bad
options, malformed batch arrays. A refused drawing in a batch is named by its index."""
import math

import numpy as np
import pytest

import sketchprep
from sketchprep import DrawingError

LINE = [[0, 10, 20], [0, 5, 30]]


@pytest.mark.parametrize("drawing, reason", [
    ([[[0, math.nan], [0, 1]]], "coordinate out of range"),
    ([[[0, math.inf], [0, 1]]], "coordinate out of range"),
    ([[[0, 1], [0, -math.inf]]], "coordinate out of range"),
    ([[[0, 2e9], [0, 1]]], "coordinate out of range"),
    ([[[0, 1], [0, 1], [0, math.nan]]], "timestamp"),
    ([[[0, 1], [0, 1], [0, 1e16]]], "timestamp"),
    ([[[0, 1, 2], [0, 1]]], "x has 3 values but y has 2"),
    ([[[0, 1], [0, 1], [0]]], "x has 2 values but t has 1"),
    ([[[], []]], "stroke 1 has no points"),
    ([LINE, [[1], [2], [3], [4]]], "stroke 2: expected an array"),
    ([[["a"], [1]]], "expected arrays of numbers"),
    ([], "empty drawing"),
    ("drawing", "list of strokes"),
    ([[[0, 1]] * 2] * 10_001, "too many strokes"),
    ([[list(range(60_000)), [0] * 60_000], [list(range(60_000)), [0] * 60_000]], "too many points"),
])
def test_simplify_refuses_bad_drawings_with_the_reason(drawing, reason):
    with pytest.raises(DrawingError, match=reason) as raised:
        sketchprep.simplify(drawing)
    assert isinstance(raised.value, ValueError) and raised.value.index is None


def test_simplify_refuses_a_drawing_that_would_resample_past_the_caps():
    zigzag = [[0, 1e9, 0, 1e9], [0, 1e9, 1e9, 0]]
    with pytest.raises(DrawingError, match="too many resampled points"):
        sketchprep.simplify([zigzag], scale_target=65535)
    with pytest.raises(DrawingError, match="too many resampled points"):
        sketchprep.simplify([[[0, 1e9], [0, 0]]] * 8, scale_target=65535)


@pytest.mark.parametrize("options, key", [
    ({"epsilon": -1}, "epsilon"), ({"epsilon": math.nan}, "epsilon"), ({"resample_step": 0}, "resample_step"),
    ({"scale_target": 1e6}, "scale_target"), ({"scale_target": 65535, "resample_step": 0.5}, "scale_target / resample_step"),
    ({"epsilon": "2"}, "epsilon"), ({"epsilon": True}, "epsilon"),
])
def test_simplify_refuses_options_out_of_bounds(options, key):
    with pytest.raises(DrawingError, match=key):
        sketchprep.simplify([LINE], **options)


def test_a_refused_drawing_in_a_batch_is_named_by_index_or_collected():
    drawings = [[LINE], [[[0, math.nan], [0, 1]]], [LINE]]
    with pytest.raises(DrawingError, match="drawing 1: coordinate out of range") as raised:
        sketchprep.simplify_batch(drawings)
    assert raised.value.index == 1
    points = np.array([[0, 0], [math.nan, 1], [5, 5]], dtype=np.float64)
    batch = sketchprep.StrokeBatch(points, np.array([0, 1, 2, 3]), np.array([0, 1, 2, 3]))
    collected = sketchprep.simplify_batch(batch, errors="collect")
    assert list(collected.rejected) == [1] and "coordinate out of range" in collected.rejected[1]
    assert collected.drawing(1) == [] and collected.drawing(0) == [[[0, 0], [0, 0]]]


@pytest.mark.parametrize("stroke_offsets, drawing_offsets, reason", [
    ([0, 2, 1, 3], [0, 3], "must not decrease"),
    ([1, 3], [0, 1], "must start at 0"),
    ([0, 2], [0, 1], "must end at the number of points"),
    ([0, 3], [0, 2], "must end at the number of strokes"),
    ([0, 3], [0, -1], "must end at the number of strokes"),
    ([0, 2**62, 3], [0, 2], "must not decrease"),
])
def test_malformed_batch_arrays_are_refused_before_any_drawing_is_read(stroke_offsets, drawing_offsets, reason):
    batch = sketchprep.StrokeBatch(np.zeros((3, 2)), np.array(stroke_offsets), np.array(drawing_offsets))
    with pytest.raises(DrawingError, match=reason):
        sketchprep.simplify_batch(batch)
    with pytest.raises(DrawingError, match=reason):
        sketchprep.encode_batch(batch)


def test_batch_arrays_of_the_wrong_shape_or_type_are_refused():
    with pytest.raises(DrawingError, match=r"shape \(P, 2\)"):
        sketchprep.simplify_batch(sketchprep.StrokeBatch(np.zeros((3, 3)), np.array([0, 3]), np.array([0, 1])))
    with pytest.raises(DrawingError, match="integer array"):
        sketchprep.simplify_batch(sketchprep.StrokeBatch(np.zeros((3, 2)), np.array([0.0, 3.0]), np.array([0, 1])))


@pytest.mark.parametrize("drawing, reason", [
    ([[[0, 70000], [0, 1]]], "coordinate out of range"),
    ([[[0, math.nan], [0, 1]]], "coordinate out of range"),
    ([[[0, 1, 2], [0, 1]]], "x has 3 values but y has 2"),
])
def test_encode_refuses_drawings_the_cli_would_not_take_as_simplified(drawing, reason):
    with pytest.raises(DrawingError, match=reason):
        sketchprep.encode(drawing)


@pytest.mark.parametrize("options, reason", [
    ({"length": 0}, "length"), ({"length": 100_001}, "length"), ({"length": 2**70}, "length"), ({"length": 7.5}, "length"),
    ({"padding": "left"}, "padding"), ({"truncation": None}, "truncation"),
])
def test_encode_refuses_bad_options(options, reason):
    with pytest.raises(DrawingError, match=reason):
        sketchprep.encode([LINE], **options)


def test_empty_batches_give_empty_results():
    assert len(sketchprep.simplify_batch([])) == 0
    assert sketchprep.encode_batch([]).shape == (0, 75, 3)
