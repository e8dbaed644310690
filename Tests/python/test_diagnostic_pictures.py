"""`sketchprep contact-sheet` on every input kind, and `sketchprep parity --overlays` linking PNG
overlays of the worst drawings from the Markdown report."""
import re
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import REPO, SHARED

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


def dataset(sketchprep, tmp_path, pipeline, name="dataset"):
    """A small dataset of the shipped `pipeline` (two drawings of each SampleData category)."""
    out = tmp_path / name
    subprocess.run([sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / f"{pipeline}.yaml",
                    "--input", REPO / "SampleData" / "quickdraw" / "raw", "--limit", "2", "-o", out, "-q"],
                   check=True, capture_output=True)
    return out


def ink_extents(sheet_pixels, cells, cell=64, columns=4):
    """(width, height) of the ink's bounding box in each of the first `cells` cells, as shares of the cell."""
    extents = []
    for index in range(cells):
        top, left = index // columns * (cell + 16), index % columns * cell
        ink = np.argwhere(sheet_pixels[top + 2:top + cell - 2, left + 2:left + cell - 2] < 128)
        extent = ink.max(axis=0) - ink.min(axis=0) + 1 if len(ink) else np.zeros(2)
        extents.append((extent[1] / cell, extent[0] / cell))
    return extents


@pytest.mark.parametrize("pipeline", ["quickdraw-rnn", "quickdraw-sketchrnn"])
def test_contact_sheet_draws_stroke_datasets_as_sketches(sketchprep, tmp_path, pipeline):
    # Stroke tensors are decoded back into strokes and stroke-3 files read as drawings: every cell
    # holds a sketch that spans the cell, not a 3-pixel-wide bar (tensor rows read as an image)
    # and not an empty cell.
    pixels = sheet(sketchprep, tmp_path, dataset(sketchprep, tmp_path, pipeline), limit=8)
    assert pixels.shape == (2 * (64 + 16), 4 * 64)
    extents = ink_extents(pixels, 8)
    assert all(max(width, height) > 0.7 for width, height in extents), extents
    assert np.median([min(width, height) for width, height in extents]) > 0.3, extents


@pytest.mark.parametrize("pipeline", ["quickdraw-rnn-tfrecord", "quickdraw-raster256"])
def test_contact_sheet_refuses_tfrecord_datasets_naming_what_it_draws(sketchprep, tmp_path, pipeline):
    out = dataset(sketchprep, tmp_path, pipeline)
    for target in [out, next(out.glob("*.tfrecord"))]:
        run = subprocess.run([sketchprep, "contact-sheet", target, "-o", tmp_path / "sheet.png"], capture_output=True, text=True)
        assert run.returncode == 1, run.stderr
        assert "TFRecord" in run.stderr and "NPY shard directories" in run.stderr
    assert not (tmp_path / "sheet.png").exists()


def test_contact_sheet_without_a_single_sketch_fails(sketchprep, tmp_path):
    (tmp_path / "empty.ndjson").write_text("")
    run = subprocess.run([sketchprep, "contact-sheet", tmp_path / "empty.ndjson", "-o", tmp_path / "sheet.png"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "no sketch could be read" in run.stderr
    assert not (tmp_path / "sheet.png").exists()


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
