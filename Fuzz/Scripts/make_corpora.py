#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus/<harness>/ from SampleData plus hand-made extreme
cases (±1e308, 1e-320, -0, 1e400, huge exponents, long arrays, damaged gzip, odd PNG kinds).

Deterministic: running it again rewrites the same bytes. Run from anywhere:
    python3 Fuzz/Scripts/make_corpora.py
"""
import gzip
import hashlib
import struct
import io
import json
import pathlib
import pickle
import shutil
import zipfile
import zlib

import numpy as np
from PIL import Image

FUZZ = pathlib.Path(__file__).resolve().parent.parent
REPO = FUZZ.parent
CORPUS = FUZZ / "Corpus"
RAW = REPO / "SampleData" / "quickdraw" / "raw"
SIMPLIFIED = REPO / "SampleData" / "quickdraw" / "simplified"

HEADER = '{"word":"cat","countrycode":"US","timestamp":"2017-03-01 00:00:00.0 UTC","recognized":true,"key_id":"%s","drawing":%s}'


def sample_lines(directory, per_file):
    lines = []
    for path in sorted(directory.glob("*.ndjson")):
        with open(path, "rb") as f:
            lines += [line.rstrip(b"\n") for line in f.readlines()[:per_file]]
    return lines


def raw_line(key, strokes):
    """strokes: list of (xs, ys, ts) with numbers already formatted as strings."""
    drawing = "[" + ",".join("[[%s],[%s],[%s]]" % (",".join(x), ",".join(y), ",".join(t)) for x, y, t in strokes) + "]"
    return (HEADER % (key, drawing)).encode()


def extreme_lines():
    out = {}
    numbers = ["1e308", "-1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "1e-320", "-0", "-0.0",
               "1e400", "-1e400", "1e99999999999999999999", "0e-99999999999", "7e305", "3.5e38", "65536",
               "1e9", "1000000001", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
               "NaN", "Infinity", "1.", ".5", "01", "+1", "1e", "0x10"]
    for i, n in enumerate(numbers):
        out["extreme-%02d" % i] = raw_line(str(1000 + i), [([n, "0", "5"], ["0", n, "5"], ["0", "1", "2"])])
    big = ["1e308", "-1e308"]
    out["extent-inf"] = raw_line("2000", [(big, list(reversed(big)), ["0", "1"])])
    out["extent-7e305"] = raw_line("2001", [(["-7e305", "7e305"], ["0", "0"], ["0", "1"])])
    zig = [str((i % 2) * 1000) for i in range(6000)]
    out["zigzag-long"] = raw_line("2002", [(zig, [str(i) for i in range(6000)], [str(i) for i in range(6000)])])
    many = [(["1", "2"], ["1", "2"], ["0", "1"])] * 2000
    out["many-strokes"] = raw_line("2003", many)
    out["empty-drawing"] = (HEADER % ("2004", "[]")).encode()
    out["empty-stroke"] = (HEADER % ("2005", "[[[],[],[]]]")).encode()
    out["mismatched-arrays"] = (HEADER % ("2006", "[[[1,2,3],[1,2],[0,1,2]]]")).encode()
    out["deep-nesting"] = (HEADER % ("2007", "[" * 10000 + "]" * 10000)).encode()
    out["bom"] = b"\xef\xbb\xbf" + raw_line("2008", [(["1", "2"], ["3", "4"], ["0", "1"])])
    out["bad-utf8"] = (HEADER % ("2009", "[[[1],[2],[0]]]")).encode().replace(b"cat", b"c\xff\xfe")
    out["escapes"] = (HEADER % ("2010", "[[[1],[2],[0]]]")).encode().replace(b'"cat"', b'"c\\u0000\\ud800\\\\\\"t"')
    out["duplicate-keys"] = (HEADER % ("2011", "[[[1],[2],[0]]]")).encode()[:-1] + b',"drawing":[]}'
    out["simplified-huge"] = b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"2012","drawing":[[[3.5e38,-3.5e38],[0,65536]]]}'
    return out


def write(directory, name, data):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


def ndjson_corpus():
    d = CORPUS / "FuzzNDJSONLine"
    for i, line in enumerate(sample_lines(RAW, 2)):
        write(d, "raw-%02d" % i, line)
    for i, line in enumerate(sample_lines(SIMPLIFIED, 2)):
        write(d, "simplified-%02d" % i, line)
    for name, line in extreme_lines().items():
        write(d, name, line)


def gzip_corpus():
    d = CORPUS / "FuzzGzipReader"
    lines = sample_lines(RAW, 1)[:3] + [extreme_lines()["extreme-00"], b"not json", b""]
    text = b"\n".join(lines) + b"\n"
    member = gzip.compress(text, mtime=0)
    write(d, "plain", text)
    write(d, "plain-no-final-newline", text.rstrip(b"\n"))
    write(d, "crlf-bom", b"\xef\xbb\xbf" + text.replace(b"\n", b"\r\n"))
    write(d, "gzip", member)
    write(d, "gzip-two-members", member + gzip.compress(lines[1] + b"\n", mtime=0))
    write(d, "gzip-truncated", member[: len(member) * 2 // 3])
    bad_crc = bytearray(member)
    bad_crc[-8] ^= 0xFF
    write(d, "gzip-bad-crc", bytes(bad_crc))
    bad_size = bytearray(member)
    bad_size[-1] ^= 0x01
    write(d, "gzip-bad-isize", bytes(bad_size))
    write(d, "gzip-trailing-garbage", member + b"garbage")
    write(d, "gzip-empty-member", gzip.compress(b"", mtime=0))
    write(d, "gzip-header-only", member[:10])
    # A small bomb: a long line of zeros that expands far beyond the input (the line cap must hold).
    write(d, "gzip-bomb-line", gzip.compress(b"[" + b"0," * 400000 + b"0]\n", mtime=0))
    raw_deflate = zlib.compress(text)
    write(d, "zlib-not-gzip", raw_deflate)


def png_bytes(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


def png_corpus():
    d = CORPUS / "FuzzPNGImport"
    gradient = np.arange(64, dtype=np.uint8).reshape(8, 8) * 4
    write(d, "gray8", png_bytes(Image.fromarray(gradient)))
    write(d, "gray1", png_bytes(Image.fromarray(gradient > 100).convert("1")))
    write(d, "gray16", png_bytes(Image.fromarray(gradient.astype(np.uint16) * 257)))
    write(d, "gray-alpha", png_bytes(Image.merge("LA", [Image.fromarray(gradient), Image.fromarray(255 - gradient)])))
    rgb = np.dstack([gradient, 255 - gradient, gradient // 2])
    write(d, "rgb", png_bytes(Image.fromarray(rgb)))
    write(d, "rgba", png_bytes(Image.fromarray(np.dstack([rgb, gradient]))))
    write(d, "palette", png_bytes(Image.fromarray(rgb).convert("P", palette=Image.ADAPTIVE, colors=4)))
    palette_t = Image.fromarray(rgb).convert("P", palette=Image.ADAPTIVE, colors=4)
    palette_t.info["transparency"] = 0
    write(d, "palette-trns", png_bytes(palette_t, transparency=0))
    write(d, "gray-trns", png_bytes(Image.fromarray(gradient), transparency=0))
    write(d, "one-pixel", png_bytes(Image.new("L", (1, 1), 7)))
    valid = png_bytes(Image.fromarray(gradient))
    write(d, "truncated", valid[: len(valid) - 20])
    write(d, "signature-only", valid[:8])
    # IHDR claiming 2^31-1 × 2^31-1 (the pixel budget must refuse it before allocating).
    ihdr = b"IHDR" + (0x7FFFFFFF).to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    huge = valid[:8] + (13).to_bytes(4, "big") + ihdr + zlib.crc32(ihdr).to_bytes(4, "big") + valid[33:]
    write(d, "huge-header", huge)
    ihdr = b"IHDR" + (16384).to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    big = valid[:8] + (13).to_bytes(4, "big") + ihdr + zlib.crc32(ihdr).to_bytes(4, "big") + valid[33:]
    write(d, "16384-header", big)


def yaml_corpus():
    d = CORPUS / "FuzzPipelineYAML"
    for path in sorted((REPO / "Pipelines").glob("*.yaml")):
        write(d, path.stem, path.read_bytes())
    base = (REPO / "Pipelines" / "quickdraw-bitmap28.yaml").read_text()
    extra = {
        "huge-length": (REPO / "Pipelines" / "quickdraw-rnn.yaml").read_text().replace("length: 75", "length: 9223372036854775807"),
        "nan-seed": base.replace("seed: 42", "seed: .nan"),
        "anchors": "a: &a [*a]\n",
        "billion-laughs": "a: &a [x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c]\n",
        "tabs": "name:\t\"x\"\nsource: {kind: quickdraw-ndjson}\n",
        "empty": "",
        "flow": "{name: x, source: {kind: quickdraw-ndjson, inputs: [a, b]}, split: {train: 1e400, val: -0, test: 1e-320}}",
    }
    for name, text in extra.items():
        write(d, name, text.encode())


def bin_record(key, country, recognized, timestamp, strokes):
    """One record of Google's .bin layout (docs/formats.md), little-endian, from its documentation."""
    out = struct.pack("<Q2sBIH", key, country, recognized, timestamp, len(strokes))
    for xs, ys in strokes:
        out += struct.pack("<H", len(xs)) + bytes(xs) + bytes(ys)
    return out


def bin_corpus():
    d = CORPUS / "FuzzBinReader"
    square = [([0, 255, 255, 0, 0], [0, 0, 255, 255, 0])]
    two = bin_record(5201136883597312, b"US", 1, 1488000000, square) + bin_record(1, b"GB", 0, 0, square * 2)
    write(d, "two-records", two)
    write(d, "gzip", gzip.compress(two, mtime=0))
    write(d, "truncated", two[: len(two) - 7])
    write(d, "zero-strokes", bin_record(2, b"FR", 1, 5, []))
    write(d, "recognized-2", bin_record(3, b"DE", 2, 5, square))
    write(d, "non-ascii-country", bin_record(4, b"\xff\xfe", 1, 5, square))
    write(d, "huge-counts", struct.pack("<Q2sBIH", 5, b"US", 1, 5, 65535) + struct.pack("<H", 65535))
    write(d, "empty", b"")


def npy_header(descr, shape):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()


def object_array_npy(arrays, protocol=2):
    holder = np.empty(len(arrays), dtype=object)
    holder[:] = arrays
    return npy_header("|O", "(%d,)" % len(arrays)) + pickle.dumps(holder, protocol=protocol)


def zip_entries(entries, method=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, data)
    return buffer.getvalue()


def npz_corpus():
    """Stroke-3 .npz files (numpy's own pickles, protocols 2 and 5), pickles alone, and hostile
    zips: a shared deflated member listed many times, a name listed twice, nested tuples."""
    d = CORPUS / "FuzzNPZReader"
    drawing = np.array([[0, 0, 0], [5, -3, 1], [2, 2, 1]], dtype=np.int16)
    for protocol in (2, 5):
        for dtype in (np.int16, np.int32, np.float64):
            arrays = [drawing.astype(dtype), (drawing * 2).astype(dtype)]
            entries = [(f"{split}.npy", object_array_npy(arrays, protocol)) for split in ("train", "valid", "test")]
            write(d, f"npz-p{protocol}-{np.dtype(dtype).name}", zip_entries(entries))
            holder = np.empty(len(arrays), dtype=object)
            holder[:] = arrays
            write(d, f"pickle-p{protocol}-{np.dtype(dtype).name}", pickle.dumps(holder, protocol=protocol))
    write(d, "npz-stored", zip_entries([("train.npy", object_array_npy([drawing]))], zipfile.ZIP_STORED))
    write(d, "npz-fortran", zip_entries([("train.npy", object_array_npy([np.asfortranarray(drawing)]))]))
    member = zip_entries([("train.npy", bytes(1 << 16))])
    local_end = member.index(b"PK\x01\x02")
    central = member[local_end:member.index(b"PK\x05\x06")]
    shared = member[:local_end] + central * 5 + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 5, 5, len(central) * 5, local_end, 0)
    write(d, "zip-shared-member", shared)
    write(d, "zip-duplicate-name", zip_entries([("train.npy", b"a"), ("train.npy", b"b")]))
    write(d, "pickle-nested-tuples", b"\x80\x02)" + b"\x85" * 100 + b".")
    write(d, "pickle-self-list", b"\x80\x02]q\x00h\x00a.")


def raw_inflate_corpus():
    """Raw deflate streams after a two-byte output capacity: the shape of sketchprep's stroke-3
    entries (per array a Huffman-only block ended by a sync flush, then a final stored block),
    zlib's levels and strategies, and damaged streams."""
    d = CORPUS / "FuzzRawInflate"
    rows = np.array([[0, 0, 0], [5, -3, 0], [2, 2, 1], [-40, 7, 0], [3, 100, 1]], dtype=np.int16)
    arrays = [(rows * k).tobytes() for k in range(1, 9)]
    text = b"{'descr': '<i2', 'fortran_order': False, 'shape': (57, 3), } " * 20

    def deflate(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, flush=zlib.Z_FINISH):
        compressor = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy)
        return compressor.compress(data) + compressor.flush(flush)

    def capacity(size):
        return struct.pack("<H", min(size, 0xFFFF))

    fragments = b"".join(deflate(a, strategy=zlib.Z_HUFFMAN_ONLY, flush=zlib.Z_SYNC_FLUSH) for a in arrays)
    whole = b"".join(arrays)
    write(d, "huffman-only-fragments", capacity(len(whole)) + fragments + b"\x01\x00\x00\xff\xff")
    write(d, "huffman-only-fragments-open", capacity(len(whole)) + fragments)
    for level in (0, 1, 6, 9):
        write(d, f"level-{level}", capacity(len(text + whole)) + deflate(text + whole, level))
    write(d, "fixed", capacity(len(text)) + deflate(text, 6, zlib.Z_FIXED))
    write(d, "rle", capacity(len(whole)) + deflate(whole, 6, zlib.Z_RLE))
    stream = deflate(text + whole, 9)
    write(d, "truncated", capacity(len(text + whole)) + stream[: len(stream) // 2])
    write(d, "capacity-short", capacity(len(text) // 2) + stream)
    write(d, "block-type-3", capacity(100) + b"\x07\x00")


def npy_corpus():
    d = CORPUS / "FuzzNPYReader"
    for dtype, shape in ((np.uint8, (2, 28, 28)), (np.float32, (3, 75, 3)), (np.int32, (4,)), (np.uint8, (0, 784))):
        buffer = io.BytesIO()
        np.save(buffer, np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape) if np.prod(shape) else np.zeros(shape, dtype))
        write(d, f"{np.dtype(dtype).name}-{'x'.join(map(str, shape))}", buffer.getvalue())
    write(d, "overflowing-shape", npy_header("|u1", "(0, 4294967296, 4294967296)"))
    write(d, "huge-shape", npy_header("<f4", "(9223372036854775807, 2)"))
    write(d, "negative-shape", npy_header("|u1", "(-1, 784)"))
    write(d, "fortran", npy_header("|u1", "(2, 2)").replace(b"False", b"True ") + bytes(4))
    write(d, "version-3", npy_header("|u1", "(1,)").replace(b"\x01\x00", b"\x03\x00", 1))


def dataset_files_corpus():
    """manifest.json (0), partial.json (1) and run files (2), each prefixed by its selector byte."""
    d = CORPUS / "FuzzDatasetFiles"
    manifest = {"format_version": 2, "pipeline": {"name": "t", "file": "t.yaml", "config": {}}, "sources": [],
                "classes": [{"index": 0, "word": "cat"}], "counts": {"train": {"total": 2, "per_class": {"cat": 2}}},
                "shards": [{"file": "train-00000-of-00001.x.npy", "split": "train", "examples": 2, "bytes": 10, "sha256": "0" * 64}],
                "records": {"read": 2, "written": 2, "filtered": 0, "rejected": 0}, "quarantine": None}
    write(d, "manifest", b"\x00" + json.dumps(manifest).encode())
    hostile = json.loads(json.dumps(manifest))
    hostile["records"]["read"] = 2**63 - 1
    hostile["shards"][0]["file"] = "../../dev/zero"
    write(d, "manifest-hostile", b"\x00" + json.dumps(hostile).encode())
    partial = {"partial": True, "format_version": 2, "partition": {"index": 0, "count": 2},
               "pipeline": {"name": "t", "file": "t.yaml", "config": {}}, "pipeline_text": "source: {kind: quickdraw-ndjson}\n",
               "categories": [], "inputs": ["a.ndjson"], "libraries": {},
               "chunks": [{"path": "a.ndjson", "offset": 0, "bytes": 10, "isRange": False, "format": "ndjson", "word": ""}],
               "read": [{"chunk": 0, "bytes": 10, "sha256": "0" * 64, "quarantined": 0}], "rejected_sources": 0,
               "records": {"read": 1, "written": 1, "filtered": 0, "rejected": 0}, "words": ["cat"], "runs": ["runs/run-00000.bin"]}
    write(d, "partial", b"\x01" + json.dumps(partial).encode())
    hostile = json.loads(json.dumps(partial))
    hostile["read"][0]["chunk"] = 10**9
    hostile["runs"] = ["/dev/zero"]
    write(d, "partial-hostile", b"\x01" + json.dumps(hostile).encode())

    def crc32c(data, crc=0):
        crc ^= 0xFFFFFFFF
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        return crc ^ 0xFFFFFFFF

    def record(key, word, sort_key, split, shape, element, body):
        """One run record (docs/limits.md, "Files read back"): u32 length, then sort key, chunk, ordinal,
        split, element, flags, rank, body CRC, key and word lengths, the shape, key, word, body."""
        rest = struct.pack("<QIQBBBBIII", sort_key, 0, 1, split, element, 0, len(shape), crc32c(body), len(key), len(word))
        rest += b"".join(struct.pack("<I", s) for s in shape) + key + word + body
        return struct.pack("<I", len(rest)) + rest

    def header(records, seq, first, last):
        rest = struct.pack("<QQQ", seq, first, last)
        return struct.pack("<II", len(records), crc32c(records, crc32c(rest))) + rest

    def run_file(blocks, count=None):
        """SKRUN03: magic, blocks (32-byte header, payload), trailer (SKRUNEND, count, SHA-256 of the headers)."""
        headers = b"".join(h for h, _ in blocks)
        trailer = b"SKRUNEND" + struct.pack("<Q", len(blocks) if count is None else count) + hashlib.sha256(headers).digest()
        return b"SKRUN03\n" + b"".join(h + p for h, p in blocks) + trailer

    first = record(b"k1", b"cat", 5, 0, (2, 2), 2, bytes(4))
    second = record(b"k2", b"dog", 7, 1, (1, 3), 1, bytes(12))
    records = first + second
    run = run_file([(header(records, 0, 5, 7), records)])
    write(d, "run", b"\x02" + run)
    write(d, "run-truncated", b"\x02" + run[:-5])
    bad = bytearray(run)
    bad[-49] ^= 1  # the last payload byte, before the trailer
    write(d, "run-bad-crc", b"\x02" + bytes(bad))
    write(d, "run-bad-length", b"\x02" + run_file([(header(b"\xff\xff\x00\x00" + records[4:], 0, 5, 7), b"\xff\xff\x00\x00" + records[4:])]))
    write(d, "run-out-of-range", b"\x02" + run_file([(header(records, 0, 6, 7), records)]))
    one = (header(first, 0, 5, 5), first)
    two = (header(second, 1, 7, 7), second)
    write(d, "run-two-blocks", b"\x02" + run_file([one, two]))
    write(d, "run-reordered", b"\x02" + run_file([two, one]))
    write(d, "run-repeated", b"\x02" + run_file([one, one, two]))
    write(d, "run-missing", b"\x02" + run_file([two]))


def html_corpus():
    d = CORPUS / "FuzzHTMLReport"
    write(d, "plain", b"model\0cat\0dog\0key-1\0shard-00000")
    write(d, "combining-quote", 'm\0c"\u0301 onload=alert(1) \0<script>alert(2)</script>\0k\'\u0301><img src=x onerror=y>\0s'.encode())
    write(d, "controls", b"\x1b[2J\0\x00\0\x7f\xc2\x9b\0\xe2\x80\xae\0\xff\xfe")


def svg_corpus():
    """Whole SVG files (selector 0), path data (1) and transform lists (2) for FuzzSVGSketch."""
    d = CORPUS / "FuzzSVGSketch"
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">'
    write(d, "svg-paths", b"\x00" + svg + b'<g transform="translate(10 20) scale(2)"><path d="M10 10 L50 60 Q 80 0 100 100 '
          b'T 150 150 C 10 20 30 40 50 60 S 70 80 90 100 A 40 30 15 1 1 200 200 Z m5 5 h10 v10 z"/></g>'
          b'<polyline points="0,0 10,10 20,0"/><line x1="0" y1="0" x2="9" y2="9"/><polygon points="1 1 5 5 1 5"/></svg>')
    write(d, "svg-nested", b"\x00" + svg + b'<g transform="matrix(1 0 0 1 5 5)">' * 30 + b'<path d="M0 0 L1 1"/>'
          + b"</g>" * 30 + b"</svg>")
    write(d, "svg-skipped", b"\x00" + svg + b'<defs><path d="M0 0 L5 5"/></defs><text>x</text><path d="M1 1 L2 2"/></svg>')
    for name, data in [
        ("path-all-commands", b"M10 20 l5 5 H30 v-5 c1 2 3 4 5 6 s7 8 9 10 q3 3 6 0 t6 0 a5 5 0 0 1 10 0 z"),
        ("path-no-separators", b"M10-20.5.5e1L1e2,3E-1"),
        ("path-arc-underflow", b"M0 0 A1e-300 1e-300 0 0 1 10 10"),
        ("path-arc-tiny", b"M0 0 A1e-200 5 0 1 0 10 10"),
        ("path-arc-huge", b"M0 0 A1e9 1e-9 90 1 1 1e6 -1e6"),
        ("path-far-control", b"M0 0 C 999999 -999999 -999999 999999 10 10"),
        ("path-extremes", b"M1e9 -1e9 L-1e9 1e9 l1e9 1e9"),
        ("path-bad", b"M0 0 L 1e400 2 Z 3"),
    ]:
        write(d, name, b"\x01" + data)
    for name, data in [
        ("transform-list", b"translate(10,20) rotate(30 5 5) scale(2 3) skewX(10) skewY(-10) matrix(1 0 0 1 0 0)"),
        ("transform-huge", b"scale(1e9) scale(1e9) translate(1e9)"),
        ("transform-skew-90", b"skewX(90) skewY(270)"),
        ("transform-tiny", b"scale(1e-300) scale(1e-300)"),
        ("transform-bad", b"rotate() scale(a) matrix(1 2 3)"),
    ]:
        write(d, name, b"\x02" + data)


def csv_corpus():
    """Kaggle competition CSV files (train and test layouts) for FuzzKaggleCSV."""
    d = CORPUS / "FuzzKaggleCSV"
    train = b"countrycode,drawing,key_id,recognized,timestamp,word\n"
    test = b"key_id,countrycode,drawing\n"
    drawing = b'"[[[0, 10, 20], [0, 5, 30]], [[5, 6], [7, 8]]]"'
    write(d, "train", train + b"US," + drawing + b",1,True,2017-03-01 10:00:00.1,cat\n"
          + b'GB,"[[[1e308, -1e308], [0, 1]]]",2,False,2017-03-01 10:00:00.1,"a ""quoted"" word"\n')
    write(d, "test", test + b"9,DE," + drawing + b"\n10,FR,\"[[[NaN], [1]]]\"\n")
    write(d, "crlf-bom", b"\xef\xbb\xbf" + train.replace(b"\n", b"\r\n") + b"US," + drawing + b",1,true,,dog\r\n")
    write(d, "damaged", train + b'US,"[[[0,1],[0]]]",3,maybe,x,cat\nUS,"unterminated\n,,,,,\n')
    write(d, "extremes", test + b'1,US,"[[[1e400, 7e305, -0, 1e-320], [0, 0, 0, 0]]]"\n2,US,"[[]]"\n3,US,"[]"\n')


def run_order_corpus():
    """Run files with a block order for FuzzRunFileOrder: k, k block indexes, the file."""
    d = CORPUS / "FuzzRunFileOrder"
    two_blocks = (CORPUS / "FuzzDatasetFiles" / "run-two-blocks").read_bytes()[1:]
    one_block = (CORPUS / "FuzzDatasetFiles" / "run").read_bytes()[1:]
    write(d, "same-order", bytes([2, 0, 1]) + two_blocks)
    write(d, "swapped", bytes([2, 1, 0]) + two_blocks)
    write(d, "repeated", bytes([3, 0, 0, 1]) + two_blocks)
    write(d, "dropped", bytes([1, 1]) + two_blocks)
    write(d, "one-block", bytes([1, 0]) + one_block)


def python_loaders_corpus():
    """Stroke-3 .npz files (selector 0) and manifests (1) for the atheris harness FuzzPythonLoaders."""
    d = CORPUS / "FuzzPythonLoaders"
    items = [np.array([[0, 0, 0], [5, 3, 1]], np.int16), np.array([[1, 2, 1]], np.int16)]
    objects = np.empty(len(items), dtype=object)
    objects[:] = items
    def npy(array):
        out = io.BytesIO()
        np.lib.format.write_array(out, array, allow_pickle=True)
        return out.getvalue()

    write(d, "npz-object-arrays", b"\x00" + zip_entries(
        [("train.npy", npy(objects)), ("valid.npy", npy(objects[:1])), ("test.npy", npy(objects[:0]))]))
    empty, start = np.zeros((0, 3), np.int16), np.array([0], np.int64)
    write(d, "npz-flat", b"\x00" + zip_entries([
        ("train_points.npy", npy(np.concatenate(items))), ("train_offsets.npy", npy(np.array([0, 2, 3], np.int64))),
        ("valid_points.npy", npy(empty)), ("valid_offsets.npy", npy(start)),
        ("test_points.npy", npy(empty)), ("test_offsets.npy", npy(start))]))
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<i2", "fortran_order": False, "shape": (1 << 31, 3)})
    write(d, "npz-shape-claim", b"\x00" + zip_entries([("train_points.npy", header.getvalue()), ("train_offsets.npy", header.getvalue())]))
    write(d, "npz-many-entries", b"\x00" + zip_entries([(f"e{i}.npy", b"") for i in range(70)]))
    write(d, "manifest", b"\x01" + json.dumps({"format_version": 4, "pipeline": {"name": "p"}, "shards": [
        {"file": "cat.npz", "bytes": 10, "sha256": "0" * 64, "split": "all", "format": "npz"}]}).encode())
    write(d, "manifest-escape", b"\x01" + b'{"shards": [{"file": "../../etc/passwd", "bytes": 1e400}]}')


def main():
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    ndjson_corpus()
    gzip_corpus()
    png_corpus()
    yaml_corpus()
    bin_corpus()
    npz_corpus()
    raw_inflate_corpus()
    npy_corpus()
    dataset_files_corpus()
    html_corpus()
    svg_corpus()
    csv_corpus()
    run_order_corpus()
    python_loaders_corpus()
    for d in sorted(CORPUS.iterdir()):
        print(d.name, len(list(d.iterdir())), "files")


if __name__ == "__main__":
    main()
