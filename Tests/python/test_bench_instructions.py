"""`make bench-instructions` runs the Benchmarks/ runner's `instructions`: sketchprep's read path counted
under valgrind's callgrind, checked against Benchmarks/Thresholds/instructions.json. One run on one
SampleData file checks that every figure is produced and that a figure above its baseline's tolerance
fails the run (not what the figures are: `make bench-instructions` checks those)."""
import json
import subprocess

from conftest import REPO
from test_bench_smoke import SAMPLE_RAW, benchmarks  # noqa: F401 (the runner's fixture)

FIGURES = {"simplify_command_startup", "simplify_command", "simplify_command_per_drawing", "preprocess_command",
           "simplify_in_process_per_drawing"}


def test_checked_in_baselines_name_the_figures_the_runner_produces():
    budget = json.loads((REPO / "Benchmarks" / "Thresholds" / "instructions.json").read_text())
    assert set(budget["baselines"]) == FIGURES and all(count > 0 for count in budget["baselines"].values())
    assert budget["tolerance_percent"] == 5


def test_every_figure_is_counted_and_one_above_its_tolerance_fails_the_run(benchmarks, sketchprep, tmp_path):  # noqa: F811
    thresholds = tmp_path / "thresholds"
    thresholds.mkdir()
    (thresholds / "instructions.json").write_text(json.dumps({
        "tolerance_percent": 5, "recorded": "test",
        "baselines": {"simplify_command_startup": 1000, "simplify_in_process_per_drawing": 10 ** 12}}))
    report = tmp_path / "instructions.json"
    result = subprocess.run([benchmarks, "instructions", SAMPLE_RAW / "apple.ndjson", "--sketchprep", sketchprep,
                             "--work-dir", tmp_path / "work", "--thresholds", thresholds, "--report-json", report],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "simplify_command_startup" in result.stderr and "REGRESSION" in result.stdout
    assert "improved" in result.stdout  # far below its baseline: reported, not a failure
    figures = json.loads(report.read_text())
    assert figures["drawings"] == 20 and figures["valgrind"].startswith("valgrind-")
    counts = figures["instructions"]
    assert set(counts) == FIGURES and all(count > 0 for count in counts.values())
    # Reading, parsing and writing a drawing cost more than simplifying it alone.
    assert counts["simplify_command_per_drawing"] > counts["simplify_in_process_per_drawing"]
    assert counts["simplify_command_startup"] < counts["simplify_command"] < counts["preprocess_command"]
