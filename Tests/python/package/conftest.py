"""Fixtures of the wheel's tests. They run from a virtual environment that has the built wheel
installed (`make test` → scripts/dev/test-wheel.sh), never from the source tree, against what
make_fixtures.py had the CLI write into $SKETCHPREP_FIXTURES beforehand."""
import json
import os
import pathlib

import pytest

FIXTURES = pathlib.Path(os.environ.get("SKETCHPREP_FIXTURES", "out/wheel-tests/fixtures"))


@pytest.fixture(scope="session")
def fixtures():
    """The directory the CLI wrote the expected outputs into."""
    if not (FIXTURES / "version.txt").is_file():
        pytest.fail(f"{FIXTURES}: no CLI fixtures; run Tests/python/package/make_fixtures.py (make test does)")
    return FIXTURES


@pytest.fixture(scope="session")
def quickdraw(fixtures):
    """The Quick, Draw! directory (raw/, simplified/) the fixtures were made from."""
    return pathlib.Path((fixtures / "quickdraw.txt").read_text().strip())


def read_records(directory):
    """Every NDJSON record of `directory`'s *.ndjson files, files in byte-wise name order (the CLI's order)."""
    records = []
    for path in sorted(pathlib.Path(directory).glob("*.ndjson"), key=lambda p: os.fsencode(p.name)):
        with open(path, encoding="utf-8") as file:
            records += [json.loads(line) for line in file if line.strip()]
    return records


@pytest.fixture(scope="session")
def raw_records(quickdraw):
    return read_records(quickdraw / "raw")


@pytest.fixture(scope="session")
def simplified_records(quickdraw):
    return read_records(quickdraw / "simplified")
