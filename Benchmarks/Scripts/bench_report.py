"""The end of a Python benchmark row of `make bench`: its report written as JSON when asked, and its
speed-ups checked against the minimums in THRESHOLDS_DIR/<file> (exit with the ones below)."""
import json
import pathlib
import sys


def finish(label, report, speedups, report_json=None, thresholds=None, thresholds_file=None):
    """Writes `report` to `report_json` (when given) and exits naming every speed-up below its minimum."""
    if report_json:
        path = pathlib.Path(report_json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2) + "\n")
    if thresholds:
        minimums = json.loads((pathlib.Path(thresholds) / thresholds_file).read_text())
        failures = [f"{name} {speedups[name]} < {minimum}" for name, minimum in minimums.items() if speedups[name] < minimum]
        if failures:
            sys.exit(f"{label}: below threshold: {', '.join(failures)}")
