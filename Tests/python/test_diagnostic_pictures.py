"""`sketchprep contact-sheet` on every input kind, and `sketchprep parity --overlays` linking PNG
overlays of the worst drawings from the Markdown report."""
import re
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED

QUICKDRAW = SHARED / "quickdraw"
pytestmark = pytest.mark.skipif(not QUICKDRAW.is_dir(), reason="shared data not present")


def sheet(sketchprep, tmp_path, *inputs, limit=12, columns=4, cell=64):
    out = tmp_path / "sheet.png"
    subprocess.run([sketchprep, "contact-sheet", *map(str, inputs), "-o", out, "--limit", str(limit),
                    "--columns", str(columns), "--cell", str(cell)], check=True, capture_output=True)
    return np.asarray(Image.open(out).convert("L"))


def test_contact_sheet_draws_a_grid_from_drawings_arrays_and_pngs(sketchprep, tmp_path):
    vector = sheet(sketchprep, tmp_path, QUICKDRAW / "simplified" / "cat.ndjson")
    assert vector.shape == (3 * (64 + 16), 4 * 64)
    assert (vector < 128).any() and (vector > 250).mean() > 0.5  # ink on a white sheet
    bitmaps = np.load(QUICKDRAW / "bitmap" / "cat.npy").reshape(-1, 28, 28)[:6]
    np.save(tmp_path / "cats.npy", bitmaps)
    raster = sheet(sketchprep, tmp_path, tmp_path / "cats.npy", limit=6, columns=3)
    assert raster.shape == (2 * (64 + 16), 3 * 64)
    assert (raster[2:62, 2:62] == 0).mean() > 0.3  # Google's black background, scaled into the cell
    pngs = sheet(sketchprep, tmp_path, SHARED / "tuberlin" / "test" / "cat", limit=4)
    assert pngs.shape == (64 + 16, 4 * 64)


def test_parity_overlays_are_written_and_linked_from_the_report(sketchprep, tmp_path):
    report = tmp_path / "report" / "parity.md"
    overlays = tmp_path / "report" / "overlays"
    # A deliberately coarser RDP tolerance than Google's, so that drawings differ and get overlays.
    subprocess.run([sketchprep, "parity", "-q", "--worst", "3", "--epsilon", "4",
                    "--report-md", report, "--overlays", overlays,
                    "--raw", QUICKDRAW / "raw" / "fish.ndjson", "--raw", QUICKDRAW / "raw" / "cat.ndjson",
                    "--simplified", QUICKDRAW / "simplified"], check=True, capture_output=True)
    links = re.findall(r"!\[[^\]]*\]\((overlays/\d+\.png)\)", report.read_text())
    assert len(links) == 3
    for link in links:
        image = np.asarray(Image.open(report.parent / link).convert("RGB")).astype(int)
        assert image.shape[:2] == (256 + 32, 256)
        blue = (image[..., 2] > 150) & (image[..., 0] < 100)
        orange = (image[..., 0] > 200) & (image[..., 2] < 100)
        assert blue.any() and orange.any()
