"""TU-Berlin images through `sketchprep raster --size 256`, compared with Pillow's box filter.

Our resampler is exact area averaging (box coverage) in both directions.

1. Downscaling, the book's case (TU-Berlin originals are 1111x1111): one image per class, enlarged
   to 1111x1111 with `Image.NEAREST`, then ours vs Pillow's `resize((256, 256), Image.BOX)` on the same
   file. Pillow's BOX averages the source pixels whose centres fall inside an output pixel, a close
   relative of exact coverage: the mean absolute difference must be <= 1/255.
2. Upscaling, all 3,200 shared 150x150 images. Pillow's BOX upscales as nearest-neighbour (a different
   definition), so the reference is exact box coverage built with Pillow's integer-factor box filter:
   repeat every pixel k = 256 / gcd(150, 256) = 128 times along an axis, `Image.reduce` by 75 back to
   256, one axis after the other. Pillow rounds after each axis, we round once: pixels may differ by 1,
   and the mean absolute difference must stay below 0.05/255.
"""
import math
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED

ROOT = SHARED / "tuberlin"
SIDE = 256
pytestmark = pytest.mark.skipif(not ROOT.is_dir(), reason="shared TU-Berlin data not present")


def run_raster(sketchprep, files, out, quarantine):
    subprocess.run([sketchprep, "raster", "--size", str(SIDE), "-o", out, "--quarantine", quarantine,
                    *map(str, files)], check=True)
    assert quarantine.read_text() == ""
    return np.load(out, mmap_mode="r")


def exact_area_reference(path):
    pixels = np.asarray(Image.open(path).convert("L"))
    height, width = pixels.shape
    assert width == height, "the shared subset is square; padding is covered by the Swift tests"
    k = SIDE // math.gcd(width, SIDE)
    rows = Image.fromarray(np.repeat(pixels, k, axis=1)).reduce((width * k // SIDE, 1))
    return np.asarray(Image.fromarray(np.repeat(np.asarray(rows), k, axis=0)).reduce((1, height * k // SIDE)))


def test_downscaling_1111_originals_matches_pillow_box(sketchprep, tmp_path):
    sources = [sorted(d.glob("*.png"))[0] for d in sorted((ROOT / "train").iterdir())]
    files = []
    for index, source in enumerate(sources):
        files.append(tmp_path / f"{index:02d}.png")
        Image.open(source).convert("L").resize((1111, 1111), Image.NEAREST).save(files[-1])
    ours = run_raster(sketchprep, files, tmp_path / "big.npy", tmp_path / "q.txt").astype(np.int64)
    reference = np.stack([np.asarray(Image.open(f).resize((SIDE, SIDE), Image.BOX)) for f in files]).astype(np.int64)
    assert np.abs(ours - reference).mean() <= 1


def test_all_3200_shared_images_match_exact_box_coverage(sketchprep, tmp_path):
    files = sorted(ROOT.glob("*/*/*.png"))
    assert len(files) == 3200
    ours = run_raster(sketchprep, files, tmp_path / "tuberlin.npy", tmp_path / "q.txt")
    assert ours.shape == (3200, SIDE, SIDE) and ours.dtype == np.uint8
    total = 0
    for index, path in enumerate(files):
        difference = np.abs(ours[index].astype(np.int64) - exact_area_reference(path))
        assert difference.max() <= 1, path
        total += difference.sum()
    assert total / ours.size < 0.05, f"mean |ours - exact box coverage| = {total / ours.size:.4f}/255"
