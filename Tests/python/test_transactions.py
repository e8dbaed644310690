"""A dataset is never lost (issue 28): a rebuild is a transaction, one run writes an output at a
time, and a killed run's finished map work is reused.

Each fault case rebuilds over a complete dataset and stops the run at a named point with the
test-only `SKETCHPREP_TEST_STOP_AT` (docs/errors.md, "Testing the crash states"), then delivers
Ctrl-C (SIGINT) or SIGKILL. Afterwards the old dataset is byte-identical and verifies, or the new
one is complete and verifies; a rerun gives the clean run's bytes; and nothing of the dead run is
left beside the output once a run has succeeded there.
"""
import os
import signal
import subprocess
import time

import pytest

from conftest import REPO, SHARED

RAW = SHARED / "quickdraw" / "raw"
PIPELINE = REPO / "Pipelines" / "quickdraw-rnn.yaml"
OLD_WORDS = ["ant", "apple", "angel"]
NEW_WORDS = ["ant", "apple", "angel", "anvil", "arm", "asparagus"]
POINTS = ["map", "reduce", "manifest", "swap", "swapped"]


def inputs(words):
    return [arg for word in words for arg in ("--input", RAW / f"{word}.ndjson")]


def command(sketchprep, output, words, *extra):
    return [str(a) for a in [sketchprep, "preprocess", "--pipeline", PIPELINE, *inputs(words), "-o", output,
                             "--jobs", "2", "-q", *extra]]


def run(args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120, **kwargs)


def snapshot(directory):
    """Every file of a directory (timings.json included) by name."""
    return {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory))}


def dataset_bytes(directory):
    """The dataset's files without timings.json, the one file that differs between runs."""
    return {name: data for name, data in snapshot(directory).items() if name != "timings.json"}


def verifies(sketchprep, directory):
    result = run([sketchprep, "verify", directory])
    return result.returncode == 0, result.stdout + result.stderr


def stopped_run(sketchprep, output, words, point, stop_file, *extra):
    """Starts a run that stops at `point`; returns the process once it is there."""
    return stopped(command(sketchprep, output, words, *extra), point, stop_file)


def stopped(args, point, stop_file):
    """Starts the command `args` stopping at `point`; returns the process once it is there."""
    env = dict(os.environ, SKETCHPREP_TEST_STOP_AT=point, SKETCHPREP_TEST_STOP_FILE=str(stop_file))
    process = subprocess.Popen([str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 60
    while not stop_file.exists():
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, f"the run never reached {point}"
        time.sleep(0.02)
    return process


@pytest.fixture(scope="module")
def reference(sketchprep, tmp_path_factory):
    """Clean runs of the old and the new inputs, for byte comparisons."""
    root = tmp_path_factory.mktemp("reference")
    for name, words in (("old", OLD_WORDS), ("new", NEW_WORDS)):
        result = run(command(sketchprep, root / name, words))
        assert result.returncode == 0, result.stderr
    return {"old": dataset_bytes(root / "old"), "new": dataset_bytes(root / "new")}


@pytest.fixture
def old_dataset(sketchprep, tmp_path):
    """A complete dataset of the old inputs in `tmp_path/work/out`; returns its path and bytes."""
    output = tmp_path / "work" / "out"
    result = run(command(sketchprep, output, OLD_WORDS))
    assert result.returncode == 0, result.stderr
    return output, snapshot(output)


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
@pytest.mark.parametrize("point", POINTS)
def test_a_rebuild_stopped_by_a_signal_keeps_the_old_dataset_or_completes_the_new_one(
        sketchprep, tmp_path, reference, old_dataset, point, signal_number):
    output, before = old_dataset
    process = stopped_run(sketchprep, output, NEW_WORDS, point, tmp_path / "stop")
    process.send_signal(signal_number)
    process.wait(timeout=60)
    assert process.returncode in (128 + signal_number, -signal_number), process.stderr.read().decode()
    ok, text = verifies(sketchprep, output)
    assert ok, text
    if point in ("swap", "swapped"):
        assert dataset_bytes(output) == reference["new"]
    else:
        assert snapshot(output) == before
    if signal_number == signal.SIGINT:
        # Ctrl-C removes the run's staging area, runs and lock: nothing is left beside the output.
        assert sorted(os.listdir(output.parent)) == ["out"]
    rerun = run(command(sketchprep, output, NEW_WORDS))
    assert rerun.returncode == 0, rerun.stderr
    assert dataset_bytes(output) == reference["new"]
    assert sorted(os.listdir(output.parent)) == ["out"], "a dead run's leftovers outlived the next run"


def test_sigkill_then_rerun_reuses_the_finished_chunks_and_gives_the_clean_bytes(sketchprep, tmp_path, reference):
    output = tmp_path / "work" / "out"
    process = stopped_run(sketchprep, output, NEW_WORDS, "chunk-mapped", tmp_path / "stop")
    process.kill()
    process.wait(timeout=60)
    rerun = run(command(sketchprep, output, NEW_WORDS))
    assert rerun.returncode == 0, rerun.stderr
    assert "1 input chunk(s) were mapped by an interrupted run and reused" in rerun.stdout, rerun.stdout
    assert dataset_bytes(output) == reference["new"]
    assert sorted(os.listdir(output.parent)) == ["out"]


def test_a_damaged_run_file_of_a_killed_run_is_not_reused(sketchprep, tmp_path, reference):
    output = tmp_path / "work" / "out"
    process = stopped_run(sketchprep, output, NEW_WORDS, "chunk-mapped", tmp_path / "stop")
    process.kill()
    process.wait(timeout=60)
    [runs] = [output.parent / name for name in os.listdir(output.parent) if name.startswith(".sketchprep-runs")]
    run_file = runs / "run-00000.bin"
    data = bytearray(run_file.read_bytes())
    data[-1] ^= 0xFF
    run_file.write_bytes(bytes(data))
    rerun = run(command(sketchprep, output, NEW_WORDS))
    assert rerun.returncode == 0, rerun.stderr
    assert "reused" not in rerun.stdout, rerun.stdout
    assert dataset_bytes(output) == reference["new"]
    assert sorted(os.listdir(output.parent)) == ["out"]


def test_verify_says_a_first_build_was_interrupted(sketchprep, tmp_path):
    output = tmp_path / "work" / "out"
    process = stopped_run(sketchprep, output, OLD_WORDS, "manifest", tmp_path / "stop")
    process.kill()
    process.wait(timeout=60)
    ok, text = verifies(sketchprep, output)
    assert not ok
    assert "was interrupted" in text and "staging area" in text, text


def test_a_second_run_into_the_same_output_is_refused_naming_the_holder(sketchprep, tmp_path, old_dataset):
    output, before = old_dataset
    first = stopped_run(sketchprep, output, NEW_WORDS, "reduce", tmp_path / "stop")
    try:
        started = time.monotonic()
        second = run(command(sketchprep, output, NEW_WORDS, "--force"))
        assert second.returncode != 0
        assert time.monotonic() - started < 30
        assert "is being written by another run" in second.stderr, second.stderr
        assert f"pid {first.pid}" in second.stderr and "host " in second.stderr and "preprocess" in second.stderr
    finally:
        first.kill()
        first.wait(timeout=60)
    assert snapshot(output) == before
    # The lock died with its holder: the next run goes ahead.
    assert run(command(sketchprep, output, NEW_WORDS)).returncode == 0
    assert verifies(sketchprep, output)[0]


def test_a_rebuild_that_fails_leaves_the_old_dataset_and_nothing_beside_it(sketchprep, tmp_path, old_dataset):
    output, before = old_dataset
    missing = tmp_path / "no-such-input.ndjson"
    result = run([sketchprep, "preprocess", "--pipeline", PIPELINE, "--input", missing, "-o", output, "-q"])
    assert result.returncode != 0
    assert snapshot(output) == before
    assert sorted(os.listdir(output.parent)) == ["out"]


def test_a_rebuild_on_a_full_file_system_keeps_the_old_dataset(sketchprep, tmp_path, reference):
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    mount = tmp_path / "small"
    mount.mkdir()
    old_bytes = sum(len(data) for data in reference["old"].values())
    size = old_bytes * 2 + (256 << 10)
    mounted = run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mount])
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        output = mount / "out"
        # The sorted runs go to a larger file system; the staged dataset fills the small one.
        scratch = tmp_path / "scratch"
        scratch.mkdir()
        assert run(command(sketchprep, output, OLD_WORDS, "--tmp-dir", scratch)).returncode == 0
        before = snapshot(output)
        many = sorted(path.stem for path in RAW.glob("*.ndjson"))[:60]
        result = run(command(sketchprep, output, many, "--tmp-dir", scratch))
        assert result.returncode == 1, result.stdout + result.stderr
        assert snapshot(output) == before
        assert verifies(sketchprep, output)[0]
        assert sorted(os.listdir(mount)) == ["out"], "the failed rebuild left files beside the output"
        assert os.listdir(scratch) == []
    finally:
        run(["umount", mount])


def test_a_directory_holding_other_files_is_not_swapped_away(sketchprep, tmp_path):
    output = tmp_path / "work" / "out"
    output.mkdir(parents=True)
    (output / "notes.txt").write_text("mine")
    result = run(command(sketchprep, output, OLD_WORDS))
    assert result.returncode == 1
    assert "holds files but no dataset" in result.stderr and "notes.txt" in result.stderr, result.stderr
    assert sorted(os.listdir(output)) == ["notes.txt"] and sorted(os.listdir(output.parent)) == ["out"]


def test_reduce_parts_write_beside_the_dataset_and_finalize_swaps_it_in(sketchprep, tmp_path, reference, old_dataset):
    output, before = old_dataset
    part = tmp_path / "part-0"
    result = run(command(sketchprep, part, NEW_WORDS, "--partition", "0/1"))
    assert result.returncode == 0, result.stderr
    for index in range(2):
        reduced = run([sketchprep, "merge", part, "-o", output, "--reduce", f"{index}/2", "--quiet"])
        assert reduced.returncode == 0, reduced.stderr
        assert snapshot(output) == before, "a reduce part wrote into the dataset before the finalize step"
    finalized = run([sketchprep, "merge", part, "-o", output, "--finalize", "--quiet"])
    assert finalized.returncode == 0, finalized.stderr
    assert dataset_bytes(output) == reference["new"]
    assert sorted(os.listdir(output.parent)) == ["out"]


def runs_directories(parent):
    return sorted(name for name in os.listdir(parent) if name.startswith(".sketchprep-runs"))


@pytest.mark.parametrize("images", [False, True], ids=["drawings", "images"])
def test_runs_a_later_run_could_resume_outlive_the_commit_and_scratch_runs_are_gone_before_it(
        sketchprep, tmp_path, images):
    """A drawing map over regular files is resumable: its runs directory (runs synced before their
    checkpoints) stays until the new dataset is in place. An image map has no checkpoints: its
    unsynced runs are removed once the reduce has read them, before the commit syncs the file
    system, so they are not written to disk (docs/scale.md, "Scratch runs")."""
    output = tmp_path / "work" / "out"
    if images:
        pipeline = REPO / "Pipelines" / "tuberlin-cnn.yaml"
        args = [sketchprep, "preprocess", "--pipeline", pipeline, "--input", SHARED / "tuberlin" / "test", "-o", output,
                "--jobs", "2", "-q"]
    else:
        args = command(sketchprep, output, OLD_WORDS)
    # A dataset there first: the run stops inside the commit, as it swaps the new one in.
    assert run(args).returncode == 0
    args.append("--force")
    process = stopped(args, "swap", tmp_path / "stop")
    try:
        left = runs_directories(output.parent)
        if images:
            assert left == [], left
        else:
            assert len(left) == 1 and any(name.startswith("chunk-") for name in os.listdir(output.parent / left[0]))
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    assert runs_directories(output.parent) == []
