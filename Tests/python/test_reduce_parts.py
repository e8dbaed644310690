"""Every shipped pipeline through the CLI in the cluster shape: `preprocess --partition i/n`, then
`merge --reduce i/R` for every part (in reverse order) and `merge --finalize`; the dataset's every
file (shards, manifest.json, classes.txt, quarantine.ndjson) must have the bytes of one
`preprocess --jobs 1` run, for (n, R) in (1, 1), (3, 2), (7, 4). Inputs: SampleData's drawings, or
for the image-directory pipeline a small tree of PNGs; shards of 7 examples so parts share splits."""
import re
import subprocess
import zlib
import struct

import pytest

from conftest import REPO

RAW = REPO / "SampleData" / "quickdraw" / "raw"
PIPELINES = sorted(p.stem for p in (REPO / "Pipelines").glob("*.yaml"))


def png(width, height, pixels):
    """A gray 8-bit PNG (filter 0 on every row)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(pixels[y * width:(y + 1) * width]) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def image_tree(root):
    for c, word in enumerate(["ant", "bee", "cat"]):
        for i in range(12):
            directory = root / ("test" if i % 4 == 0 else "train") / word
            directory.mkdir(parents=True, exist_ok=True)
            pixels = [255] * (40 * 30)
            for x in range(40):
                pixels[((x * (c + 1) + i) % 30) * 40 + x] = 0
            (directory / f"{i}.png").write_bytes(png(40, 30, pixels))
    (root / "train" / "bee" / "broken.png").write_bytes(b"not a png")


def pipeline_file(name, tmp_path):
    text = (REPO / "Pipelines" / f"{name}.yaml").read_text()
    source = RAW
    if "kind: image-directory" in text:
        source = tmp_path / "images"
        image_tree(source)
    text = re.sub(r"inputs: \[[^\]]*\]", f"inputs: [{source}]", text)
    text = re.sub(r"examples_per_shard: \d+", "examples_per_shard: 7", text)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def run(*args):
    subprocess.run([str(a) for a in args], check=True, capture_output=True)


def files(directory):
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.name != "timings.json"}


@pytest.mark.parametrize("name", PIPELINES)
def test_map_reduce_finalize_gives_the_single_run_bytes(sketchprep, tmp_path, name):
    pipeline = pipeline_file(name, tmp_path)
    run(sketchprep, "preprocess", "--pipeline", pipeline, "-o", tmp_path / "single", "--jobs", "1", "-q")
    expected = files(tmp_path / "single")
    assert "manifest.json" in expected and any(n not in ("manifest.json", "classes.txt", "quarantine.ndjson") for n in expected)
    for n, parts in [(1, 1), (3, 2), (7, 4)]:
        work = tmp_path / f"n{n}r{parts}"
        partials = [work / f"part-{i}" for i in range(n)]
        for i, partial in enumerate(partials):
            run(sketchprep, "preprocess", "--pipeline", pipeline, "--partition", f"{i}/{n}", "-o", partial, "--jobs", "1", "-q")
        for i in reversed(range(parts)):
            run(sketchprep, "merge", *partials, "-o", work / "dataset", "--reduce", f"{i}/{parts}", "-q")
        run(sketchprep, "merge", *partials, "-o", work / "dataset", "--finalize", "-q")
        got = files(work / "dataset")
        assert sorted(got) == sorted(expected), f"n = {n}, R = {parts}"
        assert [k for k in expected if got[k] != expected[k]] == [], f"n = {n}, R = {parts}"


def test_finalize_before_every_part_names_the_missing_one(sketchprep, tmp_path):
    pipeline = pipeline_file("quickdraw-rnn", tmp_path)
    run(sketchprep, "preprocess", "--pipeline", pipeline, "--partition", "0/1", "-o", tmp_path / "part", "-q")
    run(sketchprep, "merge", tmp_path / "part", "-o", tmp_path / "out", "--reduce", "1/2", "-q")
    finalize = subprocess.run([sketchprep, "merge", tmp_path / "part", "-o", tmp_path / "out", "--finalize"], capture_output=True, text=True)
    assert finalize.returncode == 1 and "reduce part 0/2 is missing" in finalize.stderr
    both = subprocess.run([sketchprep, "merge", tmp_path / "part", "-o", tmp_path / "out", "--reduce", "0/2", "--finalize"],
                          capture_output=True, text=True)
    assert both.returncode == 64
