"""One command-line vocabulary: `--limit N` reads the first N records of each input and
`--report-json FILE` writes the run's counts (timings beside it) on every data command, with the
same meaning everywhere."""
import json
import subprocess

import numpy as np
import pytest

from conftest import REPO, SHARED

RAW = REPO / "SampleData" / "quickdraw" / "raw"  # 6 files of 20 drawings
TUBERLIN = SHARED / "tuberlin"


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def counts(path):
    report = json.loads(path.read_text())
    timings = json.loads(path.with_name(path.stem + ".timings.json").read_text())
    assert timings["items"] == report["read"] and timings["seconds"] >= 0
    return report


@pytest.mark.parametrize("command,output", [("encode", "out.npy"), ("bitmap", "out.npy"), ("simplify", "out.ndjson"),
                                            ("stats", "stats"), ("convert", "converted")])
def test_limit_and_report_json_mean_the_same_on_every_drawing_command(sketchprep, tmp_path, command, output):
    extra = ["--to", "bin"] if command == "convert" else []
    run(sketchprep, command, RAW, "-o", tmp_path / output, "-q", "--limit", 3, "--report-json", tmp_path / "report.json", *extra)
    report = counts(tmp_path / "report.json")
    assert report["read"] == 6 * 3 and report["written"] == 6 * 3 and report["rejected"] == 0
    if command in ("encode", "bitmap"):
        assert np.load(tmp_path / output).shape[0] == 18


def test_report_json_is_the_same_for_every_job_count(sketchprep, tmp_path):
    for jobs in (1, 2):
        (tmp_path / str(jobs)).mkdir()
        run(sketchprep, "encode", RAW, "-o", tmp_path / str(jobs) / "e.npy", "-q", "--jobs", jobs,
            "--report-json", tmp_path / str(jobs) / "r.json")
    first, second = ((tmp_path / str(j) / "r.json").read_text().replace(f"/{j}/", "/J/") for j in (1, 2))
    assert first == second


def test_raster_limit_takes_the_first_images_of_each_input_directory(sketchprep, tmp_path):
    directories = sorted(p for p in (TUBERLIN / "train").iterdir() if p.is_dir())[:2]
    run(sketchprep, "raster", *directories, "-o", tmp_path / "r.npy", "-q", "--size", 28, "--limit", 4,
        "--report-json", tmp_path / "report.json")
    assert np.load(tmp_path / "r.npy").shape == (8, 28, 28)
    assert counts(tmp_path / "report.json")["written"] == 8


def test_a_report_path_that_clashes_with_the_output_is_refused(sketchprep, tmp_path):
    result = subprocess.run([str(sketchprep), "encode", RAW, "-o", tmp_path / "x.npy", "--report-json", tmp_path / "x.npy"],
                            capture_output=True, text=True)
    assert result.returncode != 0 and "--report-json" in result.stderr


def option_help(sketchprep, command, option):
    """The help text of `option` in `sketchprep COMMAND --help`, whitespace normalised."""
    lines = run(sketchprep, command, "--help").stdout.splitlines()
    options = next(i for i, line in enumerate(lines) if line.startswith("OPTIONS:"))
    start = next(i for i in range(options, len(lines)) if option in lines[i].split(maxsplit=2)[:2])
    text = [lines[start].split(option, 1)[1]]
    for line in lines[start + 1:]:
        if not line.strip() or line.lstrip().startswith("-"):
            break
        text.append(line)
    return " ".join(" ".join(text).split())


@pytest.mark.parametrize("option,commands", [
    ("--quiet", ["simplify", "encode", "bitmap", "raster", "parity", "stats", "convert", "preprocess", "merge"]),
    ("--report-json", ["simplify", "encode", "bitmap", "raster", "parity", "stats", "convert", "verify"]),
])
def test_quiet_and_report_json_are_one_option_with_one_help_text_on_every_command(sketchprep, option, commands):
    texts = {command: option_help(sketchprep, command, option) for command in commands}
    assert len(set(texts.values())) == 1, texts
