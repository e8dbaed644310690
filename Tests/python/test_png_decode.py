"""PNG decoding of every colour type, bit depth, palette, alpha and interlace variant by `sketchprep raster`
(libpng simplified API + our compositing and luma), checked against Pillow as the independent decoder;
plus corrupt, truncated and non-PNG files, which must be quarantined, never fatal."""
import itertools
import subprocess

import numpy as np
import png  # pypng: writes every PNG variant, including Adam7 interlaced and 1/2/4-bit
import pytest
from PIL import Image

WIDTH, HEIGHT = 13, 11  # odd sizes exercise partial bytes of sub-8-bit rows and Adam7 passes


def expected_gray(path):
    """Pillow's reading of the file, alpha composited over white, then Pillow's "L" (BT.601).

    Pillow reduces 16-bit samples to 8 bits before compositing (and keeps 16-bit gray as integers),
    so for 16-bit files the reference is computed in floating point from the 16-bit samples as
    decoded by pypng (also independent of libpng): over white, then BT.601, then rounded.
    """
    width, height, rows, info = png.Reader(filename=str(path)).asDirect()
    if info["bitdepth"] != 16:
        rgba = Image.open(path).convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(white, rgba).convert("L"))
    samples = np.array(list(rows), dtype=np.float64).reshape(height, width, info["planes"]) / 65535
    colour = samples[..., :-1] if info["alpha"] else samples
    alpha = samples[..., -1:] if info["alpha"] else 1.0
    composited = colour * alpha + (1 - alpha)
    if composited.shape[-1] == 3:
        composited = composited @ np.array([0.299, 0.587, 0.114])[:, None]
    return np.floor(composited[..., 0] * 255 + 0.5).astype(np.uint8)


def variants():
    rng = np.random.default_rng(7)
    for interlace, (kind, depth) in itertools.product(
        (False, True),
        [("gray", 1), ("gray", 2), ("gray", 4), ("gray", 8), ("gray", 16),
         ("gray_alpha", 8), ("gray_alpha", 16), ("rgb", 8), ("rgb", 16), ("rgba", 8), ("rgba", 16),
         ("palette", 1), ("palette", 2), ("palette", 4), ("palette", 8), ("palette_trns", 8)],
    ):
        maximum = 2**depth - 1
        planes = {"gray": 1, "gray_alpha": 2, "rgb": 3, "rgba": 4}.get(kind, 1)
        rows = rng.integers(0, maximum + 1, size=(HEIGHT, WIDTH * planes))
        if kind.startswith("palette"):
            colours = 2**depth
            palette = [tuple(int(c) for c in rng.integers(0, 256, 3)) for _ in range(colours)]
            if kind == "palette_trns":
                palette = [p + (int(a),) for p, a in zip(palette, rng.integers(0, 256, colours))]
            writer = png.Writer(WIDTH, HEIGHT, palette=palette, bitdepth=depth, interlace=interlace)
        else:
            writer = png.Writer(WIDTH, HEIGHT, greyscale=kind.startswith("gray"), alpha=kind.endswith("alpha")
                                or kind == "rgba", bitdepth=depth, interlace=interlace)
        yield f"{kind}{depth}{'-adam7' if interlace else ''}", writer, rows.tolist()


def test_every_png_variant_decodes_like_pillow(sketchprep, tmp_path):
    paths = []
    for name, writer, rows in variants():
        path = tmp_path / f"{name}.png"
        with open(path, "wb") as f:
            writer.write(f, rows)
        paths.append(path)
    out = tmp_path / "decoded.npy"
    subprocess.run([sketchprep, "raster", *map(str, paths), "--keep-size", "-o", out,
                    "--quarantine", tmp_path / "q.txt"], check=True)
    decoded = np.load(out)
    assert decoded.shape == (len(paths), HEIGHT, WIDTH) and decoded.dtype == np.uint8
    for path, ours in zip(paths, decoded):
        reference = expected_gray(path).astype(int)
        difference = np.abs(ours.astype(int) - reference).max()
        # opaque 8-bit data must match exactly; alpha compositing and 16→8 bit scaling may round differently by 1
        tolerance = 1 if ("alpha" in path.name or "rgba" in path.name or "16" in path.name or "trns" in path.name) else 0
        assert difference <= tolerance, f"{path.name}: max difference {difference}"


def test_broken_files_are_quarantined_and_the_rest_written(sketchprep, tmp_path):
    good = tmp_path / "good.png"
    Image.fromarray(np.full((5, 5), 40, np.uint8)).save(good)
    blob = good.read_bytes()
    broken = {
        "not-a-png.png": b"hello, this is text\n",
        "truncated.png": blob[: len(blob) // 2],
        "empty.png": b"",
        "bad-crc.png": blob[:40] + bytes([blob[40] ^ 0xFF]) + blob[41:],
    }
    for name, data in broken.items():
        (tmp_path / name).write_bytes(data)
    inputs = [good] + [tmp_path / name for name in broken] + [good]
    quarantine = tmp_path / "rejected.txt"
    result = subprocess.run([sketchprep, "raster", *map(str, inputs), "--keep-size", "-o", tmp_path / "out.npy",
                             "--quarantine", quarantine], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    decoded = np.load(tmp_path / "out.npy")
    assert decoded.shape == (2, 5, 5) and (decoded == 40).all()
    assert sorted(quarantine.read_text().splitlines()) == sorted(str(tmp_path / name) for name in broken)
    assert "read 6 = written 2 + rejected 4" in result.stdout
    for name in broken:
        assert name in result.stderr
