"""Google .bin and sketch-rnn stroke-3 .npz inputs on the streaming engine: simplify, encode,
bitmap, stats and preprocess read them like NDJSON (each format's plug-in decodes its records on
the engine's workers), with the same output bytes for the same records, for every --jobs."""
import json
import shutil
import subprocess

import numpy as np

from conftest import SHARED
from test_formats import pack_bin, simplified_records

SIMPLIFIED = SHARED / "quickdraw" / "simplified"
WORDS = ["apple", "cat", "The Eiffel Tower"]


def run(sketchprep, *args, expect=0, stdin=None):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, input=stdin)
    assert result.returncode == expect, result.stderr.decode()
    return result


def same_records_as_bin_and_ndjson(tmp_path):
    """The WORDS' simplified drawings as .bin files (an independent struct.pack writer, timestamp
    2017-03-08 21:12:07 UTC) and as NDJSON holding exactly what a .bin holds."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "ndjson").mkdir()
    for word in WORDS:
        records = simplified_records(word)
        (tmp_path / "bin" / f"{word}.bin").write_bytes(pack_bin(records))
        with open(tmp_path / "ndjson" / f"{word}.ndjson", "w") as f:
            for r in records:
                f.write(json.dumps({"word": word, "countrycode": r["countrycode"], "timestamp": "2017-03-08 21:12:07 UTC",
                                    "recognized": r["recognized"], "key_id": r["key_id"], "drawing": r["drawing"]}) + "\n")
    return tmp_path / "bin", tmp_path / "ndjson"


def test_bin_inputs_give_the_bytes_of_the_same_records_as_ndjson_for_every_job_count(sketchprep, tmp_path):
    bins, ndjson = same_records_as_bin_and_ndjson(tmp_path)
    for command, extra, suffix in [("encode", ["--input-format", "simplified"], ".npy"), ("bitmap", [], ".npy"),
                                   ("simplify", [], ".ndjson")]:
        outputs = []
        for inputs, jobs in [(ndjson, 1), (bins, 1), (bins, 2)]:
            out = tmp_path / f"{command}-{inputs.name}-{jobs}{suffix}"
            run(sketchprep, command, inputs, "-o", out, "-q", "--jobs", jobs, *extra)
            outputs.append(out.read_bytes())
        assert outputs[0] == outputs[1] == outputs[2], command
    total = sum(len(simplified_records(w)) for w in WORDS)
    tensors = np.load(tmp_path / "encode-bin-2.npy")
    assert tensors.shape == (total, 75, 3)


def test_stats_counts_bin_records_like_their_ndjson(sketchprep, tmp_path):
    bins, ndjson = same_records_as_bin_and_ndjson(tmp_path)
    run(sketchprep, "stats", bins, "-o", tmp_path / "stats-bin", "-q")
    run(sketchprep, "stats", ndjson, "-o", tmp_path / "stats-ndjson", "-q")
    a = json.loads((tmp_path / "stats-bin" / "stats.json").read_text())
    b = json.loads((tmp_path / "stats-ndjson" / "stats.json").read_text())
    a.pop("inputs", None), b.pop("inputs", None)
    assert a == b
    assert a["totals"]["read"] == sum(len(simplified_records(w)) for w in WORDS)


def test_preprocess_of_bin_writes_the_shards_of_the_same_records_as_ndjson(sketchprep, tmp_path):
    bins, ndjson = same_records_as_bin_and_ndjson(tmp_path)
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("name: formats\nsource:\n  kind: quickdraw-ndjson\nencode:\n  kind: strokes\n"
                        "output:\n  examples_per_shard: 50\n")
    for name, inputs, jobs in [("from-ndjson", ndjson, 1), ("from-bin", bins, 1), ("from-bin2", bins, 2)]:
        run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", inputs, "-o", tmp_path / name, "--jobs", jobs, "-q")
    shards = sorted(p.name for p in (tmp_path / "from-ndjson").iterdir() if p.suffix in (".npy", ".txt"))
    assert shards
    for name in shards:
        assert ((tmp_path / "from-bin" / name).read_bytes() == (tmp_path / "from-ndjson" / name).read_bytes()
                == (tmp_path / "from-bin2" / name).read_bytes())
    manifest = json.loads((tmp_path / "from-bin" / "manifest.json").read_text())
    assert sorted(s["path"].rsplit("/", 1)[-1] for s in manifest["sources"]) == sorted(f"{w}.bin" for w in WORDS)


def test_a_truncated_bin_record_is_quarantined_with_its_byte_offset_and_the_rest_is_read(sketchprep, tmp_path):
    records = simplified_records("apple")
    data = pack_bin(records)
    (tmp_path / "apple.bin").write_bytes(data[:-5])
    result = run(sketchprep, "encode", tmp_path / "apple.bin", "-o", tmp_path / "a.npy", "--jobs", 2)
    assert np.load(tmp_path / "a.npy").shape[0] == len(records) - 1
    quarantined = [json.loads(line) for line in open(tmp_path / "a.rejected.ndjson")]
    assert len(quarantined) == 1
    assert quarantined[0]["byte_offset"] == len(pack_bin(records[:-1]))
    assert quarantined[0]["reason"].startswith(f"record at byte offset {len(pack_bin(records[:-1]))}: truncated")
    assert f"read {len(records)} = written {len(records) - 1} + rejected 1" in result.stdout.decode()


def test_a_bin_on_standard_input_is_read_with_format_and_category(sketchprep, tmp_path):
    data = pack_bin(simplified_records("apple"))
    refused = run(sketchprep, "encode", "-", "--format", "bin", "-o", tmp_path / "a.npy", "-q", expect=1, stdin=data)
    assert b"--word" in refused.stderr
    run(sketchprep, "encode", "-", "--format", "bin", "--word", "apple", "-o", tmp_path / "b.npy", "-q", stdin=data)
    assert np.load(tmp_path / "b.npy").shape[0] == len(simplified_records("apple"))


def test_a_published_stroke3_npz_is_profiled_and_rendered_with_its_own_keys(sketchprep, tmp_path):
    source = SHARED / "sketchrnn" / "short_kanji.npz"
    shutil.copy(source, tmp_path / "kanji.npz")
    arrays = np.load(source, encoding="latin1", allow_pickle=True)
    total = sum(len(arrays[split]) for split in ("train", "valid", "test"))
    run(sketchprep, "stats", tmp_path / "kanji.npz", "-o", tmp_path / "stats", "-q")
    stats = json.loads((tmp_path / "stats" / "stats.json").read_text())
    assert stats["totals"]["read"] == total
    run(sketchprep, "bitmap", tmp_path / "kanji.npz", "-o", tmp_path / "k.npy", "-q", "--limit", 40)
    assert np.load(tmp_path / "k.npy").shape == (40, 784)
