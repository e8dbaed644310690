"""Rasters whose channels encode stroke order, time and pen speed (`bitmap --channels`) equal a
pycairo reference that applies the formulas of docs/raster.md; simplified input asking for time
is refused with a clear reason."""
import json
import subprocess

import numpy as np

from conftest import SHARED
from raster_reference import canvas

RAW = SHARED / "quickdraw" / "raw"


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def greys(strokes, channel):
    """Per stroke, the grey of each segment (one value for a one-point stroke)."""
    if channel == "order":
        return [[(255 - 13 * min(i, 10)) / 255] * max(len(x) - 1, 1) for i, (x, y, t) in enumerate(strokes)]
    if channel == "time":
        times = [v for _, _, t in strokes for v in t]
        first, span = min(times), max(times) - min(times)
        return [[(255 - 200 * ((t[k] - first) / span if span > 0 else 0)) / 255 for k in range(max(len(x) - 1, 1))]
                for x, y, t in strokes]
    speeds = [[0.0] if len(x) < 2 else
              [((x[k + 1] - x[k]) ** 2 + (y[k + 1] - y[k]) ** 2) ** 0.5 / max(t[k + 1] - t[k], 1) for k in range(len(x) - 1)]
              for x, y, t in strokes]
    fastest = max(v for s in speeds for v in s)
    return [[(55 + 200 * (v / fastest if fastest > 0 else 0)) / 255 for v in s] for s in speeds]


def reference(drawing, channels, side, line_width=16.0, padding=16.0):
    xs = [v for stroke in drawing for v in stroke[0]]
    ys = [v for stroke in drawing for v in stroke[1]]
    extent = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    strokes = [([(v - min(xs)) * 255.0 / extent for v in s[0]], [(v - min(ys)) * 255.0 / extent for v in s[1]], s[2])
               for s in drawing]  # Google's align and scale, times kept, no resampling
    surface, ctx = canvas(side, line_width, padding)
    offset_x = (256.0 - max(v for s in strokes for v in s[0])) / 2.0
    offset_y = (256.0 - max(v for s in strokes for v in s[1])) / 2.0
    planes = []
    for channel in channels:
        ctx.set_source_rgb(0, 0, 0)
        ctx.paint()
        for (x, y, _), values in zip(strokes, greys(strokes, channel)):
            for k, grey in enumerate(values):
                nxt = min(k + 1, len(x) - 1)
                ctx.set_source_rgb(grey, grey, grey)
                ctx.move_to(x[k] + offset_x, y[k] + offset_y)
                ctx.line_to(x[nxt] + offset_x, y[nxt] + offset_y)
                ctx.stroke()
        surface.flush()
        stride = surface.get_stride()
        data = np.frombuffer(surface.get_data(), dtype=np.uint8).reshape(side, stride)
        planes.append(data[:, 0:4 * side:4].copy())
    return np.stack(planes, axis=-1)


def test_time_channels_equal_the_pycairo_reference_of_the_documented_formulas(sketchprep, tmp_path):
    drawings = [json.loads(line)["drawing"] for word in ["cat", "apple"] for line in open(RAW / f"{word}.ndjson")]
    for channels, side, width in [(["order", "time", "speed"], 64, 12.0), (["speed"], 28, 16.0)]:
        out = tmp_path / f"{side}.npy"
        run(sketchprep, "bitmap", RAW / "cat.ndjson", RAW / "apple.ndjson", "--channels", ",".join(channels),
            "--size", side, "--line-width", width, "-o", out, "-q")
        images = np.load(out)
        assert images.shape == (len(drawings), side, side, len(channels)) and images.dtype == np.uint8
        for image, drawing in zip(images, drawings):
            assert np.array_equal(image, reference(drawing, channels, side, line_width=width))


def test_simplified_input_asking_for_time_is_refused_with_the_reason(sketchprep, tmp_path):
    simplified = SHARED / "quickdraw" / "simplified" / "cat.ndjson"
    result = subprocess.run([str(sketchprep), "bitmap", simplified, "--channels", "time", "-o", tmp_path / "t.npy"],
                            capture_output=True, text=True)
    assert "written 0" in result.stdout
    assert "the time channel needs raw drawings with times (t)" in result.stderr
    run(sketchprep, "bitmap", simplified, "--channels", "order", "-o", tmp_path / "order.npy", "-q")
    assert np.load(tmp_path / "order.npy").shape[1:] == (28, 28, 1)


def test_the_pipeline_encode_kind_writes_the_same_images_as_npy_and_as_rgb_png_and_names_its_deflate(sketchprep, tmp_path):
    import io
    import webdataset as wds
    from PIL import Image
    inputs = [RAW / "cat.ndjson", RAW / "apple.ndjson"]
    by_key = {json.loads(line)["key_id"]: json.loads(line)["drawing"] for p in inputs for line in open(p)}
    images = {}
    for output_format in ["npy", "webdataset"]:
        pipeline = tmp_path / f"{output_format}.yaml"
        pipeline.write_text("source: {kind: quickdraw-ndjson}\nencode: {kind: raster, size: 32, channels: [order, time, speed]}\n"
                            f"output: {{format: {output_format}}}\n")
        args = ["preprocess", "--pipeline", pipeline, "-o", tmp_path / output_format, "-q"]
        for path in inputs:
            args += ["--input", path]
        run(sketchprep, *args)
    for x_path in (tmp_path / "npy").glob("*.x.npy"):
        keys = open(str(x_path)[: -len(".x.npy")] + ".keys.txt").read().splitlines()
        for key, image in zip(keys, np.load(x_path)):
            assert image.shape == (32, 32, 3)
            assert np.array_equal(image, reference(by_key[key], ["order", "time", "speed"], 32))
            images[key] = image
    shards = sorted(str(p) for p in (tmp_path / "webdataset").glob("*.tar"))
    samples = list(wds.WebDataset(shards, shardshuffle=False))
    assert len(samples) == len(images) == len(by_key)
    for sample in samples:
        png = Image.open(io.BytesIO(sample["png"]))
        assert png.mode == "RGB" and np.array_equal(np.asarray(png), images[json.loads(sample["json"])["key_id"]])
    libraries = json.loads((tmp_path / "webdataset" / "manifest.json").read_text())["libraries"]
    assert libraries["libdeflate"] == libdeflate_version(), "the manifest names the libdeflate that deflated the RGB PNGs"


def libdeflate_version():
    """libdeflate's version as its header states it (`LIBDEFLATE_VERSION_STRING`)."""
    header = subprocess.run(["pkg-config", "--variable=includedir", "libdeflate"], capture_output=True, text=True, check=True)
    for line in open(f"{header.stdout.strip()}/libdeflate.h"):
        if line.startswith("#define LIBDEFLATE_VERSION_STRING"):
            return line.split('"')[1]
    raise AssertionError("libdeflate.h states no version")
