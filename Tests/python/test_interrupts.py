"""Interrupted runs leave nothing behind (issue 18): SIGINT or SIGTERM at several points of every
data command removes that run's temporary files (unfinished atomic writes, unnamed shards, sorted
runs, spill directories), prints one line saying so, and exits with 128 + the signal, with no false
error on the way out.
"""
import os
import signal
import subprocess
import time

import pytest

from conftest import REPO, SHARED

RAW = SHARED / "quickdraw" / "raw"
LEFTOVER_MARKERS = (".tmp-", ".pending", ".sketchprep-runs", "sketchprep-convert", "sketchprep-stdin", ".stats-keys")


@pytest.fixture(scope="module")
def big_input(tmp_path_factory):
    """The shared raw drawings twice over (about 54 MB)."""
    path = tmp_path_factory.mktemp("interrupt-input") / "big.ndjson"
    with open(path, "wb") as out:
        for _ in range(2):
            for file in sorted(RAW.glob("*.ndjson")):
                out.write(file.read_bytes())
    return path


def leftovers(*directories):
    found = []
    for directory in directories:
        for root, dirs, files in os.walk(directory):
            for name in dirs + files:
                if any(marker in name for marker in LEFTOVER_MARKERS):
                    found.append(os.path.join(root, name))
    return found


COMMANDS = {
    "simplify": lambda exe, out: [exe, "simplify", "-", "-o", out / "s.ndjson", "--jobs", "2"],
    "encode": lambda exe, out: [exe, "encode", "-", "-o", out / "e.npy", "--jobs", "2"],
    "stats": lambda exe, out: [exe, "stats", "-", "-o", out / "stats"],
    "convert": lambda exe, out: [exe, "convert", "-", "--to", "stroke3", "-o", out / "c"],
    "preprocess": lambda exe, out: [exe, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-raster256.yaml",
                                    "--input", "-", "-o", out / "p", "--jobs", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("fraction,signal_number", [(0.1, signal.SIGINT), (0.6, signal.SIGTERM), (1.0, signal.SIGINT)])
def test_a_signal_removes_the_runs_temporary_files(sketchprep, big_input, tmp_path, command, fraction, signal_number):
    """The input arrives on stdin; the signal comes once `fraction` of it has been written (the
    stream held open, so the run is certainly in progress), or, at 1.0, right after the stream ends."""
    out = tmp_path / "out"
    scratch = tmp_path / "tmpdir"
    out.mkdir()
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch) + "/")
    process = subprocess.Popen([str(a) for a in COMMANDS[command](sketchprep, out)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    data = big_input.read_bytes()
    cut = int(len(data) * fraction)
    try:
        process.stdin.write(data[:cut])
        process.stdin.flush()
        if fraction >= 1.0:
            process.stdin.close()
        time.sleep(0.5 if fraction < 1.0 else 0.05)
        process.send_signal(signal_number)
    except BrokenPipeError:
        pass
    # The input stays open until the process is gone: closing it right after the signal would let
    # the run reach the end of its input before the handler's thread runs.
    process.wait(timeout=120)
    stderr = process.stderr.read()
    if not process.stdin.closed:
        process.stdin.close()
    text = stderr.decode(errors="replace")
    if process.returncode == 0:
        assert fraction >= 1.0, text
        pytest.skip(f"{command} finished before the signal arrived")
    assert process.returncode == 128 + signal_number, text
    assert "interrupted by" in text and "removed" in text, text
    assert "Error" not in text and "cannot read" not in text, text
    assert leftovers(out, scratch, tmp_path) == []
