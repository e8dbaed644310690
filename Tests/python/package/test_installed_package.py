"""The package is the installed wheel: its version is the CLI's, it runs from the virtual
environment (not the source tree), and its native library needs nothing from /opt/swift."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import sketchprep


def test_version_is_the_clis(fixtures):
    assert sketchprep.__version__ == (fixtures / "version.txt").read_text().strip()


def test_version_is_the_wheels_metadata():
    from importlib.metadata import version
    assert version("sketchprep") == sketchprep.__version__


def test_package_is_imported_from_the_virtual_environment_not_the_source_tree():
    location = pathlib.Path(sketchprep.__file__).resolve()
    assert sys.prefix != sys.base_prefix, "the tests must run in a virtual environment"
    assert location.is_relative_to(pathlib.Path(sys.prefix).resolve()), location


def test_native_library_needs_no_swift_toolchain():
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf (binutils) not installed")
    library = pathlib.Path(sketchprep.__file__).with_name("libSketchPrepNative.so")
    dynamic = subprocess.run([readelf, "-d", str(library)], check=True, capture_output=True, text=True).stdout
    assert "/opt/swift" not in dynamic and "/usr/lib/swift" not in dynamic
    assert "libswiftCore" not in dynamic and "libFoundation" not in dynamic
    # Its C libraries (cairo, libpng, …) come from the wheel's sketchprep.libs, found through $ORIGIN.
    for path in re.findall(r"R(?:UN)?PATH\)\s+Library r(?:un)?path: \[(.*)\]", dynamic):
        assert all(entry.startswith("$ORIGIN") for entry in path.split(":")), path


@pytest.mark.skipif(os.environ.get("SKETCHPREP_SWIFT_HIDDEN") != "1", reason="run without hiding /opt/swift")
def test_runs_with_the_swift_toolchain_hidden():
    assert not os.path.exists("/opt/swift") or os.listdir("/opt/swift") == []
    assert sketchprep.simplify([[[3, 13], [7, 7]]]) == [[[0, 255], [0, 0]]]
