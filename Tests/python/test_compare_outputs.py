"""scripts/dev/compare_outputs.py, the byte check of scripts/dev/compare-outputs.sh: it sets aside what
two runs of one binary may differ in (measured times, progress lines) and nothing else."""
import json
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "scripts" / "dev" / "compare_outputs.py"


def tree(root, npy=b"\x93NUMPY\x01\x00data", seconds=0.25, progress="120 drawings, 4567 drawings/s, ETA 1 s, 0.3 s",
         summary="encode: read 120 = written 118 + filtered 0 + rejected 2", rejected=2):
    (root / "log").mkdir(parents=True)
    (root / "out.npy").write_bytes(npy)
    (root / "run.timings.json").write_text(json.dumps({"command": "encode", "items": 120, "seconds": seconds,
                                                         "stages": {"parse": seconds / 2}}))
    (root / "report.json").write_text(json.dumps({"read": 120, "rejected": rejected, "seconds": seconds}))
    (root / "log" / "encode.err").write_text(f"{progress}\n{summary}\n")
    (root / "log" / "encode.rc").write_text("0\n")
    return root


def compare(base, new):
    return subprocess.run([sys.executable, str(SCRIPT), "compare", str(base), str(new)], capture_output=True, text=True)


def test_two_runs_that_differ_only_in_times_rates_and_progress_are_identical(tmp_path):
    base = tree(tmp_path / "base")
    new = tree(tmp_path / "new", seconds=0.5, progress="77 drawings, 3002 drawings/s, ETA 2 s, 0.1 s")
    result = compare(base, new)
    assert result.returncode == 0, result.stdout
    assert "identical" in result.stdout


def test_one_changed_byte_of_an_output_is_found_and_named(tmp_path):
    base = tree(tmp_path / "base")
    new = tree(tmp_path / "new", npy=b"\x93NUMPY\x01\x00dbta")
    result = compare(base, new)
    assert result.returncode == 1
    assert "out.npy: differs" in result.stdout


def test_a_changed_count_in_a_summary_or_a_report_is_found(tmp_path):
    base = tree(tmp_path / "base")
    summary = tree(tmp_path / "summary", summary="encode: read 120 = written 119 + filtered 0 + rejected 1")
    report = tree(tmp_path / "report", rejected=1)
    assert "log/encode.err: differs" in compare(base, summary).stdout
    assert "report.json: differs" in compare(base, report).stdout


def test_a_file_written_by_one_side_only_is_found(tmp_path):
    base = tree(tmp_path / "base")
    new = tree(tmp_path / "new")
    (new / "extra.png").write_bytes(b"png")
    result = compare(base, new)
    assert result.returncode == 1
    assert "extra.png: only in new" in result.stdout
