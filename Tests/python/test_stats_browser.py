"""`stats.html` renders in headless Chromium (Debian `chromium`) with non-blank content.
Run by `make test-browser` (which installs chromium); skipped when chromium is absent."""
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (make test-browser installs it)"),
    pytest.mark.skipif(not (SHARED / "quickdraw").is_dir(), reason="shared Quick, Draw! data not present"),
]


def test_stats_html_renders_charts_and_thumbnails_in_headless_chromium(sketchprep, tmp_path):
    inputs = [SHARED / "quickdraw" / "simplified" / f"{word}.ndjson" for word in ["cat", "bicycle"]]
    subprocess.run([sketchprep, "stats", *map(str, inputs), "-o", tmp_path / "out", "-q"], check=True,
                   capture_output=True)
    screenshot = tmp_path / "page.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={screenshot}", "--window-size=1200,1600",
                    (tmp_path / "out" / "stats.html").as_uri()],
                   check=True, capture_output=True, timeout=120)
    pixels = np.asarray(Image.open(screenshot).convert("L"))
    assert pixels.shape == (1600, 1200)
    ink = pixels < 200
    assert ink.mean() > 0.01  # text, tables, bars and thumbnails, not a blank page
    # the bars of the SVG histograms are drawn in #4a78b5: check colour reaches the screen
    rgb = np.asarray(Image.open(screenshot).convert("RGB")).astype(int)
    blue = (abs(rgb[..., 0] - 0x4a) < 24) & (abs(rgb[..., 1] - 0x78) < 24) & (abs(rgb[..., 2] - 0xb5) < 24)
    assert blue.sum() > 500
