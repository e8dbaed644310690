"""`make bench` runs each benchmark with its Python reference in the same invocation; these runs on
SampleData keep both sides working (they check that the figures are produced, not how fast)."""
import json
import subprocess

from conftest import REPO

SAMPLE_RAW = REPO / "SampleData" / "quickdraw" / "raw"


def run_bench(sketchprep, tmp_path, *args):
    report = tmp_path / "bench.json"
    subprocess.run([sketchprep, "bench", *args, str(SAMPLE_RAW), "--passes", "1", "--report-json", str(report)],
                   cwd=REPO, check=True, capture_output=True, text=True)
    return json.loads(report.read_text())


def test_bench_simplify_measures_sketchprep_and_the_python_reference(sketchprep, tmp_path):
    report = run_bench(sketchprep, tmp_path, "simplify", "--large-mb", "0")
    assert report["drawings"] == 120
    assert report["stages"] and all(stage["drawings"] == 120 for stage in report["stages"])
    assert report["python"]["drawings"] == 120


def test_bench_preprocess_measures_sketchprep_and_the_python_reference(sketchprep, tmp_path):
    report = run_bench(sketchprep, tmp_path, "preprocess")
    assert [stage["drawings"] for stage in report["stages"]] == [120, 120]  # encode only, whole pipeline
    assert all(stage["cpu_seconds"] > 0 for stage in report["stages"])
    assert report["python"]["drawings"] == 120
