"""sketchprep.simplify has two paths with one result: plain lists of ints, floats and bools are
marshalled and simplified in one native call; anything else (numpy scalars, tuples, int
subclasses, more output than the per-thread room, a refused drawing) takes the checked path,
which gives the same strokes or names the reason. Threads each use their own native buffers."""
import enum
import math
import threading

import numpy as np
import pytest

import sketchprep
from sketchprep import DrawingError, _native, strokes

LINE = [[0, 10, 20], [0, 5, 30]]
PLAIN = [
    [LINE],
    [[[0, 10.5, 20.25], [0, 5, 30], [0, 17, 40]], [[7], [3]], [[True, False, 3], [1, 2, 4]]],
    [[[0, 255, 70000, -70000], [0, 3, 10**9, -10**9]]],
    [[[0, 5, 9], [1, 2, 3], [0, 2**40, -2**41 - 12345]]],  # timestamps beyond 32 bits (marshal's long digits)
    [[[0, 5, 9], [1, 2, 3], [10**15, -10**15, 0.5]]],  # timestamps at the bound
]


class Small(enum.IntEnum):
    ONE = 1
    TEN = 10


def checked(drawing, **options):
    """simplify's result on the checked path."""
    saved = strokes._simplify_marshalled
    strokes._simplify_marshalled = lambda *_: None
    try:
        return sketchprep.simplify(drawing, **options)
    finally:
        strokes._simplify_marshalled = saved


@pytest.mark.parametrize("drawing", PLAIN)
def test_plain_lists_are_simplified_in_one_call_with_the_checked_paths_result(drawing):
    fast = strokes._simplify_marshalled(drawing, strokes._DEFAULT_OPTIONS)
    assert fast is not None, "the one-call path declined plain lists (has the marshal format changed?)"
    assert fast == checked(drawing) == sketchprep.simplify(drawing)
    assert all(type(value) is int for stroke in fast for axis in stroke for value in axis)


def test_the_raw_drawings_all_take_the_one_call_path(raw_records):
    declined = [record["key_id"] for record in raw_records
                if strokes._simplify_marshalled(record["drawing"], strokes._DEFAULT_OPTIONS) is None]
    assert declined == []


def test_options_reach_the_one_call_path():
    drawing = [[[round(100 * math.cos(step / 10)) for step in range(32)], [round(100 * math.sin(step / 10)) for step in range(32)]],
               [[3, 60], [9, 9]]]
    for options in ({"epsilon": 0.5}, {"scale_target": 1000, "resample_step": 0.5}, {"epsilon": 0}):
        assert sketchprep.simplify(drawing, **options) == checked(drawing, **options)
    assert sketchprep.simplify(drawing, epsilon=0.5) != sketchprep.simplify(drawing)


@pytest.mark.parametrize("drawing", [
    [[[np.float64(0), np.float64(10), 20], [np.int64(0), 5, 30]]],
    [[(0, 10, 20), (0, 5, 30)]],
    [([0, 10, 20], [0, 5, 30])],
    ([[0, 10, 20], [0, 5, 30]],),
    [[[Small.ONE, Small.TEN, 20], [0, 5, 30]]],
])
def test_other_number_and_sequence_types_take_the_checked_path_with_the_same_result(drawing):
    assert strokes._simplify_marshalled(drawing, strokes._DEFAULT_OPTIONS) is None
    plain = [[[float(value) for value in axis] for axis in stroke] for stroke in drawing]
    assert sketchprep.simplify(drawing) == sketchprep.simplify(plain)


def test_a_list_used_twice_is_read_twice():
    xs = [0, 10, 20]
    assert sketchprep.simplify([[xs, xs], [xs, xs]]) == checked([[list(xs), list(xs)], [list(xs), list(xs)]])


def test_output_beyond_the_room_takes_the_checked_path(monkeypatch):
    drawing = [[[0, 10, 20, 31], [0, 5, 30, 2]]]
    expected = sketchprep.simplify(drawing)
    monkeypatch.setattr(_native, "_OUTPUT_ROOM", 16)
    assert strokes._simplify_marshalled(drawing, strokes._DEFAULT_OPTIONS) is None
    assert sketchprep.simplify(drawing) == expected


@pytest.mark.parametrize("drawing, reason", [
    ([[[0, 2**70], [0, 1]]], "coordinate out of range"),
    ([[[0, 1], [0, 1], [0, -2**70]]], "timestamp"),
    ([[[0, 1], [0, 1], [0, -10**15 - 1]]], "timestamp"),
    ([[[0, 1], [0, 1], [0, 10**15 + 1]]], "timestamp"),
    ([[[0, 1], [0, -10**9 - 1]]], "coordinate out of range"),
    ([[[0, 1], [0, 1], [0, 1], [0, 1]]], "stroke 1: expected an array"),
    ([[[0, 1], [0, None]]], "expected arrays of numbers"),
    ([[[0, 1], [0, "1"]]], "expected arrays of numbers"),
    ([[[0, 1], [0, {1: 2}]]], "expected arrays of numbers"),
    ([[[0, 1], [[0], [1]]]], "expected arrays of numbers"),
    ([[[[[[[0]]]]]]], "expected"),
])
def test_drawings_the_one_call_path_declines_are_refused_with_the_reason(drawing, reason):
    assert strokes._simplify_marshalled(drawing, strokes._DEFAULT_OPTIONS) is None
    with pytest.raises(DrawingError, match=reason):
        sketchprep.simplify(drawing)


def test_threads_simplify_with_their_own_buffers(raw_records):
    drawings = [record["drawing"] for record in raw_records[:400]]
    expected = [sketchprep.simplify(drawing) for drawing in drawings]
    results = {}

    def run(name):
        results[name] = [sketchprep.simplify(drawing) for drawing in reversed(drawings)][::-1]

    threads = [threading.Thread(target=run, args=(name,)) for name in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [results[name] for name in range(4)] == [expected] * 4
