"""--jobs on the streaming commands: simplify, encode, bitmap, raster and parity write the same
bytes (outputs, quarantines, report JSONs) for jobs 1, 2 and 4, and wall-clock times go only to
the *.timings.json next to a report."""
import gzip
import json
import shutil

import numpy as np
import pytest

from conftest import SHARED

RAW = SHARED / "quickdraw" / "raw"
SIMPLIFIED = SHARED / "quickdraw" / "simplified"
TUBERLIN = SHARED / "tuberlin" / "test"
JOBS = (1, 2, 4)


def run(sketchprep, *args):
    import subprocess
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def mixed_input(tmp_path_factory):
    """Raw drawings of three categories in plain and gzip files, with bad lines among them."""
    directory = tmp_path_factory.mktemp("mixed")
    files = sorted(RAW.glob("*.ndjson"))[:3]
    for index, path in enumerate(files):
        lines = path.read_text().splitlines()
        lines.insert(5, '{"word":"cat","drawing":[[[1,2],[3]]]}')
        lines.insert(len(lines) // 2, "not json")
        lines.insert(7, "")
        text = "\n".join(lines) + "\n"
        if index == 1:
            with gzip.open(directory / f"{index}.ndjson.gz", "wt") as handle:
                handle.write(text)
        else:
            (directory / f"{index}.ndjson").write_text(text)
    return directory


def outputs_for_every_job_count(tmp_path, make_args, names):
    """Runs the command for each job count into its own directory; returns {name: [bytes per jobs]}."""
    contents = {name: [] for name in names}
    for jobs in JOBS:
        out = tmp_path / f"jobs{jobs}"
        out.mkdir()
        make_args(out, jobs)
        for name in names:
            contents[name].append((out / name).read_bytes())
    return contents


def test_simplify_bytes_and_report_are_identical_for_every_job_count(sketchprep, tmp_path, mixed_input):
    def simplify(out, jobs):
        run(sketchprep, "simplify", mixed_input, "-o", out / "s.ndjson", "--report-json", out / "report.json",
            "-q", "--jobs", jobs)
    contents = outputs_for_every_job_count(tmp_path, simplify, ["s.ndjson", "s.rejected.ndjson"])
    for name, versions in contents.items():
        assert all(version == versions[0] for version in versions), name
    assert contents["s.rejected.ndjson"][0].count(b"\n") == 6
    reports = [json.loads((tmp_path / f"jobs{jobs}" / "report.json").read_text()) for jobs in JOBS]
    for report in reports:
        assert "seconds" not in report
        report.pop("output"), report.pop("quarantine")
        assert report == reports[0]
    assert reports[0]["rejected"] == 6 and reports[0]["written"] + 6 == reports[0]["read"]
    timings = json.loads((tmp_path / "jobs2" / "report.timings.json").read_text())
    assert timings["jobs"] == 2 and timings["seconds"] > 0 and timings["command"] == "simplify"


def test_encode_and_bitmap_bytes_are_identical_for_every_job_count(sketchprep, tmp_path, mixed_input):
    def encode_and_render(out, jobs):
        run(sketchprep, "encode", mixed_input, "-o", out / "t.npy", "-q", "-j", jobs)
        run(sketchprep, "bitmap", mixed_input, "-o", out / "b.npy", "-q", "-j", jobs)
    contents = outputs_for_every_job_count(tmp_path, encode_and_render,
                                           ["t.npy", "t.rejected.ndjson", "b.npy", "b.rejected.ndjson"])
    for name, versions in contents.items():
        assert all(version == versions[0] for version in versions), name
    tensors = np.load(tmp_path / "jobs4" / "t.npy")
    bitmaps = np.load(tmp_path / "jobs4" / "b.npy")
    assert tensors.shape[1:] == (75, 3) and bitmaps.shape[1] == 784 and len(tensors) == len(bitmaps) > 0


def test_bitmap_of_official_files_matches_googles_bitmaps_with_two_jobs(sketchprep, tmp_path):
    # The shared simplified files hold the first 25 drawings of Google's bitmap files.
    classes = ["apple", "bicycle", "bowtie", "cat", "diamond", "eye", "fish", "lollipop", "rainbow"]
    run(sketchprep, "bitmap", *(SIMPLIFIED / f"{c}.ndjson" for c in classes), "-o", tmp_path / "b.npy", "-q", "-j", "2")
    ours = np.load(tmp_path / "b.npy")
    google = np.concatenate([np.load(SHARED / "quickdraw" / "bitmap" / f"{c}.npy").reshape(-1, 784)[:25] for c in classes])
    assert ours.shape == google.shape and np.array_equal(ours, google)


def test_raster_bytes_are_identical_for_every_job_count(sketchprep, tmp_path):
    images = tmp_path / "images"
    shutil.copytree(TUBERLIN, images)
    broken = next(images.rglob("*.png"))
    broken.write_bytes(broken.read_bytes()[:100])

    def raster(out, jobs):
        run(sketchprep, "raster", images, "-o", out / "r.npy", "--size", "48", "-q", "-j", jobs)
    contents = outputs_for_every_job_count(tmp_path, raster, ["r.npy", "r.rejected.txt"])
    for name, versions in contents.items():
        assert all(version == versions[0] for version in versions), name
    assert contents["r.rejected.txt"][0].decode().strip() == str(broken)


def test_parity_report_is_identical_for_every_job_count(sketchprep, tmp_path):
    def parity(out, jobs):
        run(sketchprep, "parity", "--raw", RAW, "--simplified", SIMPLIFIED, "--report-json", out / "parity.json",
            "--report-md", out / "parity.md", "-q", "-j", jobs)
    contents = outputs_for_every_job_count(tmp_path, parity, ["parity.json", "parity.md"])
    for name, versions in contents.items():
        assert all(version == versions[0] for version in versions), name
    report = json.loads(contents["parity.json"][0])
    assert "seconds" not in report and report["pairs"] > 0
    timings = json.loads((tmp_path / "jobs4" / "parity.timings.json").read_text())
    assert timings["jobs"] == 4 and timings["seconds"] > 0
