"""`preprocess --jobs N` and `--partition i/n` + `merge` through the CLI: the dataset bytes
(shards, manifest.json, classes.txt, quarantine.ndjson) are the same for every job count and every
partitioning; merge refuses what does not fit together."""
import filecmp
import struct
import subprocess

from conftest import REPO, SHARED

PIPELINE = REPO / "Pipelines" / "quickdraw-rnn.yaml"
RAW = REPO / "SampleData" / "quickdraw" / "raw"


def preprocess(sketchprep, output, *extra):
    subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(RAW), "-o", str(output), "--quiet", *extra],
                   check=True, capture_output=True)


def same_dataset(a, b):
    names = sorted(p.name for p in a.iterdir() if p.name != "timings.json")
    assert names == sorted(p.name for p in b.iterdir() if p.name != "timings.json")
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def test_jobs_and_partitions_give_the_single_run_bytes(sketchprep, tmp_path):
    preprocess(sketchprep, tmp_path / "single", "--jobs", "1")
    assert (tmp_path / "single" / "classes.txt").read_text().splitlines()[0] == "The Eiffel Tower"
    for jobs in ("2", "4"):
        preprocess(sketchprep, tmp_path / f"jobs{jobs}", "--jobs", jobs)
        assert same_dataset(tmp_path / "single", tmp_path / f"jobs{jobs}")
    for n in (1, 3, 7):
        parts = [tmp_path / f"n{n}" / f"part-{i}" for i in range(n)]
        for i, part in enumerate(parts):
            preprocess(sketchprep, part, "--partition", f"{i}/{n}", "--jobs", "2")
        merged = tmp_path / f"n{n}" / "merged"
        subprocess.run([sketchprep, "merge", *map(str, reversed(parts)), "-o", str(merged), "--quiet"], check=True, capture_output=True)
        assert same_dataset(tmp_path / "single", merged), f"n = {n}"
        # merge is idempotent
        subprocess.run([sketchprep, "merge", *map(str, parts), "-o", str(merged), "--quiet"], check=True, capture_output=True)
        assert same_dataset(tmp_path / "single", merged)


def test_merge_names_missing_and_duplicate_partitions(sketchprep, tmp_path):
    parts = [tmp_path / f"part-{i}" for i in range(3)]
    for i, part in enumerate(parts):
        preprocess(sketchprep, part, "--partition", f"{i}/3")
    missing = subprocess.run([sketchprep, "merge", str(parts[0]), str(parts[2]), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert missing.returncode != 0 and "1/3" in missing.stderr and "missing" in missing.stderr
    twice = subprocess.run([sketchprep, "merge", *map(str, parts), str(parts[1]), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert twice.returncode != 0 and "given twice" in twice.stderr
    bad = subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(RAW), "-o", str(tmp_path / "x"), "--partition", "3/3"],
                         capture_output=True, text=True)
    assert bad.returncode == 64 and "0 ≤ i < n" in bad.stderr


def test_root_makes_runs_under_other_mount_points_write_the_same_bytes(sketchprep, tmp_path):
    import json
    import shutil
    for mount in ("a", "b"):
        shutil.copytree(RAW, tmp_path / mount / "raw")
    single = tmp_path / "single"
    subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(tmp_path / "a" / "raw"),
                    "--root", str(tmp_path / "a"), "-o", str(single), "--quiet"], check=True, capture_output=True)
    assert {s["path"] for s in json.loads((single / "manifest.json").read_text())["sources"]} \
        == {f"raw/{p.name}" for p in RAW.glob("*.ndjson")}
    parts = [tmp_path / f"part-{i}" for i in range(3)]
    for i, part in enumerate(parts):
        subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(tmp_path / "b" / "raw"),
                        "--root", str(tmp_path / "b"), "--partition", f"{i}/3", "-o", str(part), "--quiet"],
                       check=True, capture_output=True)
    subprocess.run([sketchprep, "merge", *map(str, parts), "-o", str(tmp_path / "merged"), "--quiet"], check=True, capture_output=True)
    assert same_dataset(single, tmp_path / "merged")
    outside = subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(RAW),
                              "--root", str(tmp_path / "a"), "-o", str(tmp_path / "x")], capture_output=True, text=True)
    assert outside.returncode == 1 and "is not under --root" in outside.stderr


def test_sigterm_removes_the_processs_own_sorted_runs(sketchprep, tmp_path):
    import signal
    import time
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    process = subprocess.Popen([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", "-", "--tmp-dir", str(scratch),
                                "-o", str(tmp_path / "out"), "--quiet"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Feed some drawings and keep the pipe open: the run is under way, blocked on its input.
    process.stdin.write((RAW / "cat.ndjson").read_bytes())
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while not list(scratch.glob(".sketchprep-runs*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(scratch.glob(".sketchprep-runs*")), "the run directory never appeared"
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM
    assert b"interrupted by SIGTERM; removed" in stderr
    assert not list(scratch.iterdir())


def test_limit_reads_the_first_records_of_each_input(sketchprep, tmp_path):
    files = sorted(RAW.glob("*.ndjson"))
    simplified = tmp_path / "s.ndjson"
    subprocess.run([sketchprep, "simplify", *map(str, files), "--limit", "2", "-o", str(simplified), "-q"], check=True, capture_output=True)
    import json
    firsts = [json.loads(line)["key_id"] for f in files for line in f.read_text().splitlines()[:2]]
    assert [json.loads(line)["key_id"] for line in simplified.read_text().splitlines()] == firsts
    preprocess(sketchprep, tmp_path / "p", "--limit", "2")
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert manifest["records"]["read"] == 2 * len(files)


def test_merge_refuses_a_run_file_whose_blocks_are_reordered(sketchprep, tmp_path):
    """Each block keeps its valid CRC-32C; the block sequence numbers and the trailer's digest of the
    block table (docs/formats.md, "Run files") make merge refuse the file instead of writing the
    examples in another order."""
    part = tmp_path / "part"
    subprocess.run([sketchprep, "preprocess", "--pipeline", str(PIPELINE), "--input", str(SHARED / "quickdraw" / "raw"),
                    "-o", str(part), "--quiet", "--partition", "0/1"], check=True, capture_output=True)
    run = max(part.rglob("run-*.bin"), key=lambda path: path.stat().st_size)
    data = run.read_bytes()
    assert data.startswith(b"SKRUN03\n")
    blocks, offset = [], 8
    while offset < len(data) - 48:
        length = struct.unpack_from("<I", data, offset)[0]
        blocks.append(data[offset:offset + 32 + length])
        offset += 32 + length
    assert len(blocks) >= 2
    run.write_bytes(data[:8] + blocks[1] + blocks[0] + b"".join(blocks[2:]) + data[offset:])
    merged = subprocess.run([sketchprep, "merge", str(part), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert merged.returncode != 0 and run.name in merged.stderr and "reordered" in merged.stderr, merged.stderr
