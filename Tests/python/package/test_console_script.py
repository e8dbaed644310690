"""The wheel's `sketchprep` command: the console script runs the bundled release CLI, whose C
libraries `auditwheel repair` grafted into the wheel, and it writes the source-built CLI's bytes."""
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

import pytest

import sketchprep

BUNDLED = pathlib.Path(sketchprep.__file__).resolve().with_name("bin") / "sketchprep"
NATIVE = pathlib.Path(sketchprep.__file__).resolve().with_name("libSketchPrepNative.so")


@pytest.fixture(scope="session")
def console_script():
    """The `sketchprep` the wheel installed into the virtual environment's bin/."""
    script = pathlib.Path(sys.prefix) / "bin" / "sketchprep"
    assert script.is_file(), f"{script}: the wheel installed no sketchprep command"
    return script


def test_console_script_is_pythons_entry_point_for_the_bundled_cli(console_script):
    assert console_script.read_text(errors="replace").startswith("#!"), "the command is the console script"
    assert "_sketchprep_cli" in console_script.read_text(errors="replace")
    assert os.access(BUNDLED, os.X_OK), f"{BUNDLED}: not installed executable"


def test_console_script_imports_neither_the_package_nor_numpy():
    probe = "import sys, _sketchprep_cli; print(sorted({'sketchprep', 'numpy'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_help_from_the_console_script_lists_the_commands(console_script):
    result = subprocess.run([console_script, "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OVERVIEW:") or "USAGE: sketchprep" in result.stdout
    for command in ("preprocess", "simplify", "info"):
        assert command in result.stdout


def test_version_from_the_console_script_is_the_source_builds(console_script, fixtures):
    result = subprocess.run([console_script, "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == (fixtures / "version.txt").read_text().strip()


def test_console_script_passes_on_the_clis_refusal_and_exit_status(console_script, tmp_path):
    result = subprocess.run([console_script, "preprocess", "--pipeline", tmp_path / "missing.yaml", "-o", tmp_path / "out"],
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0 and "missing.yaml" in result.stderr


def dynamic_section(binary):
    """`readelf -d` of `binary` (skips the test without binutils)."""
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf (binutils) not installed")
    return subprocess.run([readelf, "-d", str(binary)], check=True, capture_output=True, text=True).stdout


def needed(dynamic):
    return [line.split("[", 1)[1].rstrip("]") for line in dynamic.splitlines() if "(NEEDED)" in line]


def test_bundled_cli_is_a_launcher_of_the_packages_library_which_finds_its_grafted_libraries():
    launcher = dynamic_section(BUNDLED)
    # One Swift runtime in the wheel: the program only starts the CLI in the package's native library.
    assert sorted(needed(launcher)) == ["libSketchPrepNative.so", "libc.so.6"], launcher
    assert "$ORIGIN/.." in launcher and "/opt/swift" not in launcher
    assert BUNDLED.parent.parent.joinpath("libSketchPrepNative.so").is_file()
    library = dynamic_section(NATIVE)
    assert "$ORIGIN/../sketchprep.libs" in library, library
    assert "/opt/swift" not in library and "libswiftCore" not in library
    grafted = BUNDLED.parents[1].parent / "sketchprep.libs"
    assert any(name.startswith("libcairo") for name in needed(library)), library
    for name in needed(library):
        if name.startswith(("libcairo", "libpng", "libdeflate")):
            assert (grafted / name).is_file(), f"{name} is not grafted into {grafted}"


# What the bundled CLI still loads from the system: what the manylinux policy promises (glibc,
# libstdc++, libgcc_s, zlib, and the X11 client libraries cairo links) and what those load.
SYSTEM_LIBRARIES = {"libc.so.6", "libm.so.6", "libz.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libX11.so.6", "libXext.so.6",
                    "libXrender.so.1", "libxcb.so.1", "libXau.so.6", "libXdmcp.so.6", "libbsd.so.0", "libmd.so.0",
                    "libexpat.so.1"}


def test_bundled_cli_loads_from_the_system_only_what_manylinux_promises():
    listing = subprocess.run(["ldd", str(BUNDLED)], check=True, capture_output=True, text=True).stdout
    resolved = [line.split() for line in listing.splitlines() if " => " in line]
    assert all(fields[2] != "not" for fields in resolved), listing
    wheel = str(BUNDLED.parents[2])  # site-packages: the package and sketchprep.libs
    from_system = {fields[0] for fields in resolved if not fields[2].startswith(wheel)}
    assert from_system <= SYSTEM_LIBRARIES, sorted(from_system - SYSTEM_LIBRARIES)


def test_libarchive_is_linked_in_so_the_library_loads_neither_it_nor_its_libraries():
    names = needed(dynamic_section(NATIVE))
    assert names and not [name for name in names if name.startswith(("libarchive", "libxml2", "libicu"))], names
    grafted = BUNDLED.parents[1].parent / "sketchprep.libs"
    assert not [path.name for path in grafted.iterdir() if path.name.startswith(("libarchive", "libxml2", "libicu"))]


def test_bundled_cli_runs_with_the_systems_cairo_libpng_and_libarchive_hidden(tmp_path):
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("hiding system libraries needs root and unshare -m")
    system = [pathlib.Path(line.split(" => ")[1].strip()).resolve() for line in
              subprocess.run(["ldconfig", "-p"], check=True, capture_output=True, text=True).stdout.splitlines()
              if line.strip().startswith(("libcairo.so.2 ", "libpng16.so.16 ", "libarchive.so.13 ")) and "x86-64" in line]
    assert system, "the build machine has cairo, libpng and libarchive"
    hide = " && ".join(f"mount --bind /dev/null '{path}'" for path in sorted(set(system)))
    result = subprocess.run(["unshare", "-m", "sh", "-c", f"{hide} && exec '{BUNDLED}' --version"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0 and result.stdout.strip() == sketchprep.__version__, result.stderr
    # A WebDataset shard whose member names are longer than ustar's 100 bytes: libarchive's pax framing, linked in.
    drawing = {"word": "cat", "countrycode": "GB", "timestamp": "2017-03-01 00:00:00.00000 UTC", "recognized": True,
               "drawing": [[[0, 100, 200], [0, 50, 0]]]}
    inputs = tmp_path / "long-keys.ndjson"
    inputs.write_text("".join(json.dumps({**drawing, "key_id": f"{index}" * 120}) + "\n" for index in range(1, 4)))
    out = tmp_path / "wds"
    result = subprocess.run(["unshare", "-m", "sh", "-c", f"{hide} && exec \"$0\" \"$@\"", str(BUNDLED), "preprocess",
                             "--pipeline", "quickdraw-bitmap28-webdataset", "--input", str(inputs), "-o", str(out), "-q"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    with tarfile.open(next(out.glob("train-*.tar"))) as shard:
        names = shard.getnames()
    assert names and all(len(name) > 100 for name in names), names


def test_preprocess_from_the_console_script_writes_the_source_builds_bytes(console_script, fixtures, tmp_path):
    arguments = json.loads((fixtures / "console-preprocess.json").read_text())
    out = tmp_path / "dataset"
    result = subprocess.run([console_script, *arguments, "-o", out], cwd=tmp_path, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    expected = fixtures / "console-preprocess"
    # timings.json holds the run's measured seconds; every other file is the dataset and must match byte for byte.
    names = sorted(p.name for p in expected.iterdir() if p.name != "timings.json")
    assert sorted(p.name for p in out.iterdir() if p.name != "timings.json") == names
    assert "manifest.json" in names and any(name.endswith(".x.npy") for name in names)
    for name in names:
        assert (out / name).read_bytes() == (expected / name).read_bytes(), name


def test_the_wheel_ships_every_pipeline_and_the_command_lists_them_by_name(console_script, fixtures, tmp_path):
    names = json.loads((fixtures / "pipelines.json").read_text())
    shipped = BUNDLED.parent.parent / "pipelines"
    assert sorted(p.stem for p in shipped.glob("*.yaml")) == names
    result = subprocess.run([console_script, "preprocess", "--help"], cwd=tmp_path, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    listed = " ".join(result.stdout.split("Shipped pipelines:", 1)[1].split(".", 1)[0].split())
    assert listed == ", ".join(names)
    mistyped = subprocess.run([console_script, "preprocess", "--pipeline", "quickdraw-rn", "-o", tmp_path / "out"],
                              cwd=tmp_path, capture_output=True, text=True, check=False)
    assert mistyped.returncode != 0 and "did you mean quickdraw-rnn?" in mistyped.stderr
    assert not (tmp_path / "out").exists()


def test_info_runs_the_bundled_cli_when_no_other_is_configured(monkeypatch):
    monkeypatch.delenv("SKETCHPREP_BIN", raising=False)
    monkeypatch.setenv("PATH", "")
    assert importlib.import_module("sketchprep.commands").cli_path() == str(BUNDLED)
