"""End-to-end checks of `sketchprep simplify` and `sketchprep parity` on SampleData."""
import json
import subprocess

from conftest import REPO, SHARED

SAMPLE = REPO / "SampleData" / "quickdraw"
KEY_ORDER = ["word", "countrycode", "timestamp", "recognized", "key_id", "drawing"]


def test_simplify_writes_google_layout_quarantines_bad_lines_and_reconciles(sketchprep, tmp_path):
    raw = tmp_path / "raw.ndjson"
    lines = (SAMPLE / "raw" / "fish.ndjson").read_text().splitlines()[:3]
    raw.write_text("\n".join(lines[:1] + ['{"word":"fish","drawing":"oops"}'] + lines[1:]) + "\n")
    out = tmp_path / "out.ndjson"
    report = tmp_path / "report.json"
    run = subprocess.run([sketchprep, "simplify", raw, "-o", out, "--report-json", report, "--quiet"],
                         capture_output=True, text=True, check=True)
    assert "read 4 = written 3 + rejected 1" in run.stdout
    counts = json.loads(report.read_text())
    assert (counts["read"], counts["written"], counts["rejected"]) == (4, 3, 1)
    assert (tmp_path / "out.rejected.ndjson").read_text() == '{"word":"fish","drawing":"oops"}\n'
    for line in out.read_text().splitlines():
        record = json.loads(line)
        assert list(record) == KEY_ORDER
        assert ", " not in line and ": " not in line
        for xs, ys in record["drawing"]:
            assert all(isinstance(v, int) and 0 <= v <= 255 for v in xs + ys)


def test_parity_reports_rates_and_fails_below_min_exact(sketchprep, tmp_path):
    report = tmp_path / "parity.json"
    args = [sketchprep, "parity", "--raw", SAMPLE / "raw", "--simplified", SAMPLE / "simplified",
            "--report-json", report, "--report-md", tmp_path / "parity.md", "--quiet"]
    subprocess.run(args + ["--min-exact", "0.9"], check=True, capture_output=True)
    result = json.loads(report.read_text())
    assert result["pairs"] == 120
    assert result["exact"] / result["pairs"] == result["exact_rate"] >= 0.9
    assert "# Parity" in (tmp_path / "parity.md").read_text()
    failing = subprocess.run(args + ["--min-exact", "1.0"], capture_output=True, text=True)
    assert failing.returncode != 0 or result["exact_rate"] == 1.0


def test_simplify_matches_the_python_reference_bit_for_bit(sketchprep, tmp_path):
    """The default rule is a port of Tests/python/simplify_reference.py: identical output drawings."""
    import simplify_reference

    raw_dir = SHARED / "quickdraw" / "raw" if (SHARED / "quickdraw" / "raw").is_dir() else SAMPLE / "raw"
    out = tmp_path / "out.ndjson"
    subprocess.run([sketchprep, "simplify", raw_dir, "-o", out, "--quiet"], check=True, capture_output=True)
    ours = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        ours[record["key_id"]] = record["drawing"]
    compared = 0
    for path in sorted(raw_dir.glob("*.ndjson")):
        for line in path.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                assert ours[record["key_id"]] == simplify_reference.simplify_drawing(record["drawing"]), record["key_id"]
                compared += 1
    assert compared == len(ours)
