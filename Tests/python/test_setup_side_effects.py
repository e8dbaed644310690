"""`make preprocess` on a clean clone installs nothing from PyPI: it runs in a copy of the Makefile and scripts/
with every Python and package-manager command on PATH replaced by a recorder (and `swift` and the built binary by
stand-ins), and must reach `sketchprep preprocess` without running any of them. The interpreters' site-packages
directories must not change either (a script calling an interpreter by absolute path would show there)."""
import os
import pathlib
import shutil
import subprocess
import sys

from conftest import REPO

RECORDED = ["python", "python3", "pip", "pip3", "pipx", "uv", "easy_install", "conda", "sudo", "apt-get", "apt"]


def site_directories():
    """The site-packages directories of every interpreter a setup step could reach, user sites included."""
    directories = set()
    for interpreter in {shutil.which("python3"), "/usr/bin/python3", sys.executable}:
        if interpreter and os.path.exists(interpreter):
            paths = subprocess.run([interpreter, "-c", "import site, sysconfig; p = sysconfig.get_paths();"
                                    "print(p['purelib']); print(p['platlib']); print(site.getusersitepackages())"],
                                   capture_output=True, text=True).stdout.split()
            directories.update(path for path in paths if os.path.isdir(path))
    return sorted(directories)


def snapshot(directories):
    return {directory: sorted(os.listdir(directory)) for directory in directories}


def recorder(path, log, body=""):
    path.write_text(f'#!/bin/sh\necho "$(basename "$0") $*" >> "{log}"\n{body}')
    path.chmod(0o755)


def test_make_preprocess_on_a_clean_clone_installs_no_pypi_package(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(REPO / "Makefile", clone / "Makefile")
    shutil.copytree(REPO / "scripts", clone / "scripts")
    (clone / "SampleData" / "quickdraw" / "raw").mkdir(parents=True)
    (clone / "SampleData" / "quickdraw" / "raw" / "airplane.ndjson").write_text("")
    shims, log = tmp_path / "shims", tmp_path / "calls.log"
    shims.mkdir()
    log.write_text("")
    for name in RECORDED:
        recorder(shims / name, log)
    # `swift build` stands in for the build: it leaves a binary that records how it was called.
    binary = 'mkdir -p .build/release && printf \'#!/bin/sh\\necho "sketchprep $*" >> "%s"\\n\' "$LOG" > .build/release/sketchprep' \
             ' && chmod +x .build/release/sketchprep\n'
    recorder(shims / "swift", log, binary)
    sites = site_directories()
    before = snapshot(sites)
    environment = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "LOG": str(log)}
    environment.pop("MAKEFLAGS", None)
    run = subprocess.run(["make", "--no-print-directory", "preprocess"], cwd=clone, env=environment, capture_output=True, text=True)
    calls = log.read_text().splitlines()
    assert run.returncode == 0, run.stderr
    assert any(call.startswith("sketchprep preprocess") for call in calls), calls  # the chain ran to the end
    assert not [call for call in calls if call.split()[0] not in ("swift", "sketchprep", "apt-get", "sudo")], calls
    assert not [call for call in calls if "pip" in call.split()], calls
    assert not (clone / ".venv").exists()
    assert snapshot(sites) == before
