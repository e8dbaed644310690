"""The release binary (`make build`) runs from anywhere: on a machine without the Swift toolchain
(/opt/swift hidden by an empty bind mount in a private mount namespace) and from a directory
outside the repository, where `eval` still finds ONNX Runtime (the active Python environment's
`onnxruntime` package)."""
import os
import shutil
import subprocess

import pytest

from conftest import REPO, SHARED

TOOLCHAIN = "/opt/swift"


def without_toolchain(command, cwd, empty, env=None):
    """`command` run with TOOLCHAIN hidden behind the empty directory `empty` (unshare -m, bind mount)."""
    script = f'mount --bind "{empty}" "{TOOLCHAIN}" && exec "$@"'
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *map(str, command)], cwd=cwd, env=env,
                          capture_output=True, text=True)


@pytest.fixture
def hidden_toolchain(tmp_path):
    if not os.path.isdir(TOOLCHAIN):
        pytest.skip(f"no {TOOLCHAIN} to hide")
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    empty = tmp_path / "empty"
    empty.mkdir()
    probe = without_toolchain(["true"], tmp_path, empty)
    if probe.returncode != 0:
        pytest.skip(f"cannot hide {TOOLCHAIN}: unshare -m / mount --bind not permitted here ({probe.stderr.strip()})")
    return empty


def test_release_binary_starts_and_works_without_the_swift_toolchain(sketchprep, tmp_path, hidden_toolchain):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listing = without_toolchain(["ls", "-A", TOOLCHAIN], elsewhere, hidden_toolchain)
    assert listing.returncode == 0 and listing.stdout == ""  # the toolchain really is out of sight
    version = without_toolchain([sketchprep, "--version"], elsewhere, hidden_toolchain)
    assert version.returncode == 0, version.stderr
    run = without_toolchain([sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml",
                             "--input", REPO / "SampleData" / "quickdraw" / "raw" / "cat.ndjson", "-o", "rnn", "-q"],
                            elsewhere, hidden_toolchain)
    assert run.returncode == 0, run.stderr
    assert (elsewhere / "rnn" / "manifest.json").is_file()


@pytest.mark.skipif(not (SHARED / "quickdraw" / "bitmap").is_dir(), reason="shared data not present")
def test_eval_finds_onnx_runtime_outside_the_repository(sketchprep, tmp_path, hidden_toolchain):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    environment = {key: value for key, value in os.environ.items() if key != "SKETCHPREP_ORT_LIBRARY"}
    subprocess.run([sketchprep, "import-bitmaps", "--input", SHARED / "quickdraw" / "bitmap" / "cat.npy",
                    "--row-count", "5", "--split", "0/0/100", "-o", elsewhere / "bitmaps"], check=True, capture_output=True)
    run = without_toolchain([sketchprep, "eval", "--model", REPO / "Models" / "quickdraw-bitmap28", "--shards", "bitmaps",
                             "--report", "report"], elsewhere, hidden_toolchain, env=environment)
    assert run.returncode == 0, run.stderr
    assert (elsewhere / "report" / "report.json").is_file()
