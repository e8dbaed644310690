"""`sketchprep encode` equals an independent numpy implementation of the recipe, bit for bit."""
import pathlib
import subprocess

import numpy as np
import pytest

from conftest import SHARED
from stroke_reference import book_tensor, read_drawings

SIMPLIFIED = SHARED / "quickdraw" / "simplified"


def simplified_files():
    files = sorted(SIMPLIFIED.glob("*.ndjson"), key=lambda p: p.name.encode())
    if not files:
        pytest.skip(f"no simplified data in {SIMPLIFIED}")
    return files


def encode(sketchprep, inputs, output, *options):
    subprocess.run([sketchprep, "encode", *map(str, inputs), "-o", str(output), "--quiet", *options],
                   check=True, capture_output=True)
    return np.load(output)


def test_every_official_simplified_drawing_matches_numpy_exactly(sketchprep, tmp_path):
    files = simplified_files()
    ours = encode(sketchprep, [SIMPLIFIED], tmp_path / "all.npy")
    drawings = read_drawings(files)
    assert ours.dtype == np.float32 and ours.shape == (len(drawings), 75, 3)
    reference = np.stack([book_tensor(strokes) for _, _, strokes in drawings])
    assert np.abs(ours - reference).max() == 0
    assert ours.tobytes() == reference.tobytes()  # also the same signs of zero
    assert not (tmp_path / "all.rejected.ndjson").exists()  # nothing rejected, so no quarantine file


@pytest.mark.parametrize("length,padding,truncation", [(20, "back", "front"), (20, "front", "back"), (200, "back", "back")])
def test_length_padding_and_truncation_options_match_numpy(sketchprep, tmp_path, length, padding, truncation):
    files = simplified_files()[:5]
    ours = encode(sketchprep, files, tmp_path / "o.npy", "--length", str(length),
                  "--padding", padding, "--truncation", truncation)
    reference = np.stack([book_tensor(s, length, padding, truncation) for _, _, s in read_drawings(files)])
    assert ours.tobytes() == reference.tobytes()


def test_encode_output_is_memory_mappable_npy(sketchprep, tmp_path):
    out = tmp_path / "m.npy"
    encode(sketchprep, simplified_files()[:1], out)
    mapped = np.load(out, mmap_mode="r")
    assert mapped.dtype == np.dtype("<f4") and mapped.shape[1:] == (75, 3)
    assert mapped.offset % 64 == 0
    assert out.read_bytes() == _numpy_save_bytes(np.array(mapped), tmp_path)


def test_bad_lines_are_quarantined_and_reconciled(sketchprep, tmp_path):
    good = simplified_files()[0].read_text(encoding="utf-8").splitlines()[:3]
    source = tmp_path / "mixed.ndjson"
    source.write_text("\n".join([good[0], '{"word": "cat"', good[1], good[2]]) + "\n", encoding="utf-8")
    result = subprocess.run([sketchprep, "encode", str(source), "-o", str(tmp_path / "x.npy"), "--quiet"],
                            capture_output=True, text=True, check=True)
    assert np.load(tmp_path / "x.npy").shape == (3, 75, 3)
    assert (tmp_path / "x.rejected.ndjson").read_text() == '{"word": "cat"\n'
    assert "mixed.ndjson:2" in result.stderr
    assert "read 4 = written 3 + rejected 1" in result.stdout  # the summary, on stdout like every command's


def _numpy_save_bytes(array, tmp_path):
    path = tmp_path / "numpy-saved.npy"
    np.save(path, array)
    return path.read_bytes()


def test_raw_input_is_simplified_then_encoded(sketchprep, tmp_path):
    """Raw drawings: `encode` equals the numpy recipe over `sketchprep simplify`'s output."""
    raw = sorted((pathlib.Path(__file__).resolve().parents[2] / "SampleData" / "quickdraw" / "raw").glob("*.ndjson"))
    if not raw:
        pytest.skip("no SampleData raw files")
    simplified = tmp_path / "simplified.ndjson"
    subprocess.run([sketchprep, "simplify", *map(str, raw), "--output", str(simplified)], check=True, capture_output=True)
    ours = encode(sketchprep, raw, tmp_path / "raw.npy")
    reference = np.stack([book_tensor(s) for _, _, s in read_drawings([simplified])])
    assert ours.shape == reference.shape and ours.tobytes() == reference.tobytes()
