"""One rule decides raw or simplified, from what the input says, before the times are dropped
(InputFormat.needsSimplification, SketchRecord.kind): convert gives simplify's answer for every raw
drawing, simplify copies simplified drawings through, --input-format is the one override of every
command that simplifies; a run that writes nothing exits 1 saying why; convert --to bin gives a key_id
that is not a uint64 a documented derived one and maps it back in <word>.keys.csv."""
import csv
import json
import struct
import subprocess

from conftest import SHARED
from test_formats import pack_bin, simplified_records

RAW = SHARED / "quickdraw" / "raw"
SIMPLIFIED = SHARED / "quickdraw" / "simplified"
TUBERLIN = SHARED / "tuberlin-svg"


def run(sketchprep, *args, expect=0):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == expect, result.stdout + result.stderr
    return result


def lines(path):
    return [line for line in path.read_text().split("\n") if line]


def is_simplified(drawing):
    return all(len(stroke) == 2 and all(isinstance(v, int) and 0 <= v <= 255 for axis in stroke for v in axis)
               for stroke in drawing)


def test_convert_to_ndjson_gives_simplifys_line_for_every_shared_raw_drawing(sketchprep, tmp_path):
    run(sketchprep, "convert", RAW, "--to", "ndjson", "-o", tmp_path / "convert", "-q", "--jobs", 2)
    run(sketchprep, "simplify", RAW, "-o", tmp_path / "simplify.ndjson", "-q", "--jobs", 2)
    converted = sorted(line for path in (tmp_path / "convert").glob("*.ndjson") for line in lines(path))
    simplified = sorted(lines(tmp_path / "simplify.ndjson"))
    raw_count = sum(len(lines(path)) for path in RAW.glob("*.ndjson"))
    assert len(simplified) == raw_count
    assert converted == simplified
    assert all(is_simplified(json.loads(line)["drawing"]) for line in converted)


def test_simplify_copies_googles_simplified_files_unchanged_and_says_how_many(sketchprep, tmp_path):
    result = run(sketchprep, "simplify", SIMPLIFIED, "-o", tmp_path / "out.ndjson", "--report-json", tmp_path / "r.json", "-q")
    inputs = sorted(SIMPLIFIED.glob("*.ndjson"), key=lambda p: p.name.encode())
    original = [line for path in inputs for line in lines(path)]
    assert lines(tmp_path / "out.ndjson") == original
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["copied"] == report["written"] == len(original)
    assert f"{len(original)} already simplified and copied unchanged" in result.stdout


def test_simplify_of_a_bin_keeps_every_drawing(sketchprep, tmp_path):
    records = {r["key_id"]: r for r in simplified_records("apple")}
    (tmp_path / "apple.bin").write_bytes(pack_bin(records.values()))
    run(sketchprep, "simplify", tmp_path / "apple.bin", "-o", tmp_path / "out.ndjson", "--report-json", tmp_path / "r.json", "-q")
    written = [json.loads(line) for line in lines(tmp_path / "out.ndjson")]
    assert [w["drawing"] for w in written] == [r["drawing"] for r in records.values()]
    assert json.loads((tmp_path / "r.json").read_text())["copied"] == len(records)


def test_input_format_is_the_one_override_of_every_command_that_simplifies(sketchprep, tmp_path):
    cat = SIMPLIFIED / "cat.ndjson"
    run(sketchprep, "simplify", cat, "-o", tmp_path / "forced.ndjson", "--input-format", "raw",
        "--report-json", tmp_path / "r.json", "-q")
    assert json.loads((tmp_path / "r.json").read_text())["copied"] == 0
    assert lines(tmp_path / "forced.ndjson") != lines(cat)
    raw = RAW / "cat.ndjson"
    run(sketchprep, "convert", raw, "--to", "ndjson", "-o", tmp_path / "kept", "--input-format", "simplified", "-q")
    kept = [json.loads(line)["drawing"] for line in lines(tmp_path / "kept" / "cat.ndjson")]
    assert kept == [[stroke[:2] for stroke in json.loads(line)["drawing"]] for line in lines(raw)]
    run(sketchprep, "stats", raw, "-o", tmp_path / "stats", "--input-format", "simplified", "-q")
    for command in ["encode", "bitmap", "convert", "simplify", "stats"]:
        assert "--input-format" in run(sketchprep, command, "--help").stdout, command


def test_a_run_that_writes_nothing_exits_1_saying_why(sketchprep, tmp_path):
    empty = tmp_path / "empty.ndjson"
    empty.write_text("")
    refused = run(sketchprep, "simplify", empty, "-o", tmp_path / "s.ndjson", expect=1)
    assert "no record could be read" in refused.stderr
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("name: empty\nsource:\n  kind: quickdraw-ndjson\nencode:\n  kind: strokes\n")
    refused = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", empty, "-o", tmp_path / "d", "-q", expect=1)
    assert "no record could be read" in refused.stderr
    # Every record rejected: the commonest reason and its count.
    records = simplified_records("apple")[:5]
    bad = tmp_path / "apple.ndjson"
    bad.write_text("".join(json.dumps({**r, "countrycode": "USA"}) + "\n" for r in records))
    refused = run(sketchprep, "convert", bad, "--to", "bin", "-o", tmp_path / "bin", "-q", expect=1)
    assert "all 5 record(s) were rejected" in refused.stderr
    assert "is not N ASCII bytes" in refused.stderr and "(5 of 5)" in refused.stderr
    broken = tmp_path / "broken.ndjson"
    broken.write_text('{"word":"apple"}\n' * 3)
    refused = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", broken, "-o", tmp_path / "d2", "-q", expect=1)
    assert "all 3 record(s) were rejected" in refused.stderr and "(3 of 3)" in refused.stderr


def test_stats_on_a_dataset_directory_points_to_info(sketchprep, tmp_path):
    (tmp_path / "dataset").mkdir()
    (tmp_path / "dataset" / "manifest.json").write_text("{}")
    refused = run(sketchprep, "stats", tmp_path / "dataset", "-o", tmp_path / "stats", expect=1)
    assert f"sketchprep info {tmp_path / 'dataset'}" in refused.stderr


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def bin_key_ids(path):
    data = path.read_bytes()
    keys, offset = [], 0
    while offset < len(data):
        key, _, _, _, strokes = struct.unpack_from("<Q2sBIH", data, offset)
        keys.append(key)
        offset += 17
        for _ in range(strokes):
            (points,) = struct.unpack_from("<H", data, offset)
            offset += 2 + 2 * points
    return keys


def test_convert_to_bin_derives_key_ids_from_svg_keys_and_maps_them_back_in_keys_csv(sketchprep, tmp_path):
    result = run(sketchprep, "convert", TUBERLIN, "--to", "bin", "-o", tmp_path / "bin", "--report-json", tmp_path / "r.json")
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["rejected"] == 0 and report["written"] > 0
    assert "keys.csv" in result.stdout
    for word in sorted(p.name for p in TUBERLIN.iterdir() if p.is_dir()):
        with open(tmp_path / "bin" / f"{word}.keys.csv", newline="") as f:
            rows = list(csv.reader(f))
        assert rows[0] == ["key_id", "original_key_id"]
        originals = sorted(f"{word}/{p.name}" for p in (TUBERLIN / word).glob("*.svg"))
        assert sorted(original for _, original in rows[1:]) == originals
        for key, original in rows[1:]:
            assert int(key) == fnv1a64(original) | 1 << 63
        assert bin_key_ids(tmp_path / "bin" / f"{word}.bin") == [int(key) for key, _ in rows[1:]]
    # Quick, Draw! key_ids are uint64s and are kept: no key map.
    run(sketchprep, "convert", SIMPLIFIED / "cat.ndjson", "--to", "bin", "-o", tmp_path / "bin", "-q")
    assert not (tmp_path / "bin" / "cat.keys.csv").exists()
    assert bin_key_ids(tmp_path / "bin" / "cat.bin") == [int(r["key_id"]) for r in simplified_records("cat")]


def test_a_key_with_a_comma_or_quote_is_quoted_in_keys_csv(sketchprep, tmp_path):
    record = simplified_records("apple")[0]
    keys = ['a,b', 'say "hi"', "plain"]
    (tmp_path / "apple.ndjson").write_text("".join(json.dumps({**record, "key_id": k}) + "\n" for k in keys))
    run(sketchprep, "convert", tmp_path / "apple.ndjson", "--to", "bin", "-o", tmp_path / "bin", "-q")
    text = (tmp_path / "bin" / "apple.keys.csv").read_text()
    assert '"a,b"' in text and '"say ""hi"""' in text
    with open(tmp_path / "bin" / "apple.keys.csv", newline="") as f:
        assert [row[1] for row in list(csv.reader(f))[1:]] == keys


def test_a_derived_key_id_that_another_record_of_the_file_has_is_refused(sketchprep, tmp_path):
    record = simplified_records("apple")[0]
    taken = str(fnv1a64("mine") | 1 << 63)
    (tmp_path / "apple.ndjson").write_text("".join(json.dumps({**record, "key_id": k}) + "\n" for k in [taken, "mine", "other"]))
    result = run(sketchprep, "convert", tmp_path / "apple.ndjson", "--to", "bin", "-o", tmp_path / "bin", "-q")
    assert "read 3 = written 2 + filtered 0 + rejected 1" in result.stdout
    quarantined = lines(tmp_path / "bin.rejected.ndjson")
    assert len(quarantined) == 1 and json.loads(quarantined[0])["key_id"] == "mine"
    assert bin_key_ids(tmp_path / "bin" / "apple.bin") == [int(taken), fnv1a64("other") | 1 << 63]


def test_svg_sketches_converted_to_bin_read_back_as_their_simplified_drawings(sketchprep, tmp_path):
    run(sketchprep, "convert", TUBERLIN, "--to", "bin", "-o", tmp_path / "bin", "-q")
    run(sketchprep, "convert", tmp_path / "bin", "--to", "ndjson", "-o", tmp_path / "back", "-q")
    run(sketchprep, "convert", TUBERLIN, "--to", "stroke3", "-o", tmp_path / "npz", "-q")
    run(sketchprep, "simplify", TUBERLIN, "-o", tmp_path / "simplified.ndjson", "-q")
    simplified = {(r["word"], fnv1a64(r["key_id"]) | 1 << 63): r["drawing"]
                  for r in map(json.loads, lines(tmp_path / "simplified.ndjson"))}
    back = [json.loads(line) for path in (tmp_path / "back").glob("*.ndjson") for line in lines(path)]
    assert len(back) == len(simplified)
    for r in back:
        assert (r["countrycode"], r["timestamp"]) == ("ZZ", "1970-01-01 00:00:00 UTC")
        assert r["drawing"] == simplified[(r["word"], int(r["key_id"]))]


def test_simplify_says_when_copied_drawings_are_not_in_simplified_form(sketchprep, tmp_path):
    # Stroke-3 input is taken as it is: its drawings are copied, and the run says they are not simplified.
    result = run(sketchprep, "simplify", SHARED / "sketchrnn" / "omniglot.npz", "-o", tmp_path / "omniglot.ndjson", "-q")
    written = [json.loads(line)["drawing"] for line in lines(tmp_path / "omniglot.ndjson")]
    unsimplified = sum(not is_simplified(drawing) for drawing in written)
    assert unsimplified > 0
    assert f"simplify: warning: {unsimplified} of the copied drawings are not in Google's simplified form" in result.stderr
    assert "--input-format raw simplifies them" in result.stderr
    # Google's simplified files are copied without a word.
    quiet = run(sketchprep, "simplify", SIMPLIFIED, "-o", tmp_path / "simplified.ndjson", "-q")
    assert "warning" not in quiet.stderr
