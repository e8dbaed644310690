"""The batch paths behind `read` and `bitmap`: a read batch holds drawings with and without times
side by side (each keeps its own layout), a `.bin` read (the reader's flat points) stops where its
reader is left, a read drawing's metadata are decoded on access and equal the CLI's, and `bitmap`
renders into one output whatever the chunking, leaving a refused drawing's image zero; a batch's
points go into a buffer of an earlier batch only when nothing refers to that buffer any more."""
import json
import os
import weakref

import numpy as np
import pytest

import sketchprep
from sketchprep import DrawingError
from sketchprep import rendering
from sketchprep._point_buffers import READ_POINTS, PointBuffers


def json_drawings(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("order", [("simplified", "raw"), ("raw", "simplified")])
def test_a_batch_of_drawings_with_and_without_times_gives_each_its_own_layout(quickdraw, order):
    paths = [quickdraw / kind / "cat.ndjson" for kind in order]
    expected = json_drawings(paths[0]) + json_drawings(paths[1])
    drawings = list(sketchprep.read(paths, batch_size=len(expected)))  # one batch for both files
    assert len(drawings) == len(expected)
    for drawing, record in zip(drawings, expected):
        assert [stroke.tolist() for stroke in drawing.strokes] == record["drawing"]
        assert (drawing.word, drawing.key_id, drawing.countrycode, drawing.timestamp, drawing.recognized) == (
            record["word"], record["key_id"], record["countrycode"], record["timestamp"], record["recognized"])


def test_a_bin_read_stops_where_its_reader_is_left(fixtures):
    inputs = json.loads((fixtures / "read" / "read.json").read_text())["bin"]["inputs"]
    reader = sketchprep.read(inputs, format="bin", batch_size=16)
    for count, drawing in enumerate(reader, 1):
        assert all(stroke.shape[0] == 2 for stroke in drawing.strokes)
        if count == 20:
            break
    assert reader.read == 20
    whole = sketchprep.read(inputs, format="bin")
    assert sum(1 for _ in whole) > 20 and not whole.rejected


def test_bitmap_of_an_iterator_over_several_chunks_equals_the_bitmap_of_the_list(quickdraw):
    drawings = list(sketchprep.read(quickdraw / "simplified" / "cat.ndjson"))
    many = (drawings * (rendering._CHUNK // len(drawings) + 2))[:rendering._CHUNK + 3]
    whole = sketchprep.bitmap(many)
    assert whole.shape == (len(many), 28, 28)
    assert np.array_equal(sketchprep.bitmap(iter(many)), whole)
    assert np.array_equal(whole[rendering._CHUNK:], sketchprep.bitmap(many[rendering._CHUNK:]))


def test_bitmap_leaves_a_refused_drawing_zero_without_strict_and_names_it_with(quickdraw):
    good = [stroke for stroke in next(iter(sketchprep.read(quickdraw / "simplified" / "cat.ndjson"))).strokes]
    refused = [np.array([[0.0, 1e300], [0.0, 5.0]])]  # beyond every coordinate bound
    images = sketchprep.bitmap([good, refused, good], strict=False)
    assert not images[1].any()
    assert np.array_equal(images[0], sketchprep.bitmap([good])[0]) and images[0].any()
    with pytest.raises(DrawingError) as raised:
        sketchprep.bitmap([good, refused, good])
    assert raised.value.index == 1


def test_drawings_and_strokes_kept_by_the_caller_keep_their_points_while_later_batches_are_read(quickdraw):
    kept = []
    for index, drawing in enumerate(sketchprep.read(quickdraw / "raw", batch_size=16)):
        if index % 7 == 0:
            kept.append((drawing, [stroke.tolist() for stroke in drawing.strokes]))
        elif index % 11 == 0:
            stroke = drawing.strokes[-1][:, 1:]  # a view of a view, the drawing itself let go
            kept.append((stroke, stroke.tolist()))
    assert len(kept) > 100
    for value, points in kept:
        now = value.tolist() if isinstance(value, np.ndarray) else [stroke.tolist() for stroke in value.strokes]
        assert now == points


def test_point_buffers_hand_a_buffer_out_again_only_when_nothing_refers_to_it():
    buffers = PointBuffers(keep=3)
    first = buffers.points(3, 100)
    owner = weakref.ref(first.base)
    kept = first[1, 10:20]
    kept[:] = 7.0
    del first
    second = buffers.points(3, 100)
    assert not np.shares_memory(second, kept)  # a view of the first is alive: a new buffer
    second[:] = 1.0
    assert kept.tolist() == [7.0] * 10
    del kept
    third = buffers.points(2, 120)  # the first buffer, now unreferenced and large enough
    assert third.shape == (2, 120) and third.base is owner()


def test_point_buffers_hold_at_most_their_count_and_size_and_let_go_of_buffers_in_use():
    buffers = PointBuffers(keep=2)
    arrays = [buffers.points(2, 10 * (index + 1)) for index in range(5)]  # all in use: a new one each time
    owners = [weakref.ref(array.base) for array in arrays]
    assert len({id(array.base) for array in arrays}) == 5
    assert len(buffers._buffers) == 2
    del arrays
    assert sum(owner() is not None for owner in owners) == 2  # only the two held live on
    large = PointBuffers(keep=2, largest=1000).points(2, 500)  # more than `largest` values: not held
    assert large.shape == (2, 500) and large.base is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_while_the_point_buffers_are_locked_reads_with_a_lock_of_its_own(quickdraw):
    with READ_POINTS._lock:  # as if another thread were handing out a buffer at the fork
        child = os.fork()
        if child == 0:
            free = READ_POINTS._lock.acquire(timeout=5)
            if free:
                READ_POINTS._lock.release()
            os._exit(0 if free and len(list(sketchprep.read(quickdraw / "raw" / "cat.ndjson"))) > 0 else 1)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
