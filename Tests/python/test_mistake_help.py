"""Help for mistakes: a mistyped subcommand or option gets "did you mean"; a pipeline's missing input says where
the path came from and what it was resolved against; a permission error names the directory that is not
writable; errors name the option the user typed, and the YAML key only when the value came from the file; the
TU-Berlin pipeline on SVG sketches names the pipelines that read them; an argument that is not UTF-8 is named
byte for byte, not reported missing; `parity --min-exact` takes a rate or a percentage with `%`."""
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from conftest import REPO

RAW = REPO / "SampleData" / "quickdraw" / "raw"
SIMPLIFIED = REPO / "SampleData" / "quickdraw" / "simplified"
PIPELINES = REPO / "Pipelines"


def run(sketchprep, *args, cwd=None, prefix=()):
    return subprocess.run([*prefix, str(sketchprep), *map(str, args)], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("args,expected", [
    (["simplfy", RAW / "cat.ndjson"], "unknown subcommand 'simplfy'; did you mean 'simplify'?"),
    (["simplify", RAW / "cat.ndjson", "--ouput", "x.ndjson"], "unknown option '--ouput'; did you mean '--output'?"),
    (["preprocess", "--pipline", PIPELINES / "quickdraw-rnn.yaml"], "unknown option '--pipline'; did you mean '--pipeline'?"),
])
def test_a_mistyped_subcommand_or_option_is_named_with_the_closest_real_one(sketchprep, tmp_path, args, expected):
    result = run(sketchprep, *args, cwd=tmp_path)
    assert result.returncode == 64
    assert expected in result.stderr
    assert "Missing expected argument" not in result.stderr and "unexpected argument" not in result.stderr
    assert not any(tmp_path.iterdir())


def test_a_pipeline_input_not_found_names_its_key_file_and_working_directory(sketchprep, tmp_path):
    pipeline = PIPELINES / "quickdraw-rnn-tfrecord.yaml"  # source.inputs: [SampleData/quickdraw/raw], relative
    result = run(sketchprep, "preprocess", "--pipeline", pipeline, "-q", cwd=tmp_path)
    assert result.returncode == 1
    assert f"{pipeline}: source.inputs: SampleData/quickdraw/raw not found" in result.stderr
    assert f"resolved against the working directory {tmp_path}" in result.stderr
    assert "--input" in result.stderr
    typed = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", "missing.ndjson", "-q", cwd=tmp_path)
    assert typed.returncode == 1
    assert f"--input missing.ndjson not found (resolved against the working directory {tmp_path})" in typed.stderr
    assert "source.inputs" not in typed.stderr


def test_errors_name_the_option_typed_and_the_yaml_key_only_for_values_from_the_file(sketchprep, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(RAW / "cat.ndjson", data)
    typed = run(sketchprep, "preprocess", "--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input", data, "-o", data / "out", "-q")
    assert typed.returncode == 1
    assert "-o/--output" in typed.stderr and "(--input)" in typed.stderr
    assert "output.directory" not in typed.stderr and "source.inputs" not in typed.stderr
    pipeline = tmp_path / "inside.yaml"
    text = (PIPELINES / "quickdraw-rnn.yaml").read_text()
    assert "directory: out/quickdraw-rnn\n" in text
    pipeline.write_text(text.replace("directory: out/quickdraw-rnn\n", f"directory: {data / 'out'}\n"))
    from_file = run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", data, "-q")
    assert from_file.returncode == 1
    assert "output.directory" in from_file.stderr and "-o/--output" not in from_file.stderr


@pytest.fixture
def unprivileged(tmp_path):
    """A directory everyone may reach and use, and the command prefix that runs as `nobody` (root ignores
    permissions); pytest's own directories are private to root, so it lies directly in the system's temporary one."""
    if os.geteuid() != 0:
        yield tmp_path, []
        return
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    place = pathlib.Path(tempfile.mkdtemp(prefix="sketchprep-permissions-"))
    place.chmod(0o777)
    yield place, ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    for directory in place.rglob("*"):
        if directory.is_dir():
            directory.chmod(0o755)
    shutil.rmtree(place)


@pytest.mark.parametrize("command,output", [("simplify", "out.ndjson"), ("encode", "out.npy"), ("stats", "stats"),
                                            ("preprocess", "dataset")])
def test_a_permission_error_names_the_directory_that_is_not_writable(sketchprep, tmp_path, unprivileged, command, output):
    place, prefix = unprivileged
    binary = place / "sketchprep"
    shutil.copy(sketchprep, binary)
    shutil.copy(RAW / "cat.ndjson", place)
    locked = place / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    args = ["--pipeline", PIPELINES / "quickdraw-rnn.yaml", "--input"] if command == "preprocess" else []
    result = run(binary, command, *args, "cat.ndjson", "-o", f"locked/{output}", "-q", cwd=place, prefix=prefix)
    assert result.returncode == 1
    assert f"cannot write locked/{output}: the directory locked is not writable (Permission denied)" in result.stderr
    assert ".tmp" not in result.stderr


def test_the_tuberlin_pipeline_on_svg_sketches_names_the_pipelines_that_read_them(sketchprep, tmp_path):
    sketches = tmp_path / "svg" / "cat"
    sketches.mkdir(parents=True)
    (sketches / "1.svg").write_text('<svg><path d="M0 0L10 10"/></svg>')
    result = run(sketchprep, "preprocess", "--pipeline", PIPELINES / "tuberlin-cnn.yaml", "--input", tmp_path / "svg",
                 "-o", tmp_path / "out", "-q")
    assert result.returncode == 1
    assert "no <class>/*.png images" in result.stderr and "SVG sketches" in result.stderr
    assert str(PIPELINES / "quickdraw-rnn.yaml") in result.stderr
    assert str(PIPELINES / "tuberlin-cnn.yaml") + "," not in result.stderr


def test_an_argument_that_is_not_utf8_is_refused_naming_its_bytes_not_as_a_missing_file(sketchprep, tmp_path):
    latin1 = os.fsencode(tmp_path) + b"/caf\xe9.ndjson"
    shutil.copyfile(RAW / "cat.ndjson", latin1)
    result = subprocess.run([os.fsencode(sketchprep), b"simplify", latin1, b"-o", os.fsencode(tmp_path / "out.ndjson")],
                            capture_output=True, text=True)
    assert result.returncode == 64
    assert result.stderr == f"Error: argument 2 ({tmp_path}/caf\\xe9.ndjson) is not valid UTF-8 (rename it to read it)\n"
    assert not (tmp_path / "out.ndjson").exists()
    # Its directory is read, with that file quarantined for the same reason.
    listed = run(sketchprep, "simplify", tmp_path, "-o", tmp_path.parent / f"{tmp_path.name}-out.ndjson")
    assert "caf\\xe9.ndjson:0: source error at byte 0: file name is not valid UTF-8 (rename it to read it)" in listed.stderr


@pytest.mark.parametrize("minimum,status,expected", [
    ("0.9999", 0, ""), ("99.99%", 0, ""), ("100%", 0, ""),
    ("99.99", 64, "write the percentage with % (99.99%)"), ("150%", 64, "outside 0…1"), ("abc", 64, "neither a rate"),
])
def test_min_exact_takes_a_rate_or_a_percentage_and_refuses_a_bare_number_above_one(sketchprep, minimum, status, expected):
    result = run(sketchprep, "parity", "--raw", RAW / "cat.ndjson", "--simplified", SIMPLIFIED / "cat.ndjson",
                 "--min-exact", minimum, "-q")
    assert result.returncode == status, result.stderr
    assert expected in result.stderr
