"""Hostile containers, numbers, the tool's own JSON and reports, end to end through the CLI
(issue 17 items 3–6; docs/limits.md "Containers", "Files read back", "Reports and terminals").

Each case writes its own hostile bytes next to good input and checks: no signal, no hang (a
timeout per case), peak RSS under 1 GB, the rejection reason reported, good records still
written, and the exit status."""
import io
import json
import os
import pathlib
import struct
import subprocess
import sys
import zipfile
import zlib
from html.parser import HTMLParser

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
RAW = REPO / "SampleData" / "quickdraw" / "raw"
ONE_GB_KIB = 1 << 20


def run(command, *, timeout=60):
    """Runs `command` under a 4 GiB address-space limit; returns (exit status, stdout, stderr,
    peak RSS in KiB). Fails the test on a signal or a timeout."""
    measure = ("import resource, subprocess, sys\n"
               "r = subprocess.run(sys.argv[1:], capture_output=True)\n"
               "sys.stdout.buffer.write(r.stdout); sys.stderr.buffer.write(r.stderr)\n"
               "print('CHILD', r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", measure, "prlimit", f"--as={4 << 30}", *map(str, command)],
                            capture_output=True, timeout=timeout)
    stderr = result.stderr.decode(errors="replace")
    status, peak = map(int, stderr.rsplit("CHILD", 1)[1].split()[:2])
    assert status >= 0, f"killed by signal {-status}: {stderr[-2000:]}"
    assert peak < ONE_GB_KIB, f"peak RSS {peak} KiB"
    return status, result.stdout.decode(errors="replace"), stderr, peak


def good_lines(count=5):
    return (RAW / "cat.ndjson").read_text().splitlines()[:count]


def npz(entries):
    """A zip of (name, bytes) entries, deflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def object_array_npy(arrays):
    """A .npy of a 1-D object array holding `arrays`, as numpy writes it."""
    holder = np.empty(len(arrays), dtype=object)
    holder[:] = arrays
    buffer = io.BytesIO()
    np.save(buffer, holder, allow_pickle=True)
    return buffer.getvalue()


def simplify(sketchprep, tmp_path, inputs):
    out = tmp_path / "out.ndjson"
    quarantine = tmp_path / "quarantine.ndjson"
    report = tmp_path / "report.json"
    status, _, stderr, _ = run([sketchprep, "simplify", *inputs, "-o", out, "--quarantine", quarantine,
                                "--report-json", report, "-j", "2"])
    return status, stderr, json.loads(report.read_text()), out.read_text().splitlines()


def test_a_zip_bomb_sharing_one_member_is_a_source_error_and_other_inputs_are_written(sketchprep, tmp_path):
    member = zlib.compressobj(9, zlib.DEFLATED, -15)
    size = 100 << 20
    deflated = member.compress(bytes(size)) + member.flush()
    crc = zlib.crc32(bytes(size))
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(deflated), size, 9, 0) + b"train.npy" + deflated
    central = b""
    for index in range(200):
        name = f"e{index:03}.npy".encode()
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(deflated), size,
                               len(name), 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 200, 200, len(central), len(local), 0)
    bomb = tmp_path / "bomb.npz"
    bomb.write_bytes(local + central + end)
    assert bomb.stat().st_size < 200_000
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(good_lines()) + "\n")
    status, stderr, report, written = simplify(sketchprep, tmp_path, [bomb, good])
    assert status == 0, stderr
    assert "200 entries, more than 64" in stderr
    assert report["source_errors"] == 1 and report["written"] == 5
    assert len(written) == 5


def test_a_pickle_of_two_million_nested_tuples_is_refused_without_a_crash(sketchprep, tmp_path):
    pickle = b"\x80\x02)" + b"\x85" * 2_000_000 + b"."
    header = b"{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    npy = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + pickle
    deep = tmp_path / "deep.npz"
    deep.write_bytes(npz([("train.npy", npy)]))
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(good_lines()) + "\n")
    status, stderr, report, written = simplify(sketchprep, tmp_path, [deep, good])
    assert status == 0, stderr
    assert "tuples nest deeper than 32" in stderr
    assert report["source_errors"] == 1 and len(written) == 5


def test_a_float64_stroke3_value_of_1e300_is_quarantined_and_its_neighbours_written(sketchprep, tmp_path):
    good = np.array([[0.5, 1.25, 0], [10.0, 3.0, 1]], dtype=np.float64)
    bad = np.array([[1e300, 0, 0], [1e300, 1, 1]], dtype=np.float64)
    path = tmp_path / "kanji.npz"
    path.write_bytes(npz([("train.npy", object_array_npy([good, bad, good])),
                          ("valid.npy", object_array_npy([good])), ("test.npy", object_array_npy([good]))]))
    status, stderr, report, written = simplify(sketchprep, tmp_path, [path])
    assert status == 0, stderr
    assert report["rejected"] == 1 and report["written"] == 4
    quarantined = (tmp_path / "quarantine.ndjson").read_text()
    assert "kanji.npz#train#1" in quarantined
    assert "coordinate out of range" in stderr


def test_import_bitmaps_refuses_an_overflowing_npy_shape_with_a_message(sketchprep, tmp_path):
    header = b"{'descr': '|u1', 'fortran_order': False, 'shape': (0, 4294967296, 4294967296), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    (tmp_path / "cat.npy").write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header)
    status, _, stderr, _ = run([sketchprep, "import-bitmaps", "--input", tmp_path / "cat.npy", "-o", tmp_path / "out"])
    assert status == 1
    assert "is too large" in stderr


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def test_raster_refuses_a_million_by_one_png_and_writes_the_good_image(sketchprep, tmp_path):
    images = tmp_path / "images"
    images.mkdir()
    width = 1_000_000
    body = zlib.compress(b"\x00" + b"\xff" * width)
    (images / "thin.png").write_bytes(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, 1, 8, 0, 0, 0, 0))
                                      + png_chunk(b"IDAT", body) + png_chunk(b"IEND", b""))
    square = zlib.compress(b"".join(b"\x00" + bytes([row * 8] * 32) for row in range(32)))
    (images / "good.png").write_bytes(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 8, 0, 0, 0, 0))
                                      + png_chunk(b"IDAT", square) + png_chunk(b"IEND", b""))
    output = tmp_path / "out.npy"
    status, _, stderr, _ = run([sketchprep, "raster", images, "-o", output, "--quarantine", tmp_path / "rejected.txt"])
    assert status == 0, stderr
    assert "image too large: 1000000x1" in stderr
    assert np.load(output).shape[0] == 1


def test_a_pipeline_whose_alias_fan_out_is_a_mapping_key_is_refused_quickly(sketchprep, tmp_path):
    text = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    for level in range(1, 9):
        previous = "a" if level == 1 else f"l{level - 1}"
        text += f"l{level}: &l{level} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
    text += "? *l8\n: 1\nsource: {kind: quickdraw-ndjson}\nencode: {kind: strokes, length: 75}\n"
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(text)
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(good_lines()) + "\n")
    status, _, stderr, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "--input", good, "--output", tmp_path / "out"],
                               timeout=30)
    assert status != 0
    assert "alias" in stderr and "p.yaml" in stderr


@pytest.fixture
def dataset(sketchprep, tmp_path):
    good = tmp_path / "good.ndjson"
    good.write_text("\n".join(good_lines(20)) + "\n")
    out = tmp_path / "dataset"
    status, _, stderr, _ = run([sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml",
                                "--input", good, "--category", "cat", "--output", out])
    assert status == 0, stderr
    return out


def test_verify_refuses_a_manifest_listing_dev_zero_and_overflowing_counts(sketchprep, dataset):
    manifest = json.loads((dataset / "manifest.json").read_text())
    manifest["shards"][0]["file"] = "../../../../../../dev/zero"
    manifest["records"]["read"] = 2**63 - 1
    manifest["records"]["written"] = 2**63 - 1
    (dataset / "manifest.json").write_text(json.dumps(manifest))
    status, _, stderr, _ = run([sketchprep, "verify", dataset], timeout=30)
    assert status == 1
    assert "shards[0].file" in stderr and "records.read" in stderr


def test_verify_refuses_a_shard_replaced_by_a_link_to_dev_zero(sketchprep, dataset):
    manifest = json.loads((dataset / "manifest.json").read_text())
    shard = dataset / manifest["shards"][0]["file"]
    shard.unlink()
    shard.symlink_to("/dev/zero")
    status, _, stderr, _ = run([sketchprep, "verify", dataset], timeout=30)
    assert status == 1
    assert "refused path" in stderr and "leads outside" in stderr


def test_an_escape_sequence_in_a_key_id_never_reaches_the_terminal_raw(sketchprep, tmp_path):
    bad = '{"word":"cat","countrycode":"US","timestamp":"x","recognized":true,"key_id":"\\u001b[2J\\u001b]0;owned\\u0007","drawing":[[[0,1]]]}'
    source = tmp_path / "in\x1b[31m.ndjson"  # data names the file too: its path is in every message
    source.write_text("\n".join(good_lines(2) + [bad, "{\"key_id\": \"\\u001b[31m"]) + "\n")
    status, stdout, stderr, _ = run([sketchprep, "simplify", source, "-o", tmp_path / "out.ndjson", "--quarantine", tmp_path / "q.ndjson"])
    assert status == 0
    assert "\x1b" not in stderr and "\x07" not in stderr and "\x1b" not in stdout
    assert "\\u{1B}" in stderr


class AttributeCollector(HTMLParser):
    """Every (tag, attribute) libxml2-like HTML parsing finds; script elements counted."""

    def __init__(self):
        super().__init__()
        self.attributes = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        self.attributes += [(tag, name) for name, _ in attrs]


def test_stats_html_escapes_a_quote_with_a_combining_mark_and_forbids_scripts(sketchprep, tmp_path):
    record = json.loads(good_lines(1)[0])
    record["key_id"] = 'x"\u0301 onload="alert(1)" <script>alert(2)</script>'
    source = tmp_path / "in.ndjson"
    source.write_text(json.dumps(record) + "\n")
    status, _, stderr, _ = run([sketchprep, "stats", source, "-o", tmp_path / "stats"])
    assert status == 0, stderr
    page = (tmp_path / "stats" / "stats.html").read_text()
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    collector = AttributeCollector()
    collector.feed(page)
    assert collector.scripts == 0
    assert not [pair for pair in collector.attributes if pair[1].startswith("on")], collector.attributes
