"""sketchprep.encode is the CLI's tensor recipe: byte-equal to `sketchprep encode`'s NPY rows for
every shared simplified drawing and for every raw drawing simplified first, with the book's
options and with others; to_stroke3 gives sketch-rnn's rows."""
import numpy as np
import pytest

import sketchprep


def test_encode_batch_equals_the_clis_rows_for_every_simplified_drawing(fixtures, simplified_records):
    expected = np.load(fixtures / "encoded-simplified.npy")
    encoded = sketchprep.encode_batch([record["drawing"] for record in simplified_records])
    assert encoded.dtype == np.float32 and encoded.shape == expected.shape == (len(simplified_records), 75, 3)
    assert encoded.tobytes() == expected.tobytes()


def test_encode_per_drawing_equals_the_clis_rows(fixtures, simplified_records):
    expected = np.load(fixtures / "encoded-simplified.npy")
    for index in range(0, len(simplified_records), 11):
        assert sketchprep.encode(simplified_records[index]["drawing"]).tobytes() == expected[index].tobytes()


def test_encode_of_simplified_raw_drawings_equals_the_clis_rows(fixtures, raw_records):
    simplified = sketchprep.simplify_batch([record["drawing"] for record in raw_records])
    assert sketchprep.encode_batch(simplified).tobytes() == np.load(fixtures / "encoded-raw.npy").tobytes()
    other = sketchprep.encode_batch(simplified, length=40, padding="back", truncation="front")
    assert other.tobytes() == np.load(fixtures / "encoded-raw-40-back.npy").tobytes()


def test_to_stroke3_gives_sketch_rnn_rows():
    rows = sketchprep.to_stroke3([[[10, 20, 20], [5, 5, 15]], [[0], [0]]])
    assert rows.dtype == np.int16
    assert rows.tolist() == [[10, 5, 0], [10, 0, 0], [0, 10, 1], [-20, -15, 1]]
    assert np.cumsum(rows[:, :2], axis=0).tolist() == [[10, 5], [20, 5], [20, 15], [0, 0]]


def test_to_stroke3_refuses_values_stroke3_cannot_hold():
    with pytest.raises(sketchprep.DrawingError, match="int16"):
        sketchprep.to_stroke3([[[0, 40000], [0, 0]]])
    with pytest.raises(sketchprep.DrawingError, match="integer"):
        sketchprep.to_stroke3([[[0.5], [0]]])
