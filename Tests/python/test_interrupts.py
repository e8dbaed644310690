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
    """The shared raw drawings three times over (about 80 MB): long enough to interrupt."""
    path = tmp_path_factory.mktemp("interrupt-input") / "big.ndjson"
    with open(path, "wb") as out:
        for _ in range(3):
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
    "simplify": lambda exe, src, out: [exe, "simplify", src, "-o", out / "s.ndjson", "--jobs", "2"],
    "encode": lambda exe, src, out: [exe, "encode", src, "-o", out / "e.npy", "--jobs", "2"],
    "stats": lambda exe, src, out: [exe, "stats", src, "-o", out / "stats"],
    "convert": lambda exe, src, out: [exe, "convert", src, "--to", "stroke3", "-o", out / "c"],
    "preprocess": lambda exe, src, out: [exe, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-raster256.yaml",
                                         "--input", src, "-o", out / "p", "--jobs", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("delay,signal_number", [(0.4, signal.SIGINT), (1.5, signal.SIGTERM), (3.0, signal.SIGINT)])
def test_a_signal_removes_the_runs_temporary_files(sketchprep, big_input, tmp_path, command, delay, signal_number):
    out = tmp_path / "out"
    scratch = tmp_path / "tmpdir"
    out.mkdir()
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch) + "/")
    process = subprocess.Popen([str(a) for a in COMMANDS[command](sketchprep, big_input, out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    time.sleep(delay)
    process.send_signal(signal_number)
    stdout, stderr = process.communicate(timeout=60)
    text = stderr.decode(errors="replace")
    if process.returncode == 0:
        pytest.skip(f"{command} finished in under {delay} s; nothing to interrupt")
    assert process.returncode == 128 + signal_number, text
    assert "interrupted by" in text and "removed" in text, text
    assert "Error" not in text and "cannot read" not in text, text
    assert leftovers(out, scratch, tmp_path) == []
