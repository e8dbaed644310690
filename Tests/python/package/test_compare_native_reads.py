"""`Benchmarks/Scripts/compare_native_reads.py` runs against the installed package: the wheel's own
native library on both sides reads the fixtures' raw drawings and the script reports both medians
and the median of the pairs' ratios (what it measures is not judged here)."""
import pathlib
import re
import subprocess
import sys

import sketchprep

SCRIPT = pathlib.Path(__file__).resolve().parents[3] / "Benchmarks" / "Scripts" / "compare_native_reads.py"


def test_one_library_on_both_sides_reads_every_pair_and_reports_the_ratio(quickdraw):
    library = pathlib.Path(sketchprep.__file__).with_name("libSketchPrepNative.so")
    result = subprocess.run([sys.executable, str(SCRIPT), str(library), str(library), str(quickdraw / "raw"),
                             "--pairs", "4"], capture_output=True, text=True, check=True)
    match = re.search(r"4 pairs: before ([\d.]+) ms, after ([\d.]+) ms \(medians\); after / before ([\d.]+) "
                      r"\(median of the pairs' ratios; quartiles ([\d.]+), ([\d.]+)\)", result.stdout)
    assert match, result.stdout
    before, after, ratio, low, high = map(float, match.groups())
    assert before > 0 and after > 0 and low <= ratio <= high
