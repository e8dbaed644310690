"""Kaggle's competition CSVs read like NDJSON: a CSV written from the shared NDJSON with Python's
csv module (str() of the stroke lists, as Kaggle's files were made) gives the same simplified
output, stroke tensors and rasters as the NDJSON itself; test files take --word; bad rows are
quarantined with their line; convert --to ndjson writes Google's layout."""
import csv
import json
import subprocess

import numpy as np

from conftest import SHARED
from kaggle_csv_reference import TRAIN_HEADER, write_train_csv

WORDS = ["cat", "apple"]


def run(sketchprep, *args, ok=True):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    if ok:
        assert result.returncode == 0, result.stderr
    return result


def records(kind, word):
    return [json.loads(line) for line in open(SHARED / "quickdraw" / kind / f"{word}.ndjson") if line.strip()]


def inputs(tmp_path, kind):
    ndjson, kaggle = tmp_path / f"{kind}-ndjson", tmp_path / f"train_{kind}"
    ndjson.mkdir()
    kaggle.mkdir()
    for word in WORDS:
        (ndjson / f"{word}.ndjson").write_bytes((SHARED / "quickdraw" / kind / f"{word}.ndjson").read_bytes())
        write_train_csv(kaggle / f"{word}.csv", records(kind, word))
    return ndjson, kaggle


def test_csv_from_the_shared_ndjson_gives_the_same_simplified_output_tensors_and_rasters(sketchprep, tmp_path):
    for kind in ["raw", "simplified"]:
        ndjson, kaggle = inputs(tmp_path, kind)
        for name, source in [("ndjson", ndjson), ("csv", kaggle)]:
            run(sketchprep, "simplify", source, "-o", tmp_path / f"{kind}-{name}.ndjson", "-q")
            run(sketchprep, "encode", source, "-o", tmp_path / f"{kind}-{name}-tensors.npy", "-q")
            run(sketchprep, "bitmap", source, "-o", tmp_path / f"{kind}-{name}-bitmaps.npy", "-q")
            run(sketchprep, "convert", source, "--to", "ndjson", "-o", tmp_path / f"{kind}-{name}-converted", "-q")
        for suffix in [".ndjson", "-tensors.npy", "-bitmaps.npy"]:
            assert (tmp_path / f"{kind}-csv{suffix}").read_bytes() == (tmp_path / f"{kind}-ndjson{suffix}").read_bytes(), suffix
        for word in WORDS:
            converted = tmp_path / f"{kind}-csv-converted" / f"{word}.ndjson"
            assert converted.read_bytes() == (tmp_path / f"{kind}-ndjson-converted" / f"{word}.ndjson").read_bytes()
    assert len(np.load(tmp_path / "raw-csv-bitmaps.npy")) == sum(len(records("raw", w)) for w in WORDS)


def test_a_pipeline_reads_csv_by_content_or_by_file_format_and_writes_the_ndjson_shards(sketchprep, tmp_path):
    ndjson, kaggle = inputs(tmp_path, "simplified")
    renamed = tmp_path / "renamed.txt"
    renamed.write_bytes((kaggle / "cat.csv").read_bytes())
    for name, source, file_format in [("ndjson", ndjson / "cat.ndjson", ""), ("csv", renamed, "  file_format: csv\n")]:
        pipeline = tmp_path / f"{name}.yaml"
        pipeline.write_text(f"source:\n  kind: quickdraw-ndjson\n{file_format}encode: {{kind: strokes}}\noutput: {{format: npy}}\n")
        run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", source, "-o", tmp_path / f"out-{name}", "--jobs", 2, "-q")
    for shard in (tmp_path / "out-ndjson").glob("*-of-*"):
        assert (tmp_path / "out-csv" / shard.name).read_bytes() == shard.read_bytes()


def test_test_files_need_a_word_and_take_it_from_the_option(sketchprep, tmp_path):
    rows = records("simplified", "cat")
    test_file = tmp_path / "test_simplified.csv"
    with open(test_file, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["key_id", "countrycode", "drawing"])
        for r in rows:
            writer.writerow([r["key_id"], r["countrycode"], str(r["drawing"])])
    refused = run(sketchprep, "simplify", test_file, "-o", tmp_path / "none.ndjson", ok=False)
    assert refused.returncode != 0 and "--word" in refused.stderr + refused.stdout
    run(sketchprep, "convert", test_file, "--word", "cat", "--to", "ndjson", "-o", tmp_path / "out", "-q")
    written = [json.loads(line) for line in open(tmp_path / "out" / "cat.ndjson")]
    assert [w["key_id"] for w in written] == [r["key_id"] for r in rows]
    assert all(w["word"] == "cat" and w["recognized"] is True and w["timestamp"] == "" for w in written)


def test_bad_rows_are_quarantined_with_their_line_and_the_rest_read(sketchprep, tmp_path):
    rows = records("simplified", "cat")[:5]
    path = tmp_path / "cat.csv"
    write_train_csv(path, rows)
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(3, 'US,"[[[1, 2], [3, 4]]],""word"":""x""",1,True,2017-01-01 00:00:00,cat\n')  # an attempt to add a key
    lines.insert(5, 'US,"[[[1, 2], [3, 4]]]",2,Maybe,2017-01-01 00:00:00,cat\n')
    path.write_text("".join(lines))
    quarantine = tmp_path / "q.ndjson"
    result = run(sketchprep, "simplify", path, "-o", tmp_path / "out.ndjson", "--quarantine", quarantine)
    assert "read 7 = written 5 + rejected 2" in result.stdout
    assert "cat.csv:4: drawing is not a list of stroke lists of numbers" in result.stderr
    assert 'cat.csv:6: recognized is "Maybe", not True or False' in result.stderr
    assert quarantine.read_text().splitlines() == [lines[3].rstrip("\n"), lines[5].rstrip("\n")]  # the rows as they were
