"""Hostile inputs through the release CLI (docs/limits.md): extreme numbers, oversized records,
damaged gzip, byte order marks, repeated key_ids, huge options. Each case checks the exit status,
the quarantine reason, the reconciliation, and that every good record comes out exactly as in a
clean run. Memory-heavy cases run under `prlimit --as` so a regression cannot take the machine
down."""
import gzip
import json
import pathlib
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from conftest import SHARED

RAW = SHARED / "quickdraw" / "raw"
SIMPLIFIED = SHARED / "quickdraw" / "simplified"


def good_lines(category="cat", count=30):
    with open(RAW / f"{category}.ndjson", "rb") as handle:
        return [next(handle).rstrip(b"\n") for _ in range(count)]


def hostile(key, x, y="[0,1]", t="[0,1]"):
    """A raw record whose single stroke has the arrays given as JSON text."""
    return (b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"%s",'
            b'"drawing":[[%s,%s,%s]]}' % (key.encode(), x.encode(), y.encode(), t.encode()))


def run(command, *, limit_bytes=None, timeout=300):
    """Runs `command`; returns (exit status, stdout, stderr, peak RSS of the child in KiB)."""
    prefix = ["prlimit", f"--as={limit_bytes}"] if limit_bytes else []
    measure = ("import resource, subprocess, sys\n"
               "r = subprocess.run(sys.argv[1:], capture_output=True)\n"
               "sys.stdout.buffer.write(r.stdout); sys.stderr.buffer.write(r.stderr)\n"
               "print('PEAK_RSS_KIB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
               "sys.exit(r.returncode)\n")
    result = subprocess.run([sys.executable, "-c", measure, *prefix, *map(str, command)],
                            capture_output=True, timeout=timeout)
    stderr = result.stderr.decode()
    peak = int(stderr.rsplit("PEAK_RSS_KIB", 1)[1].split()[0])
    assert result.returncode >= 0, f"killed by signal {-result.returncode}: {stderr[-2000:]}"
    return result.returncode, result.stdout.decode(), stderr, peak


def simplify(sketchprep, inputs, out, *extra, **kwargs):
    output = out / "out.ndjson"
    quarantine = out / "quarantine.ndjson"
    report = out / "report.json"
    status, stdout, stderr, peak = run(
        [sketchprep, "simplify", "-q", *inputs, "-o", output, "--quarantine", quarantine,
         "--report-json", report, *extra], **kwargs)
    result = {"status": status, "stdout": stdout, "stderr": stderr, "peak_kib": peak}
    if status in (0, 1) and report.exists():
        result["report"] = json.loads(report.read_text())
        # A run that wrote no record writes no output file (docs/limits.md).
        lines = output.read_bytes().splitlines() if output.exists() else []
        result["output"] = {json.loads(line)["key_id"]: line for line in lines}
        # The quarantine file exists only when a line was rejected.
        result["quarantine"] = quarantine.read_bytes().splitlines() if quarantine.exists() else []
    return result


def reconciles(report):
    return report["read"] == report["written"] + report["rejected"]


@pytest.fixture()
def clean(sketchprep, tmp_path):
    """The good lines and their simplified output from a clean run."""
    lines = good_lines()
    source = tmp_path / "clean.ndjson"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "clean"
    out.mkdir()
    result = simplify(sketchprep, [source], out)
    assert result["status"] == 0 and result["report"]["rejected"] == 0
    return lines, result["output"]


EXTREME = [
    ("1e308", "[0,1e308]"), ("minus-1e308", "[-1e308,0]"), ("max-double", "[0,1.7976931348623157e308]"),
    ("overflow", "[0,1e400]"), ("huge-exponent", "[0,1e99999999999]"), ("over-bound", "[0,1000000001]"),
    ("int-15-digits", "[0,999999999999999]"), ("just-over", "[0,-1000000000.5]"),
]


def test_extreme_coordinates_are_quarantined_and_good_records_are_unchanged(sketchprep, tmp_path, clean):
    lines, expected = clean
    bad = [hostile(f"bad-{name}", x) for name, x in EXTREME]
    bad.append(hostile("bad-nan", "[0,NaN]"))
    bad.append(hostile("bad-t", "[0,1]", t="[0,1e16]"))
    accepted = [hostile("tiny", "[1e-320,-0,5]", y="[0,3,1e-300]", t="[0,1,2]"),
                hostile("at-the-bound", "[-1e9,1000000000]")]
    mixed = []
    for index, line in enumerate(lines):
        mixed.append(line)
        if index < len(bad):
            mixed.append(bad[index])
    mixed += accepted
    source = tmp_path / "mixed.ndjson"
    source.write_bytes(b"\n".join(mixed) + b"\n")
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [source], out, timeout=120)
    assert result["status"] == 0, result["stderr"]
    report = result["report"]
    assert reconciles(report) and report["rejected"] == len(bad)
    assert sorted(result["quarantine"]) == sorted(bad)
    assert report["rejected_by_reason"].get("coordinate out of range: stroke N x position N is not finite or beyond ±NeN") == len(EXTREME)
    assert "tiny" in result["output"] and "at-the-bound" in result["output"]
    for key, line in expected.items():
        assert result["output"][key] == line


@pytest.mark.parametrize("command", ["encode", "bitmap"])
def test_extreme_coordinates_never_reach_tensors_or_rasters(sketchprep, tmp_path, command):
    lines = good_lines(count=10) + [hostile(f"bad-{name}", x) for name, x in EXTREME]
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(lines) + b"\n")
    output = tmp_path / "out.npy"
    quarantine = tmp_path / "q.ndjson"
    status, stdout, stderr, _ = run([sketchprep, command, source, "-o", output, "--quarantine", quarantine, "-q"],
                                    timeout=120)
    assert status == 0, stderr
    array = np.load(output)
    assert array.shape[0] == 10 and np.isfinite(array.astype(np.float64)).all()
    assert len(quarantine.read_bytes().splitlines()) == len(EXTREME)
    assert f"read {len(lines)} = written 10 + rejected {len(EXTREME)}" in stdout + stderr


def test_simplified_input_beyond_its_bound_is_quarantined(sketchprep, tmp_path):
    line = (b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"big",'
            b'"drawing":[[[0,100000],[0,1]]]}')
    source = tmp_path / "in.ndjson"
    source.write_bytes(line + b"\n")
    output = tmp_path / "out.npy"
    status, stdout, stderr, _ = run([sketchprep, "encode", source, "-o", output, "--input-format", "simplified",
                                     "--quarantine", tmp_path / "q.ndjson"])
    # Its only record quarantined, the run wrote nothing: exit 1, saying why, and no empty output.
    assert status == 1 and not output.exists()
    assert "coordinate out of range" in stderr and "all 1 record(s) were rejected" in stderr


def zigzag_line(points, key="zigzag"):
    x = ",".join("0" if i % 2 == 0 else "1000" for i in range(points))
    y = ",".join(str(i % 997) for i in range(points))
    t = ",".join(str(i) for i in range(points))
    return hostile(key, f"[{x}]", f"[{y}]", f"[{t}]")


@pytest.mark.parametrize("points, reason", [(400_000, "too many points"), (90_000, "too many resampled points")])
def test_long_zigzag_strokes_are_refused_in_bounded_memory(sketchprep, tmp_path, clean, points, reason):
    lines, expected = clean
    big = zigzag_line(points)
    assert len(big) > 1_000_000 or reason != "too many points"
    source = tmp_path / "zigzag.ndjson"
    source.write_bytes(b"\n".join(lines[:5] + [big] + lines[5:]) + b"\n")
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [source], out, limit_bytes=2 << 30, timeout=120)
    assert result["status"] == 0, result["stderr"]
    assert reconciles(result["report"]) and result["report"]["rejected"] == 1
    assert result["quarantine"] == [big]
    assert [kind for kind in result["report"]["rejected_by_reason"] if kind.startswith(reason)]
    assert result["output"] == expected
    assert result["peak_kib"] < 300 * 1024, f"peak RSS {result['peak_kib']} KiB"


def test_huge_stroke_tensor_length_is_batched_by_bytes(sketchprep, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines(count=20)) + b"\n")
    output = tmp_path / "out.npy"
    status, _, stderr, peak = run([sketchprep, "encode", source, "-o", output, "--length", "100000", "-q"],
                                  limit_bytes=2 << 30, timeout=120)
    assert status == 0, stderr
    assert np.load(output, mmap_mode="r").shape == (20, 100000, 3)
    assert peak < 200 * 1024, f"peak RSS {peak} KiB"


def gzip_member(data):
    return gzip.compress(data, mtime=0)


def test_a_gzip_member_with_a_bad_crc_keeps_its_records_and_is_one_source_error(sketchprep, tmp_path, clean):
    lines, expected = clean
    first = bytearray(gzip_member(b"\n".join(lines[:10]) + b"\n"))
    first[-8] ^= 0xFF  # CRC-32 of the trailer
    damaged = tmp_path / "crc.ndjson.gz"
    damaged.write_bytes(bytes(first) + gzip_member(b"\n".join(lines[10:]) + b"\n"))
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [damaged], out)
    assert result["status"] == 0, result["stderr"]
    report = result["report"]
    assert reconciles(report) and report["read"] == len(lines) and report["rejected"] == 0
    assert report["source_errors"] == 1
    assert result["output"] == expected
    [entry] = [json.loads(line) for line in result["quarantine"]]
    assert entry == {"source_error": str(damaged), "byte_offset": 0,
                     "reason": "gzip member incorrect data check (its records are kept)"}
    strict = tmp_path / "strict"
    strict.mkdir()
    assert simplify(sketchprep, [damaged], strict, "--strict")["status"] == 1


def test_a_truncated_gzip_keeps_the_records_before_the_cut(sketchprep, tmp_path, clean):
    lines, expected = clean
    data = gzip_member(b"\n".join(lines) + b"\n")
    cut = tmp_path / "cut.ndjson.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [cut], out)
    assert result["status"] == 0, result["stderr"]
    report = result["report"]
    assert reconciles(report) and report["source_errors"] == 1 and report["rejected"] <= 1
    assert report["written"] > 0
    for key, line in result["output"].items():
        assert expected[key] == line
    entries = [json.loads(line) for line in result["quarantine"] if line.startswith(b'{"source_error"')]
    assert [entry["reason"] for entry in entries] == ["truncated gzip member (input ends before its end-of-stream marker)"]


def test_nothing_readable_fails_even_without_strict(sketchprep, tmp_path):
    garbage = tmp_path / "garbage.ndjson.gz"
    garbage.write_bytes(b"\x1f\x8b\x09\x00" + bytes(range(256)) * 4)  # unknown compression method
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [garbage], out)
    assert result["status"] == 1
    assert result["report"]["read"] == 0 and result["report"]["source_errors"] == 1
    assert "no record could be read" in result["stderr"]


def test_a_byte_order_mark_does_not_lose_the_first_record(sketchprep, tmp_path, clean):
    lines, expected = clean
    source = tmp_path / "bom.ndjson"
    source.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [source], out)
    assert result["status"] == 0 and result["report"]["rejected"] == 0
    assert result["output"] == expected


def test_strict_fails_on_a_rejected_record(sketchprep, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines(count=3) + [b"{not json"]) + b"\n")
    out = tmp_path / "out"
    out.mkdir()
    assert simplify(sketchprep, [source], out)["status"] == 0
    assert simplify(sketchprep, [source], out, "--strict")["status"] == 1


def test_parity_reports_repeated_key_ids_and_uses_the_first(sketchprep, tmp_path):
    raw = good_lines(count=10)
    with open(SIMPLIFIED / "cat.ndjson", "rb") as handle:
        official = [line.rstrip(b"\n") for line in handle][:]
    keys = {json.loads(line)["key_id"] for line in raw}
    official = [line for line in official if json.loads(line)["key_id"] in keys]
    assert len(official) == 10
    raw_file = tmp_path / "raw.ndjson"
    official_file = tmp_path / "official.ndjson"
    clean_report = tmp_path / "clean.json"
    raw_file.write_bytes(b"\n".join(raw) + b"\n")
    official_file.write_bytes(b"\n".join(official) + b"\n")
    status, _, stderr, _ = run([sketchprep, "parity", "-q", "--raw", raw_file, "--simplified", official_file,
                                "--report-json", clean_report])
    assert status == 0, stderr
    clean = json.loads(clean_report.read_text())

    # Repeats come after the originals: a changed drawing on the official side, a copy on the raw side.
    repeat = json.loads(official[0])
    repeat["drawing"] = [[[0, 255], [0, 0]]]
    raw_file.write_bytes(b"\n".join(raw + [raw[1]]) + b"\n")
    official_file.write_bytes(b"\n".join(official + [json.dumps(repeat).encode()]) + b"\n")
    report_file = tmp_path / "report.json"
    status, stdout, stderr, _ = run([sketchprep, "parity", "-q", "--raw", raw_file, "--simplified", official_file,
                                     "--report-json", report_file, "--worst", "9223372036854775807"])
    assert status == 0, stderr
    report = json.loads(report_file.read_text())
    assert report["pairs"] == clean["pairs"] == 10 and report["exact"] == clean["exact"]
    assert report["unmatched_raw"] == 0 and report["unmatched_official"] == 0
    assert report["duplicate_raw_key_ids"] == {"count": 1, "examples": [json.loads(raw[1])["key_id"]]}
    assert report["duplicate_official_key_ids"] == {"count": 1, "examples": [repeat["key_id"]]}
    assert report["duplicates_use"] == "first"
    assert "repeated key_ids skipped" in stdout


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def test_a_png_over_the_pixel_budget_is_rejected_before_decoding(sketchprep, tmp_path):
    side = 16384
    compressor = zlib.compressobj(9)
    row = b"\x00" * (side + 1)
    body = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
           + png_chunk(b"IDAT", body) + png_chunk(b"IEND", b""))
    images = tmp_path / "images"
    images.mkdir()
    (images / "huge.png").write_bytes(png)
    good = sorted((SHARED / "tuberlin").rglob("*.png"))[0]
    (images / "good.png").write_bytes(good.read_bytes())
    output = tmp_path / "out.npy"
    rejected = tmp_path / "rejected.txt"
    status, stdout, stderr, peak = run([sketchprep, "raster", images, "-o", output, "--quarantine", rejected, "-q"],
                                       limit_bytes=2 << 30, timeout=120)
    assert status == 0, stderr
    assert "image too large: 16384x16384" in stderr
    assert rejected.read_text().splitlines() == [str(images / "huge.png")]
    assert np.load(output).shape[0] == 1
    assert peak < 200 * 1024, f"peak RSS {peak} KiB"


@pytest.mark.parametrize("options, message", [
    (["--scale-target", "65535", "--resample-step", "0.001"], "--scale-target / --resample-step must be ≤ 65536"),
    (["--scale-target", "1e300"], "--scale-target must be a number > 0 and ≤ 65535"),
    (["--epsilon", "nan"], "--epsilon must be a number in 0...1000"),
])
def test_unbounded_simplification_options_are_refused(sketchprep, tmp_path, options, message):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines(count=1)) + b"\n")
    status, _, stderr, _ = run([sketchprep, "simplify", source, "-o", tmp_path / "o.ndjson", *options])
    assert status == 64 and message in stderr, stderr


def test_pipeline_files_share_the_option_bounds(sketchprep, tmp_path):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        "source: {kind: quickdraw-ndjson, inputs: [%s]}\n"
        "simplify: {scale_target: 65535, resample_step: 0.001}\n"
        "encode: {kind: strokes, length: 75}\n"
        "output: {format: npy, directory: %s}\n" % (RAW / "cat.ndjson", tmp_path / "out"))
    status, stdout, stderr, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "-q"])
    assert status != 0
    assert "simplify.scale_target" in stdout + stderr and "must be ≤ 65536" in stdout + stderr


def test_preprocess_counts_source_errors_in_the_manifest(sketchprep, tmp_path):
    lines = good_lines(count=20)
    first = bytearray(gzip_member(b"\n".join(lines[:10]) + b"\n"))
    first[-8] ^= 0xFF
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "cat.ndjson.gz").write_bytes(bytes(first) + gzip_member(b"\n".join(lines[10:]) + b"\n"))
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        "source: {kind: quickdraw-ndjson, inputs: [%s]}\n"
        "encode: {kind: strokes, length: 75}\n"
        "output: {format: npy, directory: %s}\n" % (inputs, tmp_path / "out"))
    status, stdout, stderr, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "-q"])
    assert status == 0, stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["records"] == {"read": 20, "written": 20, "filtered": 0, "rejected": 0, "source_errors": 1,
                                   "duplicate_key_ids": 0}
    assert "source errors 1" in stdout
    status, _, _, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "-q", "--strict", "--force"])
    assert status == 1


def test_preprocess_counts_repeated_key_ids(sketchprep, tmp_path):
    lines = good_lines(count=5)
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "cat.ndjson").write_bytes(b"\n".join(lines + lines[:2]) + b"\n")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        "source: {kind: quickdraw-ndjson, inputs: [%s]}\n"
        "encode: {kind: strokes, length: 75}\n"
        "output: {format: npy, directory: %s}\n" % (inputs, tmp_path / "out"))
    status, stdout, stderr, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "-q"])
    assert status == 0, stderr
    records = json.loads((tmp_path / "out" / "manifest.json").read_text())["records"]
    assert records["written"] == 7 and records["duplicate_key_ids"] == 2
    assert "2 written example(s) repeat an earlier key_id" in stdout


@pytest.mark.parametrize("repeats, reason", [(1_000_000, "too many points"), (3_000_000, "line longer than")])
def test_a_small_gzip_of_a_huge_line_stays_in_bounded_memory(sketchprep, tmp_path, clean, repeats, reason):
    lines, expected = clean
    numbers = b"0,1000," * repeats + b"0"
    bomb = (b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"bomb",'
            b'"drawing":[[[' + numbers + b'],[' + numbers + b']]]}')
    source = tmp_path / "bomb.ndjson.gz"
    source.write_bytes(gzip_member(b"\n".join(lines[:3] + [bomb] + lines[3:]) + b"\n"))
    assert source.stat().st_size < 200_000
    out = tmp_path / "out"
    out.mkdir()
    result = simplify(sketchprep, [source], out, limit_bytes=2 << 30, timeout=120)
    assert result["status"] == 0, result["stderr"]
    report = result["report"]
    assert reconciles(report) and report["rejected"] == 1 and report["source_errors"] == 0
    assert [kind for kind in report["rejected_by_reason"] if kind.startswith(reason)]
    assert result["output"] == expected
    assert result["peak_kib"] < 300 * 1024, f"peak RSS {result['peak_kib']} KiB"


def test_raster_strict_fails_on_an_undecodable_image(sketchprep, tmp_path):
    images = tmp_path / "images"
    images.mkdir()
    (images / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    output = tmp_path / "out.npy"
    # Nothing written: exit 1 with or without --strict.
    status, _, stderr, _ = run([sketchprep, "raster", images, "-o", output, "-q"])
    assert status == 1 and "all 1 record(s) were rejected" in stderr
    (images / "good.png").write_bytes(sorted((SHARED / "tuberlin").rglob("*.png"))[0].read_bytes())
    status, _, stderr, _ = run([sketchprep, "raster", images, "-o", output, "-q"])
    assert status == 0, stderr
    status, _, stderr, _ = run([sketchprep, "raster", images, "-o", output, "-q", "--strict"])
    assert status == 1 and "--strict: 1 rejected record(s)" in stderr
