"""No silent wrong dataset (issue 18): every setting that changes the bytes is in the manifest and
in the up-to-date check, a rebuild names what differs, another pipeline's dataset is not replaced
without --force, filters that match nothing stop the run, and one option has one meaning.
"""
import gzip
import json
import subprocess

import pytest

from conftest import REPO, SHARED

PIPELINES = REPO / "Pipelines"
SAMPLE = REPO / "SampleData" / "quickdraw" / "raw"


def run(*args, cwd=None, stdin=None):
    result = subprocess.run([str(a) for a in args], capture_output=True, timeout=180, cwd=cwd, input=stdin)
    assert result.returncode >= 0, f"killed by signal {-result.returncode}"
    return result


def preprocess(sketchprep, out, *extra, pipeline="quickdraw-rnn.yaml", inputs=(SAMPLE,)):
    args = [sketchprep, "preprocess", "--pipeline", PIPELINES / pipeline, "-o", out, "-q"]
    for path in inputs:
        args += ["--input", path]
    return run(*args, *extra)


def test_a_limit_trial_does_not_poison_the_full_run(sketchprep, tmp_path):
    out = tmp_path / "d"
    assert preprocess(sketchprep, out, "--limit", "5").returncode == 0
    trial = json.loads((out / "manifest.json").read_text())
    assert trial["settings"]["record_limit"] == 5
    full = preprocess(sketchprep, out)
    assert full.returncode == 0
    assert b"--limit 5 \xe2\x86\x92 none" in full.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["record_limit"] is None
    assert manifest["records"]["read"] > trial["records"]["read"]
    again = preprocess(sketchprep, out)
    assert b"up to date" in again.stdout
    back = preprocess(sketchprep, out, "--limit", "5")
    assert b"none \xe2\x86\x92 5" in back.stdout
    assert json.loads((out / "manifest.json").read_text())["records"] == trial["records"]


def test_verify_reports_a_dataset_built_with_a_limit(sketchprep, tmp_path):
    out = tmp_path / "d"
    preprocess(sketchprep, out, "--limit", "3")
    result = run(sketchprep, "verify", out)
    assert result.returncode == 0
    assert b"built with --limit 3" in result.stdout


def test_a_changed_pipeline_file_rebuilds_and_says_why(sketchprep, tmp_path):
    pipeline = tmp_path / "p.yaml"
    text = (PIPELINES / "quickdraw-rnn.yaml").read_text()
    pipeline.write_text(text)
    out = tmp_path / "d"
    assert run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE, "-o", out, "-q").returncode == 0
    pipeline.write_text(text + "\n# a comment changes no setting but the file\n")
    result = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE, "-o", out, "-q")
    assert b"pipeline file" in result.stdout and b"changed" in result.stdout
    result = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE, "--category", "cat", "-o", out, "-q")
    assert b"filters.categories" in result.stdout


def test_another_pipelines_dataset_is_not_replaced_without_force(sketchprep, tmp_path):
    out = tmp_path / "d"
    preprocess(sketchprep, out)
    before = (out / "manifest.json").read_bytes()
    refused = preprocess(sketchprep, out, pipeline="quickdraw-bitmap28.yaml")
    assert refused.returncode == 1
    assert b"another pipeline" in refused.stderr and b"--force" in refused.stderr
    assert (out / "manifest.json").read_bytes() == before
    forced = preprocess(sketchprep, out, "--force", pipeline="quickdraw-bitmap28.yaml")
    assert forced.returncode == 0
    assert json.loads((out / "manifest.json").read_text())["pipeline"]["name"] == "quickdraw-bitmap28"


@pytest.mark.parametrize("categories,expected", [
    (["Cat", "dog"], [b"'Cat' matches no record", b"did you mean 'cat'", b"'dog' matches no record"]),
    (["cat", "dgo"], [b"'dgo' matches no record"]),
])
def test_a_category_filter_that_matches_nothing_is_an_error(sketchprep, tmp_path, categories, expected):
    args = []
    for category in categories:
        args += ["--category", category]
    result = preprocess(sketchprep, tmp_path / "d", *args)
    assert result.returncode == 1
    for text in expected:
        assert text in result.stderr
    assert not (tmp_path / "d" / "manifest.json").exists()


def test_a_category_of_another_input_is_an_error(sketchprep, tmp_path):
    result = preprocess(sketchprep, tmp_path / "d", "--category", "dog", inputs=(SAMPLE / "cat.ndjson",))
    assert result.returncode == 1 and b"'dog' matches no record" in result.stderr


@pytest.mark.parametrize("countries,message", [
    ("[USA]", b"not a two-letter country code"),
    ("[us]", b"not a two-letter country code"),
    ("[XQ]", b"'XQ' matches no record"),
])
def test_country_filters_are_checked(sketchprep, tmp_path, countries, message):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"name: c\nsource: {{kind: quickdraw-ndjson}}\nfilters: {{countries: {countries}}}\nencode: {{kind: strokes}}\n")
    result = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE, "-o", tmp_path / "d", "-q")
    assert result.returncode == 1
    assert message in result.stderr


def test_partitions_judge_filters_at_merge(sketchprep, tmp_path):
    parts = []
    for index in range(2):
        part = tmp_path / f"part-{index}"
        result = preprocess(sketchprep, part, "--category", "cat", "--category", "Apple", "--partition", f"{index}/2")
        assert result.returncode == 0, result.stderr.decode()
        parts.append(part)
    merged = run(sketchprep, "merge", *parts, "-o", tmp_path / "d", "-q")
    assert merged.returncode == 1 and b"'Apple' matches no record" in merged.stderr and b"'apple'" in merged.stderr


def test_word_names_the_word_of_stdin_bin_records_and_category_is_deprecated_there(sketchprep, tmp_path):
    ndjson = SAMPLE / "apple.ndjson"
    run(sketchprep, "convert", ndjson, "--to", "bin", "-o", tmp_path / "bin", "-q")
    data = (tmp_path / "bin" / "apple.bin").read_bytes()
    refused = run(sketchprep, "encode", "-", "--format", "bin", "-o", tmp_path / "a.npy", "-q", stdin=data)
    assert refused.returncode != 0 and b"--word" in refused.stderr
    with_word = run(sketchprep, "encode", "-", "--format", "bin", "--word", "apple", "-o", tmp_path / "w.npy", "-q", stdin=data)
    assert with_word.returncode == 0, with_word.stderr.decode()
    old = run(sketchprep, "encode", "-", "--format", "bin", "--category", "apple", "-o", tmp_path / "c.npy", "-q", stdin=data)
    assert old.returncode == 0 and b"deprecated" in old.stderr and b"--word" in old.stderr
    assert (tmp_path / "w.npy").read_bytes() == (tmp_path / "c.npy").read_bytes()


def test_pipelines_name_the_word_as_source_word(sketchprep, tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("source: {kind: quickdraw-ndjson, category: cat}\nencode: {kind: strokes}\n")
    result = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE, "-o", tmp_path / "d", "-q")
    assert result.returncode == 1 and b"source.word" in result.stderr


def test_version_is_printed(sketchprep):
    result = run(sketchprep, "--version")
    assert result.returncode == 0
    version = (REPO / "Sources" / "SketchCore" / "SketchPrepVersion.swift").read_text().split('current = "')[1].split('"')[0]
    assert result.stdout.decode().strip() == version


def test_a_one_character_output_directory_works(sketchprep, tmp_path):
    result = run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input", SAMPLE / "cat.ndjson",
                 "-o", "d", "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / "d" / "manifest.json").exists()


def test_an_image_pipeline_records_what_it_read_and_is_up_to_date_on_the_same_images(sketchprep, tmp_path):
    # The first run hashes each PNG in the map, from the bytes it decodes; the second hashes them up
    # front to compare with the manifest: both must give the same sources.
    import hashlib
    import shutil
    images = tmp_path / "images"
    for word in sorted(p.name for p in (SHARED / "tuberlin" / "train").iterdir())[:2]:
        (images / word).mkdir(parents=True)
        for png in sorted((SHARED / "tuberlin" / "train" / word).glob("*.png"))[:3]:
            shutil.copy(png, images / word / png.name)
    out = tmp_path / "d"
    assert preprocess(sketchprep, out, "--jobs", "2", pipeline="tuberlin-cnn.yaml", inputs=(images,)).returncode == 0
    sources = json.loads((out / "manifest.json").read_text())["sources"]
    expected = [(str(p), p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest()) for p in sorted(images.rglob("*.png"))]
    assert [(s["path"], s["bytes"], s["sha256"]) for s in sources] == expected
    assert b"up to date" in preprocess(sketchprep, out, pipeline="tuberlin-cnn.yaml", inputs=(images,)).stdout
    changed = sorted(images.rglob("*.png"))[1]
    changed.write_bytes(sorted(images.rglob("*.png"))[0].read_bytes())
    rebuilt = preprocess(sketchprep, out, pipeline="tuberlin-cnn.yaml", inputs=(images,))
    assert rebuilt.returncode == 0 and b"up to date" not in rebuilt.stdout
    assert json.loads((out / "manifest.json").read_text())["sources"][1]["sha256"] == expected[0][2]
