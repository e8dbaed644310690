"""`sketchprep eval` against Python onnxruntime on the same model and inputs, and its error paths."""
import json
import subprocess

import numpy as np
import onnxruntime as ort
import pytest

from conftest import REPO, SHARED

MODEL = REPO / "Models" / "quickdraw-bitmap28"
BITMAPS = SHARED / "quickdraw" / "bitmap"


@pytest.fixture(scope="module")
def heldout_shards(sketchprep, tmp_path_factory):
    """Official bitmaps, rows 0–24 of each class (never trained on), as test-split shards."""
    out = tmp_path_factory.mktemp("bitmap-heldout")
    subprocess.run([sketchprep, "import-bitmaps", "--input", BITMAPS, "--row-count", "25", "--split", "0/0/100",
                    "--output", out], check=True, capture_output=True)
    return out


def python_predictions(shards):
    """(keys, labels, probabilities) from Python onnxruntime over every test shard of `shards`."""
    classes = (MODEL / "classes.txt").read_text().split("\n")[:-1]
    manifest = json.loads((shards / "manifest.json").read_text())
    words = {entry["index"]: entry["word"] for entry in manifest["classes"]}
    session = ort.InferenceSession(str(MODEL / "model.onnx"), providers=["CPUExecutionProvider"])
    keys, labels, probabilities = [], [], []
    for x_path in sorted(shards.glob("test-*.x.npy")):
        stem = x_path.name[: -len(".x.npy")]
        x = np.load(x_path).astype(np.float32).reshape(-1, 1, 28, 28) / 255.0
        probabilities.append(session.run(None, {session.get_inputs()[0].name: x})[0])
        labels += [classes.index(words[int(y)]) for y in np.load(shards / f"{stem}.y.npy")]
        keys += (shards / f"{stem}.keys.txt").read_text().splitlines()
    return keys, np.array(labels), np.concatenate(probabilities), classes


def test_eval_report_matches_python_onnxruntime(sketchprep, heldout_shards, tmp_path):
    subprocess.run([sketchprep, "eval", "--model", MODEL, "--shards", heldout_shards, "--split", "test",
                    "--report", tmp_path, "--misclassified-limit", "1000"], check=True, capture_output=True)
    report = json.loads((tmp_path / "report.json").read_text())
    keys, labels, probabilities, classes = python_predictions(heldout_shards)
    ranked = np.argsort(-probabilities, axis=1, kind="stable")
    assert report["metrics"]["examples"] == len(keys)
    assert report["metrics"]["top1Accuracy"] == pytest.approx(np.mean(ranked[:, 0] == labels), abs=1e-12)
    assert report["metrics"]["top3Accuracy"] == pytest.approx(np.mean((ranked[:, :3] == labels[:, None]).any(1)), abs=1e-12)
    expected = {key: (classes[ranked[i, 0]], float(probabilities[i, ranked[i, 0]]))
                for i, key in enumerate(keys) if ranked[i, 0] != labels[i]}
    swift = {entry["key"]: (entry["predicted"], entry["probability"]) for entry in report["misclassified"]}
    assert swift.keys() == expected.keys()
    for key, (word, probability) in expected.items():
        assert swift[key][0] == word
        assert swift[key][1] == pytest.approx(probability, abs=1e-5)
    assert (tmp_path / "report.md").exists() and (tmp_path / "report.html").exists()


def run_eval(sketchprep, *arguments):
    return subprocess.run([sketchprep, "eval", *map(str, arguments)], capture_output=True, text=True)


def test_missing_library_is_a_clear_error(sketchprep, heldout_shards, tmp_path):
    result = run_eval(sketchprep, "--model", MODEL, "--shards", heldout_shards, "--split", "test", "--report", tmp_path,
                      "--ort-library", "/nonexistent/libonnxruntime.so")
    assert result.returncode == 1
    assert "ONNX Runtime library not found at '/nonexistent/libonnxruntime.so'" in result.stderr
    assert "Fatal error" not in result.stderr


def test_bad_model_path_is_a_clear_error(sketchprep, heldout_shards, tmp_path):
    result = run_eval(sketchprep, "--model", tmp_path / "no-model", "--shards", heldout_shards, "--split", "test",
                      "--report", tmp_path / "r")
    assert result.returncode == 1
    assert "cannot load model" in result.stderr and "classes.txt" in result.stderr


def test_wrong_input_shape_is_a_clear_error(sketchprep, tmp_path):
    strokes = tmp_path / "strokes"
    subprocess.run([sketchprep, "preprocess", "--pipeline", REPO / "Pipelines" / "quickdraw-rnn.yaml", "--input",
                    SHARED / "quickdraw" / "simplified" / "cat.ndjson", "--output", strokes, "--quiet"],
                   check=True, capture_output=True)
    result = run_eval(sketchprep, "--model", MODEL, "--shards", strokes, "--split", "all", "--report", tmp_path / "r")
    assert result.returncode == 1
    assert "do not fit input 'image' [?, 1, 28, 28]" in result.stderr


def test_eval_defaults_to_test_on_a_dataset_without_val_and_names_the_splits_it_has(sketchprep, heldout_shards, tmp_path):
    # heldout_shards has only a test split (--split 0/0/100), as TU-Berlin has train and test.
    run = run_eval(sketchprep, "--model", MODEL, "--shards", heldout_shards, "--report", tmp_path / "default")
    assert run.returncode == 0, run.stderr
    assert "no val split" in run.stderr and "evaluating the test split" in run.stderr
    assert json.loads((tmp_path / "default" / "report.json").read_text())["split"] == "test"
    named = run_eval(sketchprep, "--model", MODEL, "--shards", heldout_shards, "--split", "train", "--report", tmp_path / "t")
    assert named.returncode == 1
    assert "no 'train' shards" in named.stderr and "its splits are test: pass --split test" in named.stderr


def test_eval_summary_counts_the_examples_of_classes_the_model_lacks(sketchprep, tmp_path):
    bitmaps = tmp_path / "bitmaps"
    bitmaps.mkdir()
    (bitmaps / "cat.npy").write_bytes((BITMAPS / "cat.npy").read_bytes())
    (bitmaps / "unicorn.npy").write_bytes((BITMAPS / "cat.npy").read_bytes())
    subprocess.run([sketchprep, "import-bitmaps", "--input", bitmaps, "--row-count", "5", "--split", "0/0/100",
                    "--output", tmp_path / "shards"], check=True, capture_output=True)
    result = subprocess.run([sketchprep, "eval", "--model", MODEL, "--shards", tmp_path / "shards", "--split", "test",
                             "--report", tmp_path / "report"], capture_output=True, text=True, check=True)
    assert "eval: 5 examples" in result.stderr
    assert "(5 more skipped: their class is not in the model's classes.txt)" in result.stderr
