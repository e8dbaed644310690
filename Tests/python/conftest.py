"""Shared fixtures for the Python cross-checks: where the repo, the CLI and the shared data are."""
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("SKETCHPREP_SHARED", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def sketchprep():
    """Path to a release-built `sketchprep`, built once per test session (as `make build` builds it)."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "sketchprep", "--static-swift-stdlib"], cwd=REPO, check=True)
    return REPO / ".build" / "release" / "sketchprep"
