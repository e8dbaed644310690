"""sketchprep.simplify is the CLI's rule: byte-identical to `sketchprep simplify` on every shared
raw drawing, and equal to Google's official simplified drawing for all matched pairs but the one
documented three-way tie (docs/parity.md), per drawing and in batches."""
import json

import numpy as np

import sketchprep

# The one matched drawing no reading of Google's rule reproduces (docs/parity.md).
KNOWN_MISS = "6749869962166272"


def compact(drawing):
    return json.dumps(drawing, separators=(",", ":"))


def test_simplify_writes_the_clis_bytes_for_every_raw_drawing(fixtures, raw_records):
    cli_lines = (fixtures / "simplified.ndjson").read_text(encoding="utf-8").splitlines()
    assert len(cli_lines) == len(raw_records) > 0
    for record, line in zip(raw_records, cli_lines):
        cli_drawing = line[line.index(',"drawing":') + len(',"drawing":'):-1]
        assert compact(sketchprep.simplify(record["drawing"])) == cli_drawing, record["key_id"]


def test_simplify_batch_equals_simplify_per_drawing(raw_records):
    drawings = [record["drawing"] for record in raw_records]
    batch = sketchprep.simplify_batch(drawings)
    assert len(batch) == len(drawings) and batch.points.dtype == np.int32 and not batch.rejected
    for index in range(0, len(drawings), 7):
        assert batch.drawing(index) == sketchprep.simplify(drawings[index])
    again = sketchprep.simplify_batch(sketchprep.StrokeBatch.from_drawings(drawings))
    assert np.array_equal(again.points, batch.points) and np.array_equal(again.stroke_offsets, batch.stroke_offsets)


def test_simplify_matches_googles_simplified_drawings(quickdraw, raw_records, simplified_records):
    official = {}
    for record in simplified_records:
        official.setdefault(record["key_id"], record["drawing"])
    raw = {}
    for record in raw_records:
        raw.setdefault(record["key_id"], record["drawing"])
    pairs = sorted(raw.keys() & official.keys())
    simplified = sketchprep.simplify_batch([raw[key] for key in pairs]).to_drawings()
    misses = [key for key, ours in zip(pairs, simplified) if ours != official[key]]
    if (quickdraw / "raw" / "airplane.ndjson").is_file() and len(pairs) == 5556:
        assert misses == [KNOWN_MISS]
    else:
        assert len(pairs) > 0 and not misses
