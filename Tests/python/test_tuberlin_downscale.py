"""All 3,200 shared TU-Berlin images through `sketchprep raster --size 256`, compared with Pillow.

Our resampler is exact area averaging (box coverage) in both directions; the shared 150x150 images
are *upscaled* to 256. Two Pillow references:

1. Pillow's own `Image.BOX` on every image. Pillow's BOX gives each output pixel the mean of the
   source pixels whose *centres* fall inside it, which for upscaling is nearest-neighbour; the two
   definitions differ only along stroke edges. Required: mean absolute difference <= 1/255 over all
   pixels of all images.
2. Exact box coverage built from Pillow alone, per axis: replicate every pixel k times
   (`Image.NEAREST` to width 150k, k = 256 / gcd(150, 256) = 128), then `Image.BOX` down to 256 — an
   integer-factor reduction, i.e. exact area averaging. Pillow rounds after each pass, we round once,
   so pixels may differ by 1; the mean must stay below 0.05/255. This costs ~50 ms an image, so it runs
   on every 20th image.
"""
import math
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED

ROOT = SHARED / "tuberlin"
SIDE = 256


def exact_area_reference(path):
    image = Image.open(path).convert("L")
    width, height = image.size
    assert width == height, "the shared subset is square; padding is covered by the Swift tests"
    k = SIDE // math.gcd(width, SIDE)
    rows = image.resize((width * k, height), Image.NEAREST).resize((SIDE, height), Image.BOX)
    return np.asarray(rows.resize((SIDE, height * k), Image.NEAREST).resize((SIDE, SIDE), Image.BOX), dtype=np.int64)


@pytest.mark.skipif(not ROOT.is_dir(), reason="shared TU-Berlin data not present")
def test_all_tuberlin_images_match_pillow_box_references(sketchprep, tmp_path):
    files = sorted(ROOT.glob("*/*/*.png"))
    assert len(files) == 3200
    out = tmp_path / "tuberlin.npy"
    subprocess.run([sketchprep, "raster", "--size", str(SIDE), "-o", out, "--quarantine", tmp_path / "q.txt",
                    *map(str, files)], check=True)
    ours = np.load(out, mmap_mode="r")
    assert ours.shape == (3200, SIDE, SIDE) and ours.dtype == np.uint8
    assert (tmp_path / "q.txt").read_text() == ""

    total_difference = 0
    for index, path in enumerate(files):
        pil_box = np.asarray(Image.open(path).convert("L").resize((SIDE, SIDE), Image.BOX), dtype=np.int64)
        total_difference += np.abs(ours[index].astype(np.int64) - pil_box).sum()
    mean_vs_pil_box = total_difference / ours.size
    assert mean_vs_pil_box <= 1, f"mean |ours - PIL BOX| = {mean_vs_pil_box:.3f}/255"

    exact_means = []
    for index in range(0, len(files), 20):
        difference = np.abs(ours[index].astype(np.int64) - exact_area_reference(files[index]))
        assert difference.max() <= 1, files[index]
        exact_means.append(difference.mean())
    assert np.mean(exact_means) < 0.05, f"mean |ours - exact-area PIL| = {np.mean(exact_means):.4f}/255"
