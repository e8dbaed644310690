"""One command-line vocabulary: `--limit N` (the first N records of each input) and `--report-json`
(the run's counts) mean the same on raster, stats and convert as on simplify and the NPY commands.
Runs on the repository's SampleData (six categories), so it needs no shared data.
"""
import json
import subprocess

import numpy as np
from PIL import Image

from conftest import REPO

SAMPLE = REPO / "SampleData" / "quickdraw" / "simplified"
CATEGORIES = 6


def run(sketchprep, *args):
    return subprocess.run([str(sketchprep), *map(str, args)], check=True, capture_output=True, text=True)


def report(path):
    document = json.loads(path.read_text())
    assert document["read"] == document["written"] + document.get("not_selected", 0) + document["rejected"]
    assert document["reconciled"] is True
    return document


def test_stats_limit_reads_the_first_n_records_of_each_input_and_reports_counts(sketchprep, tmp_path):
    run(sketchprep, "stats", SAMPLE, "-o", tmp_path / "stats", "--limit", 3, "--report-json", tmp_path / "r.json", "-q")
    document = report(tmp_path / "r.json")
    assert document["command"] == "stats" and len(document["inputs"]) == CATEGORIES
    assert document["read"] == 3 * CATEGORIES
    profile = json.loads((tmp_path / "stats" / "stats.json").read_text())
    assert json.dumps(profile).count('"drawings": 3') >= CATEGORIES


def test_convert_limit_writes_the_first_n_records_of_each_input_in_order(sketchprep, tmp_path):
    run(sketchprep, "convert", SAMPLE, "--to", "ndjson", "-o", tmp_path / "nd", "--limit", 2,
        "--report-json", tmp_path / "nd.json", "-q")
    assert report(tmp_path / "nd.json")["written"] == 2 * CATEGORIES
    for source in SAMPLE.glob("*.ndjson"):
        keys = [json.loads(line)["key_id"] for line in (tmp_path / "nd" / source.name).read_text().splitlines()]
        assert keys == [json.loads(line)["key_id"] for line in source.read_text().splitlines()[:2]]
    # .bin inputs honour the limit too.
    run(sketchprep, "convert", tmp_path / "nd", "--to", "bin", "-o", tmp_path / "bins", "-q")
    run(sketchprep, "convert", tmp_path / "bins", "--to", "ndjson", "-o", tmp_path / "again", "--limit", 1,
        "--report-json", tmp_path / "again.json", "-q")
    document = report(tmp_path / "again.json")
    assert document["command"] == "convert" and document["read"] == CATEGORIES and document["not_selected"] == 0


def test_raster_limit_takes_the_first_n_images_of_each_directory_and_reports_counts(sketchprep, tmp_path):
    images = tmp_path / "png"
    for folder in ("a", "b"):
        (images / folder).mkdir(parents=True)
        for index in range(4):
            Image.fromarray(np.full((8, 8), 40 * index, dtype=np.uint8)).save(images / folder / f"{index}.png")
    (images / "a" / "9.png").write_bytes(b"not a png")  # past the limit: never read, never rejected
    run(sketchprep, "raster", images / "a", images / "b", "-o", tmp_path / "r.npy", "--size", 8, "--limit", 2,
        "--report-json", tmp_path / "r.json", "-q")
    document = report(tmp_path / "r.json")
    assert (document["command"], document["read"], document["written"], document["rejected"]) == ("raster", 4, 4, 0)
    pixels = np.load(tmp_path / "r.npy")
    assert pixels.shape == (4, 8, 8)
    assert [int(image[0, 0]) for image in pixels] == [0, 40, 0, 40]


def test_encode_and_bitmap_report_json_holds_the_counts_of_the_limited_run(sketchprep, tmp_path):
    for command in ("encode", "bitmap"):
        out = tmp_path / f"{command}.npy"
        run(sketchprep, command, SAMPLE, "-o", out, "--limit", 4, "--report-json", tmp_path / f"{command}.json", "-q")
        document = report(tmp_path / f"{command}.json")
        assert (document["command"], document["read"], document["output"]) == (command, 4 * CATEGORIES, str(out))
        assert np.load(out).shape[0] == document["written"]
