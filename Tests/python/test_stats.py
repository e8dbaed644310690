"""`sketchprep stats`: counts, truncation share and duplicates recomputed with plain `json` on the
shared Quick, Draw! files and compared with stats.json; output bytes independent of --jobs."""
import collections
import json
import subprocess

import pytest

from conftest import SHARED

QUICKDRAW = SHARED / "quickdraw"
pytestmark = pytest.mark.skipif(not QUICKDRAW.is_dir(), reason="shared Quick, Draw! data not present")


def run_stats(sketchprep, out, inputs, *options):
    subprocess.run([sketchprep, "stats", *map(str, inputs), "-o", out, "-q", *options], check=True,
                   capture_output=True)
    return json.loads((out / "stats.json").read_text())


def records(paths):
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


def points(drawing):
    return sum(len(stroke[0]) for stroke in drawing)


def expected_profile(paths, length):
    """Per category: drawings, recognized, countries, truncated (more than length + 1 points)."""
    categories = collections.defaultdict(lambda: {"drawings": 0, "recognized": 0, "truncated": 0,
                                                  "countries": collections.Counter(), "points": []})
    for record in records(paths):
        category = categories[record["word"]]
        category["drawings"] += 1
        category["recognized"] += bool(record["recognized"])
        category["countries"][record["countrycode"]] += 1
        n = points(record["drawing"])
        category["points"].append(n)
        category["truncated"] += max(n - 1, 0) > length
    return categories


def check_counts(stats, expected):
    assert set(stats["categories"]) == set(expected)
    for word, want in expected.items():
        got = stats["categories"][word]
        assert got["drawings"] == want["drawings"], word
        assert got["recognized"] == want["recognized"], word
        assert got["countries"] == dict(want["countries"]), word
        assert got["truncated"] == want["truncated"], word
        assert got["truncated_share"] == pytest.approx(want["truncated"] / want["drawings"]), word
        ordered = sorted(want["points"])
        assert got["points"]["min"] == ordered[0] and got["points"]["max"] == ordered[-1], word
        rank = -(-len(ordered) // 2)  # nearest rank of the median
        assert got["points"]["median"] == ordered[rank - 1], word
    total = sum(c["drawings"] for c in expected.values())
    truncated = sum(c["truncated"] for c in expected.values())
    assert stats["totals"]["drawings"] == total
    assert stats["totals"]["truncated"] == truncated
    assert stats["totals"]["truncated_share"] == pytest.approx(truncated / total)


def test_simplified_counts_and_truncation_share_match_plain_json(sketchprep, tmp_path):
    files = sorted((QUICKDRAW / "simplified").glob("*.ndjson"))
    stats = run_stats(sketchprep, tmp_path / "out", [QUICKDRAW / "simplified"])
    check_counts(stats, expected_profile(files, 75))
    keys = collections.Counter(record["key_id"] for record in records(files))
    assert stats["duplicates"] == {"records": sum(n - 1 for n in keys.values()),
                                   "key_ids": sum(n > 1 for n in keys.values())}
    assert stats["totals"]["raw_drawings"] == 0
    assert stats["totals"]["read"] == stats["totals"]["drawings"] + stats["totals"]["rejected"]


def test_raw_input_is_simplified_first_and_raw_point_counts_are_shown_beside(sketchprep, tmp_path):
    words = ["cat", "The Eiffel Tower", "bicycle"]
    raw = [QUICKDRAW / "raw" / f"{word}.ndjson" for word in words]
    simplified = tmp_path / "simplified.ndjson"
    subprocess.run([sketchprep, "simplify", *map(str, raw), "-o", simplified, "-q"], check=True, capture_output=True)
    stats = run_stats(sketchprep, tmp_path / "out", raw, "--length", "50")
    check_counts(stats, expected_profile([simplified], 50))
    for word in words:
        raw_points = [points(record["drawing"]) for record in records([QUICKDRAW / "raw" / f"{word}.ndjson"])]
        got = stats["categories"][word]
        assert got["raw_drawings"] == len(raw_points)
        assert got["raw_points"]["count"] == len(raw_points)
        assert got["raw_points"]["min"] == min(raw_points) and got["raw_points"]["max"] == max(raw_points)


def test_duplicates_rejected_lines_and_jobs_independent_bytes(sketchprep, tmp_path):
    source = (QUICKDRAW / "simplified" / "cat.ndjson").read_text().splitlines()
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.ndjson").write_text("\n".join(source[:10] + ["{broken"]) + "\n")
    (data / "b.ndjson").write_text("\n".join(source[5:12] + ['{"word": 3}']) + "\n")
    outputs = []
    for jobs in ["1", "3"]:
        stats = run_stats(sketchprep, tmp_path / f"out{jobs}", [data], "--jobs", jobs, "--thumbnails", "3")
        outputs.append([(tmp_path / f"out{jobs}" / name).read_bytes() for name in ["stats.json", "stats.md", "stats.html"]])
    assert outputs[0] == outputs[1]
    assert stats["duplicates"] == {"records": 5, "key_ids": 5}
    assert stats["totals"]["read"] == 19 and stats["totals"]["rejected"] == 2
    assert sum(stats["rejected"]["by_reason"].values()) == 2
    assert (tmp_path / "out3" / "rejected.ndjson").read_text() == '{broken\n{"word": 3}\n'
    assert len(stats["categories"]["cat"]["thumbnails"]) == 3
    html = outputs[0][2].decode()
    assert html.count('src="data:image/png;base64,') == 3 and "<script" not in html
