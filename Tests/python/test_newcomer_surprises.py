"""What surprised a newcomer walking through the README on the shared data (docs/limits.md, "Exit status
of the data commands"): a run that writes nothing leaves an earlier output as it was; every command's
summary goes where the others' go."""
import hashlib
import subprocess

from conftest import REPO, SHARED

RAW_CAT = SHARED / "quickdraw" / "raw" / "cat.ndjson"
PNG_DIRECTORY = SHARED / "tuberlin" / "train" / "ant"


def run(sketchprep, *args, expect=0):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == expect, result.stdout + result.stderr
    return result


def digests(paths):
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}


def test_a_run_that_writes_nothing_leaves_an_earlier_output_as_it_was(sketchprep, tmp_path):
    empty = tmp_path / "empty.ndjson"
    empty.write_text("")
    not_png = tmp_path / "not.png"
    not_png.write_text("not a PNG\n")
    cases = [
        ("simplify", RAW_CAT, empty, "out.ndjson", ["out.ndjson"]),
        ("encode", RAW_CAT, empty, "out.npy", ["out.npy", "out.keys.csv"]),
        ("bitmap", RAW_CAT, empty, "out.npy", ["out.npy", "out.keys.csv"]),
        ("raster", PNG_DIRECTORY, not_png, "out.npy", ["out.npy", "out.keys.csv"]),
        ("stats", RAW_CAT, empty, "stats", ["stats/stats.json", "stats/stats.md", "stats/stats.html"]),
    ]
    for command, good, bad, output, files in cases:
        directory = tmp_path / command
        directory.mkdir()
        run(sketchprep, command, good, "-o", directory / output, "-q", "--limit", 5)
        before = digests(directory / name for name in files)
        refused = run(sketchprep, command, bad, "-o", directory / output, "-q", expect=1)
        assert "no record could be read" in refused.stderr or "were rejected" in refused.stderr, command
        assert digests(directory / name for name in files) == before, command


def test_encode_prints_its_summary_where_every_command_does(sketchprep, tmp_path):
    for command in ["encode", "bitmap", "simplify"]:
        to_file = run(sketchprep, command, RAW_CAT, "-o", tmp_path / f"{command}.out", "-q")
        assert to_file.stdout.startswith(f"{command}: read 34 = written 34"), command
        to_stream = subprocess.run([str(sketchprep), command, str(RAW_CAT), "-o", "-", "-q"], capture_output=True)
        assert to_stream.returncode == 0 and f"{command}: read 34 = written 34".encode() in to_stream.stderr, command


def test_parity_that_compares_nothing_fails_and_simplified_raw_input_is_named(sketchprep, tmp_path):
    simplified = SHARED / "quickdraw" / "simplified" / "cat.ndjson"
    empty = tmp_path / "empty.ndjson"
    empty.write_text("")
    refused = run(sketchprep, "parity", "--raw", empty, "--simplified", simplified, "-q", expect=1)
    assert "no drawing was compared" in refused.stderr
    pairs = len(simplified.read_text().splitlines())
    warned = run(sketchprep, "parity", "--raw", simplified, "--simplified", simplified, "-q")
    assert f"{pairs} of the {pairs} compared --raw drawings are already simplified" in warned.stderr
    clean = run(sketchprep, "parity", "--raw", RAW_CAT, "--simplified", simplified, "-q")
    assert "already simplified" not in clean.stderr


def test_convert_of_stroke3_to_bin_names_input_format_raw_when_a_drawing_does_not_fit(sketchprep, tmp_path):
    omniglot = SHARED / "sketchrnn" / "omniglot.npz"
    refused = run(sketchprep, "convert", omniglot, "--to", "bin", "-o", tmp_path / "bin", "--limit", 5, expect=1)
    assert "--input-format raw simplifies it first" in refused.stderr
    run(sketchprep, "convert", omniglot, "--to", "bin", "-o", tmp_path / "bin", "--limit", 5, "--input-format", "raw", "-q")


def test_info_names_the_sketchprep_version_that_imported_bitmaps(sketchprep, tmp_path):
    run(sketchprep, "import-bitmaps", "--input", SHARED / "quickdraw" / "bitmap" / "cat.npy", "-o", tmp_path / "cat", "-q")
    version = run(sketchprep, "--version").stdout.strip()
    assert f"written by sketchprep {version}," in run(sketchprep, "info", tmp_path / "cat").stdout


def test_stroke3_records_come_in_the_zips_entry_order(sketchprep, tmp_path):
    import zipfile
    omniglot = SHARED / "sketchrnn" / "omniglot.npz"
    entries = [name[:-len(".npy")] for name in zipfile.ZipFile(omniglot).namelist()]
    streamed = run(sketchprep, "simplify", omniglot, "-o", "-", "-q").stdout
    splits = []
    for line in streamed.splitlines():
        split = line.split('"key_id":"omniglot.npz#', 1)[1].split("#", 1)[0]
        if not splits or splits[-1] != split:
            splits.append(split)
    assert splits == entries


def test_simplify_help_names_every_format_a_directory_gives(sketchprep):
    help_text = " ".join(run(sketchprep, "simplify", "--help").stdout.split())
    assert "their NDJSON, .bin, stroke-3 .npz and Kaggle CSV files, and SVG sketches below them" in help_text
    assert "Drawing inputs: NDJSON, Google .bin, stroke-3 .npz, Kaggle CSV or SVG files" in help_text


def test_from_run_elsewhere_names_the_manifest_and_where_to_run_it(sketchprep, tmp_path):
    pipeline = REPO / "Pipelines" / "quickdraw-rnn.yaml"
    (tmp_path / "made").mkdir()
    (tmp_path / "made" / "cat.ndjson").write_bytes(RAW_CAT.read_bytes())
    subprocess.run([str(sketchprep), "preprocess", "--pipeline", str(pipeline), "--input", "cat.ndjson", "-o", "ds", "-q"],
                   cwd=tmp_path / "made", check=True, capture_output=True)
    refused = subprocess.run([str(sketchprep), "preprocess", "--from", str(tmp_path / "made" / "ds"), "-o", "again"],
                             cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode == 1
    assert f"{tmp_path / 'made' / 'ds'}/manifest.json: input cat.ndjson of the recorded run not found" in refused.stderr
    assert "run --from in the directory the dataset was made from" in refused.stderr


def test_info_and_verify_on_a_file_or_a_missing_path_say_so(sketchprep, tmp_path):
    for command in ["info", "verify"]:
        on_file = run(sketchprep, command, RAW_CAT, expect=1)
        assert f"{RAW_CAT} is not a directory: give the dataset directory, the one holding manifest.json" in on_file.stderr
        missing = run(sketchprep, command, tmp_path / "nowhere", expect=1)
        assert f"{tmp_path / 'nowhere'} not found" in missing.stderr


def test_contact_sheet_refuses_a_webdataset_dataset_naming_it(sketchprep, tmp_path):
    pipeline = REPO / "Pipelines" / "quickdraw-bitmap28-webdataset.yaml"
    run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", RAW_CAT, "-o", tmp_path / "wds", "-q")
    refused = run(sketchprep, "contact-sheet", tmp_path / "wds", "-o", tmp_path / "sheet.png", expect=1)
    assert f"{tmp_path / 'wds'} is a WebDataset dataset, which contact-sheet cannot draw" in refused.stderr


def test_the_summary_of_a_run_that_writes_nothing_says_nothing_was_written(sketchprep, tmp_path):
    empty = tmp_path / "empty.ndjson"
    empty.write_text("")
    for command, output in [("simplify", "out.ndjson"), ("encode", "out.npy"), ("bitmap", "out.npy"), ("stats", "stats")]:
        refused = run(sketchprep, command, empty, "-o", tmp_path / output, "-q", expect=1)
        assert f"→ nothing written to {tmp_path / output}" in refused.stdout, command
    not_png = tmp_path / "not.png"
    not_png.write_text("not a PNG\n")
    refused = run(sketchprep, "raster", not_png, "-o", tmp_path / "r.npy", "-q", expect=1)
    assert f"→ nothing written to {tmp_path / 'r.npy'}" in refused.stdout
