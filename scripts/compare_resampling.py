#!/usr/bin/env python3
"""How far `sketchprep raster` (BoxResampler) is from Pillow's `resize((256, 256), Image.BOX)`.

Prints mean and max absolute differences in 1/255 units:
- all shared TU-Berlin images (150x150 ones upscaled, the 1111x1111 one downscaled), one CLI run over
  the whole directory;
- downscaling 1111 -> 256 (the original TU-Berlin size): one image per class enlarged with NEAREST.
"""
import argparse
import pathlib
import subprocess
import tempfile

import numpy as np
from PIL import Image

SIDE = 256


def ours(sketchprep, inputs, workdir):
    out = pathlib.Path(workdir) / "ours.npy"
    subprocess.run([sketchprep, "raster", "--quiet", "--size", str(SIDE), "-o", out, *map(str, inputs)], check=True)
    return np.load(out).astype(np.int16)


def pillow_box(path):
    return np.asarray(Image.open(path).convert("L").resize((SIDE, SIDE), Image.BOX), dtype=np.int16)


def report(label, mine, files):
    difference = np.abs(mine - np.stack([pillow_box(f) for f in files]))
    print(f"{label}, {len(files)} images: mean |ours - Pillow BOX| = {difference.mean():.4f}/255, "
          f"max = {difference.max()}/255, identical pixels = {(difference == 0).mean():.6%}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sketchprep", default=".build/release/sketchprep")
    parser.add_argument("--shared", default="../shared/data")
    args = parser.parse_args()
    root = pathlib.Path(args.shared) / "tuberlin"
    files = sorted(root.rglob("*.png"), key=str)
    with tempfile.TemporaryDirectory() as workdir:
        report("all shared TU-Berlin images", ours(args.sketchprep, [root], workdir), files)
        big = []
        for index, directory in enumerate(sorted((root / "train").iterdir())):
            path = pathlib.Path(workdir) / f"{index:02d}.png"
            Image.open(sorted(directory.glob("*.png"))[0]).convert("L").resize((1111, 1111), Image.NEAREST).save(path)
            big.append(path)
        report("downscale 1111->256", ours(args.sketchprep, big, workdir), big)


if __name__ == "__main__":
    main()
