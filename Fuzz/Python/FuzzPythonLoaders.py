"""atheris harness for the Python package's loaders (python/sketchprep): the input's first byte
chooses what the rest is: 0 a stroke-3 ``.npz`` read by ``stroke3.read_npz_split`` (the reader
behind ``load_stroke3``), 1 a ``manifest.json`` read by ``manifests.read_manifest``. Each must be
read or refused with ``DatasetError``; any other exception, a crash, a timeout or memory over
libFuzzer's ``-rss_limit_mb`` is a finding (a zip bomb, an NPY header claiming more than its bytes).

    python3 Fuzz/Python/FuzzPythonLoaders.py -max_total_time=60 -rss_limit_mb=1024 CORPUS_DIR SEEDS_DIR

The loaders check manifests and ``.npz`` caps through the package's native library (the Swift
checks), so the harness imports the package from ``SKETCHPREP_FUZZ_PACKAGE``: a copy of
``python/sketchprep`` with ``libSketchPrepNative.so`` beside it, which ``Fuzz/Scripts/run.sh``
assembles (``make fuzz``; CI: ``make fuzz FUZZ_SECONDS=5``); its ``__init__`` is not run.
"""
import importlib
import importlib.util
import os
import pathlib
import sys
import tempfile

import atheris

PACKAGE = pathlib.Path(os.environ["SKETCHPREP_FUZZ_PACKAGE"])

with atheris.instrument_imports():
    _spec = importlib.util.spec_from_file_location("sketchprep", PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)])
    sys.modules["sketchprep"] = importlib.util.module_from_spec(_spec)
    errors = importlib.import_module("sketchprep.errors")
    manifests = importlib.import_module("sketchprep.manifests")
    stroke3 = importlib.import_module("sketchprep.stroke3")

SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="sketchprep-atheris-"))


def test_one_input(data: bytes) -> None:
    if not data:
        return
    selector, rest = data[0] % 2, data[1:]
    try:
        if selector == 0:
            path = SCRATCH / "input.npz"
            path.write_bytes(rest)
            for split in stroke3.NPZ_SPLITS:
                stroke3.read_npz_split(path, split)
        else:
            (SCRATCH / "manifest.json").write_bytes(rest)
            manifests.read_manifest(SCRATCH)
    except errors.DatasetError:
        pass


def main() -> None:
    try:
        atheris.Setup(sys.argv, test_one_input)
        atheris.Fuzz()
    finally:
        for name in os.listdir(SCRATCH):
            os.remove(SCRATCH / name)
        os.rmdir(SCRATCH)


if __name__ == "__main__":
    main()
