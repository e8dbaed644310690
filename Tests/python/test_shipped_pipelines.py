"""`--pipeline NAME`: a shipped pipeline by name, from any working directory, is the run of its file."""
import json
import subprocess

from conftest import REPO, SHARED

RAW = SHARED / "quickdraw" / "raw"


def run(sketchprep, *args, cwd):
    return subprocess.run([str(sketchprep), *map(str, args)], cwd=cwd, capture_output=True, text=True, check=False)


def dataset_files(directory):
    """Every file of a dataset but timings.json (the run's measured seconds), by name."""
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir()) if path.name != "timings.json"}


def test_a_shipped_name_runs_the_pipeline_file_of_that_name_from_any_directory(sketchprep, tmp_path):
    arguments = ["--input", RAW, "--category", "cat", "-q"]
    by_path = run(sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", *arguments,
                  "-o", tmp_path / "by-path", cwd=tmp_path)
    assert by_path.returncode == 0, by_path.stderr
    # A directory of that name (an output named after its pipeline) does not hide the shipped pipeline.
    (tmp_path / "quickdraw-rnn").mkdir()
    by_name = run(sketchprep, "preprocess", "--pipeline", "quickdraw-rnn", *arguments, "-o", tmp_path / "by-name",
                  cwd=tmp_path)
    assert by_name.returncode == 0, by_name.stderr
    expected, made = dataset_files(tmp_path / "by-path"), dataset_files(tmp_path / "by-name")
    assert made.keys() == expected.keys() and any(name.endswith(".x.npy") for name in made)
    for name in made:
        if name != "manifest.json":
            assert made[name] == expected[name], name
    manifests = [json.loads(files["manifest.json"]) for files in (expected, made)]
    # The manifest records --pipeline as given, and nothing else differs.
    assert [manifest["pipeline"].pop("file") for manifest in manifests] == [str(REPO / "Pipelines" / "quickdraw-rnn.yaml"),
                                                                           "quickdraw-rnn"]
    assert manifests[0] == manifests[1]


def test_a_file_in_the_working_directory_wins_over_the_shipped_name(sketchprep, tmp_path):
    text = (REPO / "Pipelines" / "quickdraw-rnn.yaml").read_text().replace("name: quickdraw-rnn", "name: my-rnn")
    (tmp_path / "quickdraw-rnn").write_text(text)
    result = run(sketchprep, "preprocess", "--pipeline", "quickdraw-rnn", "--input", RAW, "--category", "cat", "-q",
                 "-o", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["pipeline"]["name"] == "my-rnn"


def test_something_else_of_a_name_that_is_not_shipped_is_read_as_given(sketchprep, tmp_path):
    (tmp_path / "mine").mkdir()
    result = run(sketchprep, "preprocess", "--pipeline", "mine", "-o", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "mine: cannot read pipeline file" in result.stderr and "shipped" not in result.stderr


def test_a_readme_path_missing_here_names_the_shipped_pipeline_to_use(sketchprep, tmp_path):
    result = run(sketchprep, "preprocess", "--pipeline", "Pipelines/tuberlin-cnn.yaml", "-o", tmp_path / "out",
                 cwd=tmp_path)
    assert result.returncode == 1
    assert "the shipped pipeline of that name is --pipeline tuberlin-cnn" in result.stderr
    assert not (tmp_path / "out").exists()
