"""TU-Berlin images through `sketchprep raster --size 256`, compared with Pillow's box filter.

The independent reference is plain Pillow, `Image.open(path).convert("L").resize((256, 256), Image.BOX)`,
which our `BoxResampler` re-implements (same window, same fixed-point rounding).

1. All 3,200 shared images (150x150, so upscaled, plus one 1111x1111 original, downscaled): one CLI run
   over the whole tuberlin directory, every image equal to Pillow's, byte for byte.
2. Downscaling, the book's case (TU-Berlin originals are 1111x1111): one image per class enlarged to
   1111x1111 with `Image.NEAREST`, then ours vs Pillow BOX on the same files, byte for byte.
3. Seeded images, square (sides 1 to 2,100) and not (framed on a white square as docs/raster.md says),
   to sides 1, 28, 97 and 256: byte for byte.
"""
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED

ROOT = SHARED / "tuberlin"
SIDE = 256
pytestmark = pytest.mark.skipif(not ROOT.is_dir(), reason="shared TU-Berlin data not present")


def run_raster(sketchprep, inputs, out, quarantine, side=SIDE):
    subprocess.run([sketchprep, "raster", "--quiet", "--size", str(side), "-o", out, "--quarantine", quarantine,
                    *map(str, inputs)], check=True)
    assert not quarantine.exists()  # nothing rejected, so no quarantine file
    return np.load(out, mmap_mode="r")


def pillow_box(path):
    return np.asarray(Image.open(path).convert("L").resize((SIDE, SIDE), Image.BOX), dtype=np.int16)


def test_all_3200_shared_images_match_pillow_box(sketchprep, tmp_path):
    files = sorted(ROOT.rglob("*.png"), key=str)  # the CLI's order: every *.png below, sorted by path
    assert len(files) == 3200
    ours = run_raster(sketchprep, [ROOT], tmp_path / "tuberlin.npy", tmp_path / "q.txt")
    assert ours.shape == (3200, SIDE, SIDE) and ours.dtype == np.uint8
    sizes = set()
    for index, path in enumerate(files):
        sizes.add(Image.open(path).size)
        difference = np.abs(ours[index].astype(np.int16) - pillow_box(path))
        assert difference.max() == 0, f"{path}: {np.count_nonzero(difference)} pixels differ from Pillow BOX"
    assert (1111, 1111) in sizes and (150, 150) in sizes, "both directions are exercised"


def test_downscaling_1111_originals_matches_pillow_box(sketchprep, tmp_path):
    sources = [sorted(d.glob("*.png"))[0] for d in sorted((ROOT / "train").iterdir())]
    files = []
    for index, source in enumerate(sources):
        files.append(tmp_path / f"{index:02d}.png")
        Image.open(source).convert("L").resize((1111, 1111), Image.NEAREST).save(files[-1])
    ours = run_raster(sketchprep, files, tmp_path / "big.npy", tmp_path / "q.txt").astype(np.int16)
    reference = np.stack([pillow_box(f) for f in files])
    assert np.array_equal(ours, reference)


@pytest.mark.parametrize("side", [1, 28, 97, 256])
def test_seeded_images_of_any_shape_resample_as_pillow_box_on_the_white_square(sketchprep, tmp_path, side):
    # docs/raster.md, "Resampling": a non-square image is pasted centred on a white square of its
    # longer side (an odd pixel of padding right or bottom), which Pillow's BOX resizes.
    random = np.random.default_rng(side)
    squares = [1, 2, 3, 27, 28, 29, 150, 255, 256, 257, 511, 1111, 2100, *random.integers(4, 700, 4)]
    shapes = [(n, n) for n in squares] + [(1, 5), (6, 1), (150, 97), (96, 151), *random.integers(1, 700, (6, 2)).tolist()]
    images = []
    for index, (width, height) in enumerate(shapes):
        pixels = np.full((height, width), 255, np.uint8)
        ink = random.random((height, width)) < 0.1
        pixels[ink] = random.integers(0, 256, int(ink.sum()))
        images.append(pixels)
        Image.fromarray(pixels).save(tmp_path / f"{index:02d}.png")
    ours = run_raster(sketchprep, sorted(tmp_path.glob("*.png")), tmp_path / "out.npy", tmp_path / "q.txt", side)
    for index, pixels in enumerate(images):
        height, width = pixels.shape
        square = Image.new("L", (max(width, height),) * 2, 255)
        square.paste(Image.fromarray(pixels), ((max(width, height) - width) // 2, (max(width, height) - height) // 2))
        reference = np.asarray(square.resize((side, side), Image.BOX))
        assert np.array_equal(ours[index], reference), f"{width}×{height} → {side}"
