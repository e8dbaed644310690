"""Shared fixtures for the Python cross-checks: where the repo, the CLI and the shared data are, and
an NPY dataset read back whole (what the other output formats are compared against)."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("SKETCHPREP_SHARED", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def sketchprep():
    """Path to a release-built `sketchprep`, built once per test session (as `make build` builds it)."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "sketchprep", "--static-swift-stdlib"], cwd=REPO, check=True)
    return REPO / ".build" / "release" / "sketchprep"


def npy_dataset(directory, split):
    """Features, labels and keys of one split of the NPY dataset in `directory`, in dataset order."""
    xs, ys, keys = [], [], []
    for x_path in sorted(directory.glob(f"{split}-*.x.npy")):
        stem = str(x_path)[: -len(".x.npy")]
        xs.append(np.load(x_path))
        ys.append(np.load(stem + ".y.npy"))
        keys += open(stem + ".keys.txt").read().splitlines()
    return np.concatenate(xs), np.concatenate(ys), keys
