"""The reliability suite (issue 11): every class of adversarial input, end to end through the
release CLI, with `--jobs 2` where the command takes it (`preprocess`; the single-stream commands
`simplify`, `encode`, `bitmap`, `raster` and `parity` have no `--jobs`).

Each case asserts what a user relies on:
- no signal (the process exits; it is not killed by a trap or by the kernel),
- peak RSS under the engine's bound, 100 MB + 50 MB per job, measured with
  `resource.getrusage(RUSAGE_CHILDREN)`; every case runs under `prlimit --as` so a regression
  cannot take the machine down,
- a clear message (the reason, no Foundation error dump),
- the bad record in quarantine (verbatim) with its reason counted in the summary,
- the reconciliation `read = written + filtered + rejected` (damaged inputs counted apart as
  `source_errors`),
- every good record's output (the stroke tensor, looked up by key_id) byte-identical to a clean
  run's.

test_limits.py and test_streams_paths.py pin each rule one command at a time; this suite runs the
classes together through the parallel engine.
"""
import gzip
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO, SHARED

JOBS = 2
RSS_BOUND_KIB = (100 + 50 * JOBS) * 1024
ADDRESS_SPACE_LIMIT = 4 << 30
TIMEOUT = 180
RAW = SHARED / "quickdraw" / "raw"
CATEGORIES = ["cat", "apple", "airplane"]
FOUNDATION_DUMP = ("Error Domain", "NSCocoaErrorDomain", "Fatal error", "Illegal instruction")


def good_lines():
    """Ten real drawings of each of three categories (30 records with distinct key_ids)."""
    lines = []
    for category in CATEGORIES:
        with open(RAW / f"{category}.ndjson", "rb") as handle:
            lines += [next(handle).rstrip(b"\n") for _ in range(10)]
    return lines


def record(key, x, y="[0,1]", t="[0,1]", word="cat"):
    """A raw record with one stroke whose arrays are the JSON texts given."""
    return (b'{"word":"%s","countrycode":"US","timestamp":"2017-03-01 00:00:00.0 UTC","recognized":true,'
            b'"key_id":"%s","drawing":[[%s,%s,%s]]}' % (word.encode(), key.encode(), x.encode(), y.encode(), t.encode()))


def zigzag(points):
    return "[" + ",".join("0" if i % 2 else "1000" for i in range(points)) + "]"


def run(command, stdin=None):
    """Runs `command` under `prlimit --as`; returns (status, stdout+stderr, peak RSS in KiB)."""
    measure = ("import resource, subprocess, sys\n"
               "r = subprocess.run(sys.argv[1:], capture_output=True, stdin=sys.stdin)\n"
               "sys.stdout.buffer.write(r.stdout); sys.stderr.buffer.write(r.stderr)\n"
               "print('PEAK_RSS_KIB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
               "sys.exit(r.returncode)\n")
    result = subprocess.run([sys.executable, "-c", measure, "prlimit", f"--as={ADDRESS_SPACE_LIMIT}",
                             *map(str, command)], capture_output=True, timeout=TIMEOUT, stdin=stdin)
    stderr = result.stderr.decode(errors="replace")
    text, _, tail = stderr.rpartition("PEAK_RSS_KIB")
    assert result.returncode >= 0, f"killed by signal {-result.returncode}: {stderr[-2000:]}"
    return result.returncode, result.stdout.decode(errors="replace") + text, int(tail.split()[0])


def write_pipeline(path, inputs, output, source_format="raw"):
    path.write_text(
        "source: {kind: quickdraw-ndjson, format: %s, inputs: [%s]}\n"
        "encode: {kind: strokes, length: 75}\n"
        "output: {format: npy, directory: %s, examples_per_shard: 7}\n"
        % (source_format, ", ".join(json.dumps(str(i)) for i in inputs), json.dumps(str(output))))


def examples_by_key(directory):
    """key_id → (stroke tensor bytes, label word) over every shard of every split (for a repeated
    key_id, the first shard's example)."""
    classes = (directory / "classes.txt").read_text().splitlines()
    found = {}
    for keys_file in sorted(directory.glob("*.keys.txt")):
        stem = keys_file.name[: -len(".keys.txt")]
        x = np.load(directory / f"{stem}.x.npy")
        y = np.load(directory / f"{stem}.y.npy")
        for key, row, label in zip(keys_file.read_text().splitlines(), x, y):
            found.setdefault(key, (row.tobytes(), classes[label]))
    return found


def preprocess(sketchprep, tmp_path, name, inputs, source_format="raw", stdin=None, extra=()):
    """`preprocess --jobs 2`; returns status, text, peak RSS, manifest records, examples, quarantine lines."""
    output = tmp_path / f"{name}-out"
    pipeline = tmp_path / f"{name}.yaml"
    write_pipeline(pipeline, inputs, output, source_format)
    status, text, peak = run([sketchprep, "preprocess", "--pipeline", pipeline, "--jobs", JOBS, "-q", *extra],
                             stdin=stdin)
    result = {"status": status, "text": text, "peak_kib": peak}
    if (output / "manifest.json").exists():
        result["records"] = json.loads((output / "manifest.json").read_text())["records"]
        result["examples"] = examples_by_key(output)
        result["quarantine"] = (output / "quarantine.ndjson").read_bytes().splitlines()
    return result


@pytest.fixture(scope="module")
def clean(sketchprep, tmp_path_factory):
    """The clean run: the good records' tensors by key_id."""
    tmp_path = tmp_path_factory.mktemp("clean")
    source = tmp_path / "clean.ndjson"
    source.write_bytes(b"\n".join(good_lines()) + b"\n")
    result = preprocess(sketchprep, tmp_path, "clean", [source])
    assert result["status"] == 0, result["text"]
    assert result["records"]["rejected"] == 0 and result["records"]["written"] == 30
    return result["examples"]


def assert_reliable(result, clean, *, rejected=(), reason_texts=(), source_errors=0, extra_written=0):
    """The common assertions of every NDJSON case."""
    text = result["text"]
    assert result["status"] == 0, text
    assert not any(dump in text for dump in FOUNDATION_DUMP), text
    assert result["peak_kib"] < RSS_BOUND_KIB, f"peak RSS {result['peak_kib']} KiB over {RSS_BOUND_KIB} KiB"
    records = result["records"]
    assert records["read"] == records["written"] + records["filtered"] + records["rejected"], records
    assert records["rejected"] == len(rejected), (records, text)
    assert records["source_errors"] == source_errors, (records, text)
    assert records["written"] == len(clean) + extra_written, records
    quarantined = result["quarantine"]
    for line in rejected:
        assert line in quarantined, f"bad record not in quarantine: {line[:120]!r}"
    assert sum(b'"source_error"' in line for line in quarantined) == source_errors
    for reason in reason_texts:
        assert reason in text, f"reason {reason!r} not reported:\n{text[-3000:]}"
    for key, payload in clean.items():
        assert result["examples"].get(key) == payload, f"good record {key} differs from the clean run"


def mixed(bad):
    """The good lines with the bad ones interleaved (one after every third good line)."""
    lines = []
    good = good_lines()
    for index, line in enumerate(good):
        lines.append(line)
        if index % 3 == 2 and bad:
            lines.append(bad.pop(0))
    return lines + bad


NUMBER_CASES = {
    # Crash class: ±1e308 trapped in the arc-length resampler (NaN/inf → Int).
    "near-max": (["[0,1e308]", "[-1e308,0]", "[1.7976931348623157e308,0]"], "coordinate out of range"),
    # Hang class: an extent over ~7e305 made the total length infinite.
    "huge-extent": (["[-7e305,7e305]", "[-1e306,1e306]"], "coordinate out of range"),
    # Non-finite after conversion.
    "overflowing-literals": (["[0,1e400]", "[0,-1e400]", "[0,1e99999999999999999999]"], "coordinate out of range"),
    "non-numeric": (["[0,NaN]", "[0,Infinity]", "[0,-Infinity]"], "non-numeric value"),
    # Integer-sized literals beyond the documented bound.
    "beyond-bound": (["[0,1000000001]", "[0,9223372036854775807]", "[0,-18446744073709551616]"],
                     "coordinate out of range"),
}


@pytest.mark.parametrize("case", sorted(NUMBER_CASES))
def test_extreme_numbers_are_quarantined_by_the_parallel_engine(sketchprep, tmp_path, clean, case):
    arrays, reason = NUMBER_CASES[case]
    bad = [record(f"bad-{case}-{i}", x) for i, x in enumerate(arrays)]
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(mixed(list(bad))) + b"\n")
    result = preprocess(sketchprep, tmp_path, case, [source])
    assert_reliable(result, clean, rejected=bad, reason_texts=[reason])


def test_tiny_and_negative_zero_coordinates_are_accepted(sketchprep, tmp_path, clean):
    accepted = [record("tiny", "[1e-320,-0,5]", y="[0,3,1e-300]", t="[0,1,2]"),
                record("at-the-bound", "[-1e9,1000000000]")]
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(mixed(list(accepted))) + b"\n")
    result = preprocess(sketchprep, tmp_path, "tiny", [source])
    assert_reliable(result, clean, extra_written=2)
    for key in ("tiny", "at-the-bound"):
        assert np.isfinite(np.frombuffer(result["examples"][key][0], dtype="<f4")).all()


@pytest.mark.parametrize("points, reason", [(150_000, "too many points"), (40_000, "too many resampled points")])
def test_long_zigzag_strokes_stay_in_bounded_memory(sketchprep, tmp_path, clean, points, reason):
    # A 2 MB zig-zag line took 1.6 GB before the caps (about 4 KB of RSS per input byte).
    bad = [record("zigzag", zigzag(points), y=zigzag(points), t="[" + ",".join(map(str, range(points))) + "]")]
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(mixed(list(bad))) + b"\n")
    result = preprocess(sketchprep, tmp_path, "zigzag", [source])
    assert_reliable(result, clean, rejected=bad, reason_texts=[reason])


def test_a_small_gzip_bomb_stays_in_bounded_memory(sketchprep, tmp_path, clean):
    # A 14 KB gzip of a zig-zag line took 4 GB and aborted before the caps.
    numbers = "[" + "0,1000," * 3_000_000 + "0]"
    bomb = record("bomb", numbers, y=numbers, t="[0]")
    source = tmp_path / "bomb.ndjson.gz"
    source.write_bytes(gzip.compress(b"\n".join(mixed([bomb])) + b"\n", mtime=0))
    assert source.stat().st_size < 200_000
    result = preprocess(sketchprep, tmp_path, "bomb", [source])
    # A line over the line cap is quarantined truncated to the cap, so its start is compared.
    records = result["records"]
    assert result["status"] == 0 and records["rejected"] == 1 and records["written"] == 30, result["text"]
    assert records["read"] == records["written"] + records["filtered"] + records["rejected"]
    # The parser stops at the point cap before the line cap is reached; either reason is clear.
    assert "too many points" in result["text"] or "line longer than" in result["text"], result["text"]
    assert result["peak_kib"] < RSS_BOUND_KIB, f"peak RSS {result['peak_kib']} KiB"
    assert any(line.startswith(bomb[:1000]) for line in result["quarantine"])
    for key, payload in clean.items():
        assert result["examples"].get(key) == payload


def gzip_member(data):
    return gzip.compress(data, mtime=0)


@pytest.mark.parametrize("damage", ["bad-crc", "truncated", "trailing-garbage"])
def test_damaged_gzip_keeps_its_records_and_is_one_source_error(sketchprep, tmp_path, clean, damage):
    lines = good_lines()
    first = bytearray(gzip_member(b"\n".join(lines[:15]) + b"\n"))
    second = gzip_member(b"\n".join(lines[15:]) + b"\n")
    if damage == "bad-crc":
        first[-8] ^= 0xFF
        data = bytes(first) + second
        expected = clean
    elif damage == "truncated":
        data = bytes(first) + second[:-12]
        expected = None  # the records of the cut member's complete lines are kept; the rest is lost with the tail
    else:
        data = bytes(first) + second + b"not gzip at all"
        expected = clean
    source = tmp_path / "in.ndjson.gz"
    source.write_bytes(data)
    result = preprocess(sketchprep, tmp_path, damage, [source])
    if expected is None:
        records = result["records"]
        assert result["status"] == 0 and records["source_errors"] == 1, result["text"]
        assert records["read"] == records["written"] + records["filtered"] + records["rejected"]
        assert result["peak_kib"] < RSS_BOUND_KIB
        for key, payload in result["examples"].items():
            assert clean[key] == payload
        assert len(result["examples"]) >= 15
    else:
        assert_reliable(result, expected, source_errors=1)
    # --strict turns a source error into a failing run.
    strict = preprocess(sketchprep, tmp_path, damage + "-strict", [source], extra=["--strict"])
    assert strict["status"] == 1, strict["text"]


def test_a_byte_order_mark_does_not_lose_the_first_record(sketchprep, tmp_path, clean):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(good_lines()) + b"\r\n")
    assert_reliable(preprocess(sketchprep, tmp_path, "bom", [source]), clean)


def test_simplified_input_beyond_float32_is_quarantined_not_nan(sketchprep, tmp_path):
    with open(SHARED / "quickdraw" / "simplified" / "cat.ndjson", "rb") as handle:
        lines = [next(handle).rstrip(b"\n") for _ in range(10)]
    clean_source = tmp_path / "clean.ndjson"
    clean_source.write_bytes(b"\n".join(lines) + b"\n")
    clean = preprocess(sketchprep, tmp_path, "sclean", [clean_source], source_format="simplified")["examples"]
    bad = [b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"huge",'
           b'"drawing":[[[0,3.5e38],[0,1]]]}',
           b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"over",'
           b'"drawing":[[[0,65536],[0,1]]]}']
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(lines[:5] + bad + lines[5:]) + b"\n")
    result = preprocess(sketchprep, tmp_path, "simplified", [source], source_format="simplified")
    assert_reliable(result, clean, rejected=bad, reason_texts=["coordinate out of range"])
    for payload, _ in result["examples"].values():
        assert np.isfinite(np.frombuffer(payload, dtype="<f4")).all()


def test_malformed_records_are_quarantined_with_their_reason(sketchprep, tmp_path, clean):
    bad = [b"not json",
           b'{"word":"cat"}',
           record("mismatch", "[1,2,3]", y="[1,2]", t="[0,1,2]"),
           b'{"word":"cat","countrycode":"US","timestamp":"t","recognized":true,"key_id":"deep","drawing":'
           + b"[" * 5000 + b"]" * 5000 + b"}",
           b'{"word":"c\xff\xfe","countrycode":"US","timestamp":"t","recognized":true,"key_id":"utf8","drawing":[[[1],[2],[0]]]}',
           record("truncated", "[1,2")[:-10]]
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(mixed(list(bad))) + b"\n")
    result = preprocess(sketchprep, tmp_path, "malformed", [source])
    assert_reliable(result, clean, rejected=bad)


def test_repeated_key_ids_are_counted_and_kept(sketchprep, tmp_path, clean):
    lines = good_lines()
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(lines + lines[:3]) + b"\n")
    result = preprocess(sketchprep, tmp_path, "dups", [source])
    assert result["records"]["duplicate_key_ids"] == 3
    assert_reliable(result, clean, extra_written=3)


def test_stdin_is_read_in_one_pass(sketchprep, tmp_path, clean):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines()) + b"\n")
    with open(source, "rb") as stdin:
        result = preprocess(sketchprep, tmp_path, "stdin", ["/dev/stdin"], stdin=stdin)
    assert_reliable(result, clean)


def test_unreadable_and_dangling_sources_are_quarantined_and_the_run_goes_on(sketchprep, tmp_path, clean):
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "good.ndjson").write_bytes(b"\n".join(good_lines()) + b"\n")
    (inputs / "dangling.ndjson").symlink_to(tmp_path / "missing.ndjson")
    (inputs / "loop.ndjson").symlink_to(inputs / "loop.ndjson")
    os.mkfifo(inputs / "fifo.ndjson")
    result = preprocess(sketchprep, tmp_path, "walk", [inputs])
    assert_reliable(result, clean, source_errors=2, reason_texts=["dangling symbolic link", "symbolic link loop"])


def test_an_output_inside_the_input_directory_is_refused(sketchprep, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "good.ndjson").write_bytes(b"\n".join(good_lines()) + b"\n")
    pipeline = tmp_path / "p.yaml"
    write_pipeline(pipeline, [inputs], inputs / "dataset")
    status, text, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "--jobs", JOBS, "-q"])
    assert status == 1 and "inside the input" in text, text
    assert sorted(os.listdir(inputs)) == ["good.ndjson"]


def test_unbounded_pipeline_simplification_is_refused(sketchprep, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines()) + b"\n")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(
        "source: {kind: quickdraw-ndjson, inputs: [%s]}\n"
        "simplify: {scale_target: 65535, resample_step: 0.001}\n"
        "encode: {kind: strokes, length: 75}\n"
        "output: {format: npy, directory: %s}\n" % (source, tmp_path / "out"))
    status, text, _ = run([sketchprep, "preprocess", "--pipeline", pipeline, "--jobs", JOBS, "-q"])
    assert status != 0 and "simplify.scale_target" in text, text
    assert not (tmp_path / "out").exists()


# Commands without --jobs: the single-stream paths of the same classes.

def test_parity_with_the_largest_worst_count_does_not_trap(sketchprep, tmp_path):
    raw = REPO / "SampleData" / "quickdraw" / "raw" / "apple.ndjson"
    simplified = REPO / "SampleData" / "quickdraw" / "simplified" / "apple.ndjson"
    status, text, peak = run([sketchprep, "parity", "--raw", raw, "--simplified", simplified,
                              "--worst", "9223372036854775807", "--report-json", tmp_path / "p.json", "-q"])
    assert status == 0, text
    assert peak < RSS_BOUND_KIB
    assert json.loads((tmp_path / "p.json").read_text())


def test_encode_with_a_huge_length_batches_by_bytes(sketchprep, tmp_path):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines()) + b"\n")
    status, text, peak = run([sketchprep, "encode", source, "-o", tmp_path / "out.npy", "--length", "100000", "-q"])
    assert status == 0, text
    assert peak < 2 * RSS_BOUND_KIB, f"peak RSS {peak} KiB"  # 30 × 100000 × 3 float32 = 36 MB of output
    assert np.load(tmp_path / "out.npy", mmap_mode="r").shape == (30, 100000, 3)


@pytest.mark.parametrize("flags", [["--quarantine", "{out}"], ["--report-json", "{out}"]])
def test_coinciding_outputs_never_clobber_each_other(sketchprep, tmp_path, flags):
    source = tmp_path / "in.ndjson"
    source.write_bytes(b"\n".join(good_lines()) + b"\n")
    out = tmp_path / "out.ndjson"
    status, text, _ = run([sketchprep, "simplify", source, "-o", out, "-q", *[f.format(out=out) for f in flags]])
    assert status == 1 and "same path" in text, text
    assert not out.exists()


def test_raster_survives_hostile_image_directories(sketchprep, tmp_path):
    from PIL import Image

    images = tmp_path / "images"
    images.mkdir()
    Image.new("L", (16, 16), 255).save(images / "good.png")
    (images / "zero.png").symlink_to("/dev/zero")
    (images / "dangling.png").symlink_to(tmp_path / "missing.png")
    os.mkfifo(images / "fifo.png")
    (images / "garbage.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    output = tmp_path / "out.npy"
    rejected = tmp_path / "rejected.txt"
    status, text, peak = run([sketchprep, "raster", images, "-o", output, "--quarantine", rejected, "--size", "8", "-q"])
    assert status == 0, text
    assert not any(dump in text for dump in FOUNDATION_DUMP), text
    assert peak < RSS_BOUND_KIB
    assert np.load(output).shape == (1, 8, 8)
    quarantined = rejected.read_text()
    assert "dangling.png" in quarantined and "garbage.png" in quarantined
