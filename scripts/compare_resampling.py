#!/usr/bin/env python3
"""How far `sketchprep raster` (exact area averaging) is from Pillow on the shared TU-Berlin images.

Prints mean absolute differences in 1/255 units:
- upscaling 150 -> 256, all images: vs Pillow `Image.BOX` (nearest-neighbour when upscaling) and vs
  exact box coverage built with Pillow (`np.repeat` by 128, `Image.reduce` by 75, per axis);
- downscaling 1111 -> 256 (the original TU-Berlin size), one image per class enlarged with NEAREST:
  vs Pillow `Image.BOX`.
"""
import argparse
import math
import pathlib
import subprocess
import tempfile

import numpy as np
from PIL import Image


def exact_area(pixels, side):
    k = side // math.gcd(pixels.shape[1], side)
    rows = Image.fromarray(np.repeat(pixels, k, axis=1)).reduce((pixels.shape[1] * k // side, 1))
    return np.asarray(Image.fromarray(np.repeat(np.asarray(rows), k, axis=0)).reduce((1, pixels.shape[0] * k // side)))


def ours(sketchprep, files, workdir, side):
    out = pathlib.Path(workdir) / "ours.npy"
    subprocess.run([sketchprep, "raster", "--size", str(side), "-o", out, *map(str, files)], check=True,
                   capture_output=True)
    return np.load(out).astype(np.int64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sketchprep", default=".build/release/sketchprep")
    parser.add_argument("--shared", default="../shared/data")
    args = parser.parse_args()
    root = pathlib.Path(args.shared) / "tuberlin"
    files = sorted(root.glob("*/*/*.png"))
    with tempfile.TemporaryDirectory() as workdir:
        mine = ours(args.sketchprep, files, workdir, 256)
        sources = [np.asarray(Image.open(f).convert("L")) for f in files]
        box = np.stack([np.asarray(Image.fromarray(s).resize((256, 256), Image.BOX)) for s in sources])
        exact = np.stack([exact_area(s, 256) for s in sources])
        print(f"upscale 150->256, {len(files)} images: mean |ours - Pillow BOX| = {np.abs(mine - box).mean():.3f}/255, "
              f"mean |ours - exact box coverage (Pillow reduce)| = {np.abs(mine - exact).mean():.4f}/255, "
              f"max = {np.abs(mine - exact).max()}/255")
        big = []
        for index, directory in enumerate(sorted((root / "train").iterdir())):
            path = pathlib.Path(workdir) / f"{index:02d}.png"
            Image.open(sorted(directory.glob("*.png"))[0]).convert("L").resize((1111, 1111), Image.NEAREST).save(path)
            big.append(path)
        mine = ours(args.sketchprep, big, workdir, 256)
        box = np.stack([np.asarray(Image.open(p).resize((256, 256), Image.BOX)) for p in big]).astype(np.int64)
        print(f"downscale 1111->256, {len(big)} images: mean |ours - Pillow BOX| = {np.abs(mine - box).mean():.3f}/255, "
              f"max = {np.abs(mine - box).max()}/255")


if __name__ == "__main__":
    main()
