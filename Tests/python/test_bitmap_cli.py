"""`sketchprep bitmap`: Google's official bitmaps byte for byte, the general mode byte for byte
against pycairo running the reference recipe, and raw input simplified first (auto-detected)."""
import json
import subprocess

import numpy as np
import pytest

from conftest import SHARED
from raster_reference import vector_to_raster

QUICKDRAW = SHARED / "quickdraw"
CLASSES = ["apple", "bicycle", "bowtie", "cat", "diamond", "eye", "fish", "lollipop", "rainbow"]
pytestmark = pytest.mark.skipif(not QUICKDRAW.is_dir(), reason="shared Quick, Draw! data not present")


def bitmap(sketchprep, tmp_path, inputs, *options):
    out = tmp_path / "out.npy"
    subprocess.run([sketchprep, "bitmap", *map(str, inputs), "-o", out, "-q", *options], check=True,
                   capture_output=True)
    return np.load(out)


def test_default_output_equals_the_official_bitmaps_for_all_225_rows(sketchprep, tmp_path):
    ours = bitmap(sketchprep, tmp_path, [QUICKDRAW / "simplified" / f"{c}.ndjson" for c in CLASSES])
    assert ours.shape == (225, 784) and ours.dtype == np.uint8
    official = np.concatenate([np.load(QUICKDRAW / "bitmap" / f"{c}.npy").reshape(-1, 784)[:25] for c in CLASSES])
    assert (ours == official).all(axis=1).sum() == 225


def test_general_mode_equals_pycairo_reference(sketchprep, tmp_path):
    path = QUICKDRAW / "simplified" / "cat.ndjson"
    drawings = [json.loads(line)["drawing"] for line in path.read_text().splitlines()]
    ours = bitmap(sketchprep, tmp_path, [path], "--size", "96", "--line-width", "6", "--padding", "10",
                  "--polarity", "black-on-white")
    reference = vector_to_raster(drawings, side=96, line_diameter=6, padding=10, white_on_black=False)
    assert ours.shape == reference.shape == (len(drawings), 96 * 96)
    assert (ours == reference).all()


def test_raw_input_is_detected_and_simplified_before_rendering(sketchprep, tmp_path):
    raw = QUICKDRAW / "raw" / "cat.ndjson"
    simplified = tmp_path / "cat.simplified.ndjson"
    subprocess.run([sketchprep, "simplify", raw, "-o", simplified, "-q"], check=True, capture_output=True)
    auto = bitmap(sketchprep, tmp_path, [raw])
    assert (auto == bitmap(sketchprep, tmp_path, [simplified], "--input-format", "simplified")).all()
    assert (auto == bitmap(sketchprep, tmp_path, [raw], "--input-format", "raw")).all()
    assert len(auto) == len(raw.read_text().splitlines())
