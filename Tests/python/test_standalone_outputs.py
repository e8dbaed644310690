"""Outputs a user can use on their own: `-o -` writes single-file outputs to standard output and
nothing beside a stream, `X.keys.csv` names every row of `encode`/`bitmap`/`raster`'s `X.npy`, a
`*.rejected.*` file appears only when something was rejected, `import-bitmaps` writes classes.txt
and takes -q, and `verify` reports stray files."""
import csv
import io
import json
import subprocess

import numpy as np

from conftest import REPO, SHARED

SAMPLE = REPO / "SampleData" / "quickdraw"
FISH = SAMPLE / "raw" / "fish.ndjson"


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, **kwargs)


def read_keys_csv(path):
    """The rows of a keys file by Python's csv module, and by pandas where it is installed (the same)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    try:
        import pandas
    except ImportError:
        return rows
    frame = pandas.read_csv(path, dtype=str, keep_default_na=False)
    assert [list(frame.columns)] + frame.values.tolist() == rows
    return rows


def test_dash_writes_the_npy_to_standard_output_and_no_file_beside_it(sketchprep, tmp_path):
    for command in (["encode"], ["bitmap"]):
        to_file = run(sketchprep, *command, FISH, "-o", tmp_path / "a.npy", "-q", check=True)
        streamed = run(sketchprep, *command, FISH, "-o", "-", "-q", cwd=tmp_path, check=True)
        assert streamed.stdout == (tmp_path / "a.npy").read_bytes()
        assert np.load(io.BytesIO(streamed.stdout)).shape[0] == 20
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.keys.csv", "a.npy"], to_file.stderr
        for p in tmp_path.iterdir():
            p.unlink()


def test_dash_streams_ndjson_and_rejected_lines_go_only_to_quarantine_when_given(sketchprep, tmp_path):
    broken = tmp_path / "in" / "broken.ndjson"
    broken.parent.mkdir()
    broken.write_text(FISH.read_text().splitlines()[0] + "\n" + '{"word":"fish","drawing":"oops"}\n')
    work = tmp_path / "work"
    work.mkdir()
    streamed = run(sketchprep, "simplify", broken, "-o", "-", "-q", cwd=work, text=True)
    assert streamed.returncode == 0, streamed.stderr
    assert [json.loads(line)["word"] for line in streamed.stdout.splitlines()] == ["fish"]
    assert "rejected 1" in streamed.stderr and list(work.iterdir()) == []
    quarantined = run(sketchprep, "simplify", broken, "-o", "-", "--quarantine", work / "q.ndjson", "-q", cwd=work, text=True)
    assert (work / "q.ndjson").read_text() == '{"word":"fish","drawing":"oops"}\n', quarantined.stderr


def test_dev_stdout_streams_without_a_file_beside_it(sketchprep, tmp_path):
    result = run(sketchprep, "simplify", FISH, "-o", "/dev/stdout", "--report-json", "/dev/stderr", "-q", text=True)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 20
    assert run("sh", "-c", "ls /dev/stdout.* /dev/stderr.* 2>/dev/null").stdout == b""


def test_commands_whose_output_is_a_directory_refuse_dash(sketchprep, tmp_path):
    for args in (["convert", FISH, "--to", "ndjson"], ["stats", FISH], ["import-bitmaps", "--input", tmp_path],
                 ["preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", "--input", FISH]):
        result = run(sketchprep, *args, "-o", "-", cwd=tmp_path, text=True)
        assert result.returncode != 0 and "- (standard output) is refused" in result.stderr, (args, result.stderr)
        assert list(tmp_path.iterdir()) == []


def test_keys_csv_names_every_row_of_encode_and_bitmap(sketchprep, tmp_path):
    lines = FISH.read_text().splitlines()
    odd = json.loads(lines[0])
    odd["key_id"], odd["word"] = "a \"quoted\", key", "fish, \"with\" quotes"
    bad = '{"word":"fish","drawing":"oops"}'
    source = tmp_path / "in.ndjson"
    source.write_text("\n".join([json.dumps(odd), bad] + lines[1:4]) + "\n")
    for command in ("encode", "bitmap"):
        out = tmp_path / f"{command}.npy"
        run(sketchprep, command, source, "-o", out, "-q", check=True)
        rows = read_keys_csv(tmp_path / f"{command}.keys.csv")
        expected = [(odd["key_id"], odd["word"])] + [(json.loads(line)["key_id"], "fish") for line in lines[1:4]]
        assert rows == [["key_id", "word"]] + [list(row) for row in expected]
        assert np.load(out).shape[0] == len(rows) - 1


def test_keys_csv_of_raster_names_each_rows_file(sketchprep, tmp_path):
    pngs = sorted((SHARED / "tuberlin").rglob("*.png"))[:3]
    inputs = tmp_path / "in"
    inputs.mkdir()
    for i, png in enumerate(pngs):
        (inputs / f"img,{i}.png").write_bytes(png.read_bytes())
    (inputs / "broken.png").write_bytes(b"not a png")
    run(sketchprep, "raster", inputs, "-o", tmp_path / "r.npy", "--size", "28", "-q", check=True)
    rows = read_keys_csv(tmp_path / "r.keys.csv")
    assert rows[0] == ["path"] and [r[0].rsplit("/", 1)[-1] for r in rows[1:]] == [f"img,{i}.png" for i in range(len(pngs))]
    assert np.load(tmp_path / "r.npy").shape[0] == len(pngs)
    assert "broken.png" in (tmp_path / "r.rejected.txt").read_text()


def test_a_rejected_file_appears_only_when_something_was_rejected(sketchprep, tmp_path):
    for command, output in (("encode", "e.npy"), ("bitmap", "b.npy"), ("simplify", "s.ndjson")):
        run(sketchprep, command, FISH, "-o", tmp_path / output, "-q", check=True)
    run(sketchprep, "convert", FISH, "--to", "ndjson", "-o", tmp_path / "converted", "-q", check=True)
    run(sketchprep, "stats", FISH, "-o", tmp_path / "stats", "-q", check=True)
    pngs = tmp_path / "pngs"
    pngs.mkdir()
    (pngs / "a.png").write_bytes(sorted((SHARED / "tuberlin").rglob("*.png"))[0].read_bytes())
    run(sketchprep, "raster", pngs, "-o", tmp_path / "r.npy", "-q", check=True)
    assert not [p.name for p in tmp_path.rglob("*rejected*")]


def test_import_bitmaps_takes_quiet_and_writes_classes_txt(sketchprep, tmp_path):
    out = tmp_path / "bitmaps"
    run(sketchprep, "import-bitmaps", "--input", SHARED / "quickdraw" / "bitmap" / "cat.npy", "--row-count", "5",
        "-o", out, "-q", check=True)
    assert (out / "classes.txt").read_text() == "cat\n"
    assert run(sketchprep, "verify", out).returncode == 0


def test_verify_reports_files_neither_the_manifest_nor_the_tool_names(sketchprep, tmp_path):
    out = tmp_path / "ds"
    run(sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", "--input", FISH, "-o", out, "-q",
        check=True)
    assert run(sketchprep, "verify", out).returncode == 0  # classes.txt, quarantine.ndjson, timings.json are its own
    (out / "extra-00000-of-00001.x.npy").write_bytes(b"x")
    (out / "notes.txt").write_text("mine\n")
    result = run(sketchprep, "verify", out, text=True)
    assert result.returncode == 1
    assert "extra-00000-of-00001.x.npy: stray file" in result.stderr and "notes.txt: stray file" in result.stderr


def test_categories_file_is_like_category_with_its_order_checks_and_suggestions(sketchprep, tmp_path):
    pipeline = REPO / "Pipelines" / "quickdraw-rnn.yaml"
    listed = tmp_path / "categories.txt"
    listed.write_text("# two classes, in this order\nfish\n\n  apple  \r\n")
    by_file = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE / "raw", "--categories-file", listed,
                  "-o", tmp_path / "file", "-q", text=True)
    by_option = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE / "raw", "--category", "fish",
                    "--category", "apple", "-o", tmp_path / "option", "-q", text=True)
    assert by_file.returncode == 0 == by_option.returncode, by_file.stderr
    assert (tmp_path / "file" / "classes.txt").read_text() == "fish\napple\n"
    for shard in json.loads((tmp_path / "option" / "manifest.json").read_text())["shards"]:
        assert (tmp_path / "file" / shard["file"]).read_bytes() == (tmp_path / "option" / shard["file"]).read_bytes()
    listed.write_text("fish\nfsh\n")
    typo = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE / "raw", "--categories-file", listed,
               "-o", tmp_path / "typo", "-q", text=True)
    assert typo.returncode == 1 and "category 'fsh' matches no record (did you mean 'fish'" in typo.stderr
    listed.write_text("fish\napple\nfish\n")
    twice = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", SAMPLE / "raw", "--categories-file", listed,
                "-o", tmp_path / "twice", "-q", text=True)
    assert twice.returncode == 1 and "categories.txt:3: 'fish' is listed twice (first on line 1" in twice.stderr
    both = run(sketchprep, "preprocess", "--pipeline", pipeline, "--categories-file", listed, "--category", "fish",
               "-o", tmp_path / "both", text=True)
    assert both.returncode != 0 and "cannot be combined" in both.stderr


def python_info_module():
    """python/sketchprep/commands.py with its package's errors, without the native library the package's
    __init__ loads (the wheel's tests import the installed package)."""
    import importlib
    import sys
    import types
    package = types.ModuleType("sketchprep_source")
    package.__path__ = [str(REPO / "python" / "sketchprep")]
    sys.modules["sketchprep_source"] = package
    return importlib.import_module("sketchprep_source.commands")


def test_info_describes_every_kind_of_dataset_as_text_and_json(sketchprep, tmp_path, monkeypatch):
    pipelines = {"npy": "quickdraw-rnn", "tfrecord": "quickdraw-rnn-tfrecord", "webdataset": "quickdraw-bitmap28-webdataset",
                 "npz": "quickdraw-sketchrnn"}
    python_info = python_info_module()
    monkeypatch.setenv("SKETCHPREP_BIN", str(sketchprep))
    for kind, pipeline in pipelines.items():
        out = tmp_path / kind
        run(sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / f"{pipeline}.yaml", "--input", SAMPLE / "raw",
            "--limit", "5", "-o", out, "-q", check=True)
        manifest = json.loads((out / "manifest.json").read_text())
        text = run(sketchprep, "info", out, "--report-json", tmp_path / f"{kind}.json", text=True, check=True).stdout
        document = json.loads((tmp_path / f"{kind}.json").read_text())
        assert python_info.info(out) == document
        assert document["kind"] == kind and document["pipeline"] == pipeline
        assert document["classes"] == [c["word"] for c in sorted(manifest["classes"], key=lambda c: c["index"])]
        for split in document["splits"]:
            counts = manifest["counts"][split["split"]]
            assert split["examples"] == counts["total"]
            assert {c["word"]: c["examples"] for c in split["per_class"] if c["examples"]} == counts["per_class"]
        assert document["sources"] == manifest["sources"] and document["config"] == manifest["pipeline"]["config"]
        assert document["bytes"] == sum(s["bytes"] for s in manifest["shards"]) == sum((out / s["file"]).stat().st_size
                                                                                     for s in manifest["shards"])
        assert document["sketchprep_version"] == manifest["libraries"]["sketchprep"] and document["record_limit"] == 5
        assert f"{manifest['records']['written']} examples of {len(manifest['classes'])} classes" in text
        assert "The Eiffel Tower" in text and manifest["sources"][0]["sha256"] in text


def test_info_escapes_what_an_untrusted_manifest_says_and_python_raises_its_refusal(sketchprep, tmp_path, monkeypatch):
    out = tmp_path / "ds"
    run(sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", "--input", FISH, "-o", out, "-q",
        check=True)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["classes"][0]["word"] = "fish\x1b[31m"
    manifest["pipeline"]["name"] = "evil\x1b]0;title\x07"
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = run(sketchprep, "info", out, text=True, check=True)
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "fish\\u{1B}[31m" in result.stdout
    python_info = python_info_module()
    monkeypatch.setenv("SKETCHPREP_BIN", str(sketchprep))
    (tmp_path / "empty").mkdir()
    try:
        python_info.info(tmp_path / "empty")
    except ValueError as error:
        assert "manifest.json" in str(error)
    else:
        raise AssertionError("info of a directory without a manifest returned")
    monkeypatch.setenv("SKETCHPREP_BIN", "")
    monkeypatch.setenv("PATH", str(tmp_path))
    try:
        python_info.info(out)
    except ValueError as error:
        assert "SKETCHPREP_BIN" in str(error)
    else:
        raise AssertionError("info without a CLI returned")


def test_from_runs_the_recorded_pipeline_again_to_the_same_bytes_or_names_the_changed_input(sketchprep, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("fish.ndjson", "cat.ndjson"):
        (inputs / name).write_bytes((SAMPLE / "raw" / name).read_bytes())
    first = tmp_path / "first"
    run(sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", "--input", inputs, "--category", "fish",
        "--category", "cat", "--limit", "15", "-o", first, "-q", check=True)
    assert json.loads((first / "manifest.json").read_text())["pipeline"]["text"] == \
        (REPO / "Pipelines" / "quickdraw-rnn.yaml").read_text()
    again = tmp_path / "again"
    rebuilt = run(sketchprep, "preprocess", "--from", first, "-o", again, "-q", text=True)
    assert rebuilt.returncode == 0, rebuilt.stderr
    names = sorted(p.name for p in first.iterdir() if p.name != "timings.json")
    assert names == sorted(p.name for p in again.iterdir() if p.name != "timings.json")
    assert all((first / n).read_bytes() == (again / n).read_bytes() for n in names)
    in_place = run(sketchprep, "preprocess", "--from", first, text=True, check=True)
    assert "up to date" in in_place.stdout
    with open(inputs / "cat.ndjson", "a") as f:
        f.write("\n")
    changed = run(sketchprep, "preprocess", "--from", first, "-o", tmp_path / "changed", text=True)
    assert changed.returncode == 1 and f"input {inputs / 'cat.ndjson'} changed" in changed.stderr
    assert not (tmp_path / "changed").exists()
    mixed = run(sketchprep, "preprocess", "--from", first, "--input", inputs, text=True)
    assert mixed.returncode != 0 and "cannot be combined with --input" in mixed.stderr
