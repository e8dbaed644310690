"""A Swift user's plain release build links: `swift build -c release --product sketchprep`, no flags (Package.swift
carries no linker flag of its own; `make build` adds `--static-swift-stdlib`). It builds into `.build-plain/`
(gitignored), so the static binary of `.build/release/` that the other tests use stays as it is; the second
`make test` only relinks what changed."""
import subprocess

from conftest import REPO

SCRATCH = REPO / ".build-plain"


def test_plain_swift_release_build_links_and_its_binary_runs():
    build = subprocess.run(["swift", "build", "-c", "release", "--product", "sketchprep", "--scratch-path", str(SCRATCH)],
                           cwd=REPO, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    version = subprocess.run([SCRATCH / "release" / "sketchprep", "--version"], capture_output=True, text=True)
    assert version.returncode == 0, version.stderr
    source = (REPO / "Sources" / "SketchCore" / "SketchPrepVersion.swift").read_text()
    assert f'"{version.stdout.strip()}"' in source
