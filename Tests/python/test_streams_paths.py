"""Pipes, FIFOs, hostile directory entries and colliding paths through the CLI: every case either
works or fails loudly (non-zero exit, message naming the path); nothing hangs (timeouts)."""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading

import pytest

from conftest import REPO

SAMPLE = REPO / "SampleData" / "quickdraw"
RAW = SAMPLE / "raw" / "apple.ndjson"
SIMPLIFIED = SAMPLE / "simplified" / "apple.ndjson"
PIPELINE = REPO / "Pipelines" / "quickdraw-rnn.yaml"
TIMEOUT = 60


def run(args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=TIMEOUT, **kwargs)


def feed_fifo(path, data):
    """Creates a FIFO at `path` and writes `data` into it from a thread (it blocks until a reader opens it)."""
    os.mkfifo(path)

    def writer():
        with open(path, "wb") as fifo:
            fifo.write(data)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("command, source, count_text", [
    ("simplify", RAW, "read 20 = written 20 + rejected 0"),
    ("encode", SIMPLIFIED, "read 20 = written 20 + rejected 0"),
    ("bitmap", SIMPLIFIED, "read 20 = written 20 + rejected 0"),
])
def test_stdin_path_reads_every_record(sketchprep, tmp_path, command, source, count_text):
    out = tmp_path / ("out.ndjson" if command == "simplify" else "out.npy")
    result = run([sketchprep, command, "/dev/stdin", "-o", out, "-q"], input=source.read_text())
    assert result.returncode == 0, result.stderr
    assert count_text in result.stdout + result.stderr


def test_raster_reads_a_png_from_stdin(sketchprep, tmp_path):
    from PIL import Image

    Image.new("L", (8, 8), 0).save(tmp_path / "x.png")
    with open(tmp_path / "x.png", "rb") as png:
        result = subprocess.run([str(sketchprep), "raster", "/dev/stdin", "-o", str(tmp_path / "r.npy"), "--size", "8", "-q"],
                                stdin=png, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert "read 1 = written 1 + rejected 0" in result.stdout


def test_preprocess_reads_stdin_and_a_fifo_in_one_pass_and_records_their_checksum(sketchprep, tmp_path):
    data = RAW.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    piped = run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", "/dev/stdin",
                 "--output", tmp_path / "piped", "-q"], input=data.decode())
    assert piped.returncode == 0, piped.stderr
    assert "read 20 = written 20" in piped.stdout
    manifest = json.loads((tmp_path / "piped" / "manifest.json").read_text())
    assert manifest["sources"] == [{"path": "/dev/stdin", "bytes": len(data), "sha256": digest}]

    fifo = tmp_path / "in.ndjson"
    writer = feed_fifo(fifo, data)
    from_fifo = run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", fifo,
                     "--output", tmp_path / "fifo", "-q"])
    writer.join(TIMEOUT)
    assert from_fifo.returncode == 0, from_fifo.stderr
    manifest = json.loads((tmp_path / "fifo" / "manifest.json").read_text())
    assert manifest["records"]["written"] == 20
    assert manifest["sources"][0]["sha256"] == digest
    # Same records as from the file itself: the shards are byte-identical.
    run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", RAW, "--output", tmp_path / "file", "-q"])
    for name in os.listdir(tmp_path / "file"):
        if name.endswith(".npy"):
            assert (tmp_path / "fifo" / name).read_bytes() == (tmp_path / "file" / name).read_bytes()


def test_parity_reads_two_fifos(sketchprep, tmp_path):
    raw_writer = feed_fifo(tmp_path / "raw", RAW.read_bytes())
    official_writer = feed_fifo(tmp_path / "official", SIMPLIFIED.read_bytes())
    result = run([sketchprep, "parity", "--raw", tmp_path / "raw", "--simplified", tmp_path / "official", "--quiet"])
    raw_writer.join(TIMEOUT)
    official_writer.join(TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert "20 pairs joined" in result.stdout


def test_one_stream_named_as_two_inputs_is_refused(sketchprep):
    result = run([sketchprep, "parity", "--raw", "-", "--simplified", "/dev/stdin", "--quiet"], input=RAW.read_text())
    assert result.returncode == 1
    assert "same stream" in result.stderr


def hostile_entries(directory, suffix):
    os.symlink(directory / "missing", directory / f"dangling{suffix}")
    os.symlink(directory / f"loop{suffix}", directory / f"loop{suffix}")
    os.symlink("/dev/zero", directory / f"zero{suffix}")
    os.mkfifo(directory / f"fifo{suffix}")
    (directory / os.fsdecode(b"bad\xff" + suffix.encode())).write_bytes(b"")


def test_simplify_directory_quarantines_unreadable_entries_and_skips_special_files(sketchprep, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(RAW, inputs / "apple.ndjson")
    hostile_entries(inputs, ".ndjson")
    out = tmp_path / "out.ndjson"
    result = run([sketchprep, "simplify", inputs, "-o", out, "-q"])
    assert result.returncode == 0, result.stderr
    assert "read 20 = written 20 + rejected 0; source errors 3" in result.stdout
    assert "warning: skipped" in result.stderr and "fifo.ndjson" in result.stderr and "zero.ndjson" in result.stderr
    quarantined = [json.loads(line)["source_error"]
                   for line in (tmp_path / "out.rejected.ndjson").read_bytes().splitlines()]
    for name in ("dangling.ndjson", "loop.ndjson", "bad\\xff.ndjson"):
        assert any(path.endswith("/" + name) for path in quarantined), quarantined


def test_raster_and_tuberlin_pipeline_never_hang_on_fifos_or_dev_zero_links(sketchprep, tmp_path):
    from PIL import Image

    root = tmp_path / "tuberlin"
    (root / "cat").mkdir(parents=True)
    Image.new("L", (8, 8), 255).save(root / "cat" / "1.png")
    hostile_entries(root / "cat", ".png")
    raster = run([sketchprep, "raster", root, "-o", tmp_path / "r.npy", "--size", "8", "-q"])
    assert raster.returncode == 0, raster.stderr
    assert "read 4 = written 1 + rejected 3" in raster.stdout
    rejected = (tmp_path / "r.rejected.txt").read_bytes().decode(errors="replace")
    assert "dangling.png" in rejected and "loop.png" in rejected

    config = tmp_path / "tb.yaml"
    config.write_text((REPO / "Pipelines" / "tuberlin-cnn.yaml").read_text())
    pipeline = run([sketchprep, "preprocess", "--pipeline", config, "--input", root,
                    "--output", tmp_path / "tb-out", "-q"])
    assert pipeline.returncode == 0, pipeline.stderr
    manifest = json.loads((tmp_path / "tb-out" / "manifest.json").read_text())
    assert manifest["records"] == {"read": 4, "written": 1, "filtered": 0, "rejected": 3,
                                   "source_errors": 0, "duplicate_key_ids": 0}
    assert "dangling.png" in (tmp_path / "tb-out" / "quarantine.ndjson").read_text(errors="replace")


@pytest.mark.parametrize("extra, expected", [
    (["--quarantine", "{out}"], "are the same path"),
    (["--report-json", "{dir}/sub/../out.ndjson"], "are the same path"),
])
def test_coinciding_outputs_are_refused_before_anything_is_written(sketchprep, tmp_path, extra, expected):
    out = tmp_path / "out.ndjson"
    args = [a.format(out=out, dir=tmp_path) for a in extra]
    result = run([sketchprep, "simplify", RAW, "-o", out, "-q", *args])
    assert result.returncode == 1
    assert expected in result.stderr and "Error Domain" not in result.stderr
    assert not out.exists()


def test_outputs_inside_the_input_directory_are_refused(sketchprep, tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(RAW, inputs / "apple.ndjson")
    simplify = run([sketchprep, "simplify", inputs, "-o", inputs / "out.ndjson", "-q"])
    assert simplify.returncode == 1 and "inside the input directory" in simplify.stderr
    preprocess = run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", inputs,
                      "--output", inputs / "dataset", "-q"])
    assert preprocess.returncode == 1 and "inside the input" in preprocess.stderr
    assert sorted(os.listdir(inputs)) == ["apple.ndjson"]


def test_verify_accepts_an_intact_dataset_and_names_a_corrupted_shard(sketchprep, tmp_path):
    dataset = tmp_path / "ds"
    subprocess.run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", SAMPLE / "raw",
                    "--output", dataset, "-q"], check=True, capture_output=True, timeout=TIMEOUT)
    intact = run([sketchprep, "verify", dataset, "--report-json", tmp_path / "ok.json"])
    assert intact.returncode == 0, intact.stderr
    assert json.loads((tmp_path / "ok.json").read_text())["ok"] is True

    shard = sorted(p for p in os.listdir(dataset) if p.endswith(".x.npy"))[0]
    data = bytearray((dataset / shard).read_bytes())
    data[-1] ^= 0x01
    (dataset / shard).write_bytes(bytes(data))
    broken = run([sketchprep, "verify", dataset, "--report-json", tmp_path / "bad.json"])
    assert broken.returncode == 1
    assert shard in broken.stderr and "sha256 mismatch" in broken.stderr
    report = json.loads((tmp_path / "bad.json").read_text())
    assert report["ok"] is False
    assert [(p["file"], p["kind"]) for p in report["problems"]] == [(shard, "sha256 mismatch")]


def test_stale_temporary_files_of_dead_processes_on_this_host_are_removed(sketchprep, tmp_path):
    host = os.uname().nodename.replace("/", "_")
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f"out.ndjson.tmp-{host}-{dead.pid}"
    foreign = tmp_path / f"out.ndjson.tmp-{host}.elsewhere-{dead.pid}"
    live = tmp_path / f"out.ndjson.tmp-{host}-{os.getpid()}"
    for path in (stale, foreign, live):
        path.write_text("partial")
    result = run([sketchprep, "simplify", RAW, "-o", tmp_path / "out.ndjson", "-q"])
    assert result.returncode == 0, result.stderr
    assert not stale.exists()
    assert foreign.exists() and live.exists()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root to run the CLI as an unprivileged user (root reads every file)")
def test_an_unreadable_source_is_quarantined_and_the_run_goes_on(sketchprep):
    work = tempfile.mkdtemp(prefix="sketchprep-unreadable-")
    try:
        os.chmod(work, 0o777)
        binary = os.path.join(work, "sketchprep")
        shutil.copy(sketchprep, binary)
        os.chmod(binary, 0o755)
        readable = os.path.join(work, "apple.ndjson")
        unreadable = os.path.join(work, "secret.ndjson")
        shutil.copy(RAW, readable)
        shutil.copy(SAMPLE / "raw" / "cat.ndjson", unreadable)
        os.chmod(readable, 0o644)
        os.chmod(unreadable, 0o000)
        config = os.path.join(work, "p.yaml")
        shutil.copy(PIPELINE, config)
        os.chmod(config, 0o644)
        as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        probe = run(as_nobody + [binary, "--help"])
        if probe.returncode != 0:
            pytest.skip(f"the CLI cannot run as an unprivileged user here: {probe.stderr.strip()}")
        result = run(as_nobody + [binary, "preprocess", "--pipeline", config, "--input", readable,
                                  "--input", unreadable, "--output", os.path.join(work, "out"), "-q"])
        assert result.returncode == 0, result.stderr
        assert "secret.ndjson:0: source error at byte 0: cannot read input: Permission denied" in result.stderr
        assert "Error Domain" not in result.stderr
        manifest = json.loads(open(os.path.join(work, "out", "manifest.json")).read())
        assert manifest["records"] == {"read": 20, "written": 20, "filtered": 0, "rejected": 0,
                                       "source_errors": 1, "duplicate_key_ids": 0}
        [entry] = [json.loads(line) for line in open(os.path.join(work, "out", "quarantine.ndjson"))]
        assert (entry["source_error"], entry["byte_offset"]) == (unreadable, 0)
        assert entry["reason"].startswith("cannot read input: Permission denied")
        assert [s["path"] for s in manifest["sources"]] == [readable]

        alone = run(as_nobody + [binary, "simplify", unreadable, "-o", os.path.join(work, "s.ndjson"), "-q"])
        assert alone.returncode == 1
        assert "none of the 1 inputs could be read" in alone.stderr
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_a_clear_error(sketchprep, tmp_path):
    result = run([sketchprep, "simplify", RAW, "-o", "/dev/full", "--quarantine", tmp_path / "q.ndjson", "-q"])
    assert result.returncode == 1
    assert "cannot write /dev/full: No space left on device (free some space and run again)" in result.stderr
