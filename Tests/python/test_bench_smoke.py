"""`make bench` runs the Benchmarks/ package's runner, which times sketchprep next to its Python
reference in the same run; these runs on SampleData keep both sides working (they check that the
figures and speed-ups are produced and that thresholds are enforced, not how fast anything is)."""
import json
import subprocess

import pytest

from conftest import REPO

SAMPLE_RAW = REPO / "SampleData" / "quickdraw" / "raw"


@pytest.fixture(scope="session")
def benchmarks(sketchprep):
    """Path to the release-built benchmark runner (its own package, depending on this one)."""
    subprocess.run(["swift", "build", "-c", "release", "--package-path", "Benchmarks"], cwd=REPO, check=True)
    return REPO / "Benchmarks" / ".build" / "release" / "sketchprep-benchmarks"


def run_bench(benchmarks, sketchprep, tmp_path, *args, check=True):
    report = tmp_path / "bench.json"
    result = subprocess.run([benchmarks, *args, str(SAMPLE_RAW), "--sketchprep", sketchprep, "--passes", "1",
                             "--work-dir", tmp_path, "--report-json", report],
                            cwd=REPO, check=check, capture_output=True, text=True)
    return (json.loads(report.read_text()) if report.exists() else None), result


def test_simplify_measures_sketchprep_and_the_python_reference(benchmarks, sketchprep, tmp_path):
    report, _ = run_bench(benchmarks, sketchprep, tmp_path, "simplify", "--large-mb", "1")
    assert report["drawings"] == 120
    assert [stage["drawings"] for stage in report["stages"]] == [120, 120, 120]  # parse, simplify, command
    assert report["python"]["drawings"] == 120
    assert report["large"]["drawings"] >= 120 and report["large"]["peak_rss_bytes"] > 0
    assert set(report["speed_ups"]) == {"simplify_command_cpu", "simplify_in_process_cpu", "simplify_large_command_cpu"}
    assert all(value > 0 for value in report["speed_ups"].values())


def test_preprocess_measures_sketchprep_and_the_python_reference(benchmarks, sketchprep, tmp_path):
    report, _ = run_bench(benchmarks, sketchprep, tmp_path, "preprocess")
    assert report["stages"][0]["drawings"] == 120 and report["stages"][0]["cpu_seconds"] > 0
    assert report["python"]["drawings"] == 120
    assert report["speed_ups"]["preprocess_command_cpu"] > 0


def test_checked_in_thresholds_name_the_speed_ups_the_benchmarks_produce():
    produced = {"simplify": {"simplify_command_cpu", "simplify_in_process_cpu", "simplify_large_command_cpu"},
                "preprocess": {"preprocess_command_cpu"}, "raster": {"render_28", "png_decode_resample"},
                "formats": {"bin_read_vs_ndjson_read", "bin_write_vs_ndjson_write", "stroke3_write_vs_ndjson_write",
                            "bin_read_vs_python_quickdraw", "stroke3_read_write_vs_python_np_load"}
                | {f"{name}_{measure}_vs_ndjson_per_core" for name in ["bin", "stroke3", "csv", "svg"]
                   for measure in ["encode", "read_decode"]}}
    for benchmark, names in produced.items():
        thresholds = json.loads((REPO / "Benchmarks" / "Thresholds" / f"{benchmark}.json").read_text())
        assert set(thresholds) == names and all(value > 0 for value in thresholds.values())


def test_a_speed_up_below_its_threshold_fails_the_run(benchmarks, sketchprep, tmp_path):
    thresholds = tmp_path / "thresholds"
    thresholds.mkdir()
    (thresholds / "preprocess.json").write_text('{"preprocess_command_cpu": 1e9}')
    _, result = run_bench(benchmarks, sketchprep, tmp_path, "preprocess", "--thresholds", thresholds, check=False)
    assert result.returncode == 1
    assert "preprocess_command_cpu" in result.stderr and "BELOW THRESHOLD" in result.stdout
