"""`make help` lists every .PHONY target of the Makefile once, each with its `## target: text` description, what a user
runs first; it runs in a copy of the Makefile and scripts/ with `swift`, the Python and package-manager commands on PATH
replaced by recorders, and must call none of them (no build, no setup)."""
import os
import re
import shutil
import subprocess

from conftest import REPO

RECORDED = ["swift", "swiftc", "python", "python3", "pip", "pip3", "sudo", "apt-get", "apt", "dpkg-query"]
ENTRY = re.compile(r"^  (\S+)(.*)$")  # a target's first line; its continuation lines start further right


def phony_targets(makefile):
    """The targets of every `.PHONY:` line, continuation lines included."""
    text = makefile.read_text().replace("\\\n", " ")
    return {name for line in text.splitlines() if line.startswith(".PHONY:") for name in line.split(":", 1)[1].split()}


def help_sections(output):
    """[(section title, [(target name, the description's first line)])] in the order `make help` prints them."""
    sections = []
    for line in output.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            sections.append((line[:-1], []))
        elif sections and (entry := ENTRY.match(line)):
            sections[-1][1].append((entry.group(1), entry.group(2).strip()))
    return sections


def run_make(clone, tmp_path, *goals):
    shims, log = tmp_path / "shims", tmp_path / "calls.log"
    shims.mkdir(exist_ok=True)
    log.touch()
    for name in RECORDED:
        (shims / name).write_text(f'#!/bin/sh\necho "$(basename "$0") $*" >> "{log}"\nexit 1\n')
        (shims / name).chmod(0o755)
    environment = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"}
    environment.pop("MAKEFLAGS", None)
    run = subprocess.run(["make", "--no-print-directory", *goals], cwd=clone, env=environment, capture_output=True, text=True)
    return run, log.read_text().splitlines()


def clean_clone(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copy(REPO / "Makefile", clone / "Makefile")
    shutil.copytree(REPO / "scripts", clone / "scripts")
    return clone


def test_make_help_lists_every_phony_target_once_with_its_description_and_runs_nothing_else(tmp_path):
    clone = clean_clone(tmp_path)
    run, calls = run_make(clone, tmp_path, "help")
    assert run.returncode == 0, run.stderr
    assert calls == []
    assert sorted(os.listdir(clone)) == ["Makefile", "scripts"]  # nothing built, no environment made
    entries = [entry for _, section in help_sections(run.stdout) for entry in section]
    assert sorted(name for name, _ in entries) == sorted(phony_targets(REPO / "Makefile"))
    assert [name for name, description in entries if not description] == []


def test_make_help_lists_what_a_user_runs_before_the_developer_sections(tmp_path):
    run, _ = run_make(clean_clone(tmp_path), tmp_path, "help")
    sections = help_sections(run.stdout)
    first = [name for name, _ in sections[0][1]]
    assert {"preprocess", "build", "help"} <= set(first)
    for developer_target in ["test", "bench", "wheel", "test-cluster", "fuzz"]:
        assert developer_target not in first
    assert len(sections) > 1


def test_plain_make_prints_the_help(tmp_path):
    clone = clean_clone(tmp_path)
    plain, calls = run_make(clone, tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert calls == []
    assert plain.stdout == run_make(clone, tmp_path, "help")[0].stdout
