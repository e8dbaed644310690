"""SVG vector sketches (TU-Berlin, Sketchy, other tools) read as raw drawings: the whole path
grammar and transform lists, one stroke per subpath in document order, end points in the root's
user space; every command reads them; convert --to ndjson writes raw NDJSON that reads back the
same; hostile files are refused one by one with a reason."""
import json
import math
import subprocess
import time

import numpy as np

from conftest import SHARED

TUBERLIN = SHARED / "tuberlin-svg"


def run(sketchprep, *args):
    result = subprocess.run([str(sketchprep), *map(str, args)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result


def matrix(a, b, c, d, e, f):
    return np.array([[a, c, e], [b, d, f], [0, 0, 1]], dtype=float)


def rotate(degrees, cx=0.0, cy=0.0):
    r = math.radians(degrees)
    return matrix(1, 0, 0, 1, cx, cy) @ matrix(math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0) @ matrix(1, 0, 0, 1, -cx, -cy)


def mapped(transform, x, y):
    p = transform @ np.array([x, y, 1.0])
    return [p[0], p[1]]


OUTER = "translate(10,20) scale(2 3)"
INNER = "rotate(30 5 5) skewX(10),skewY(-5) matrix(1 0.1 -0.2 1 3 4)"
OUTER_M = matrix(1, 0, 0, 1, 10, 20) @ matrix(2, 0, 0, 3, 0, 0)
INNER_M = (rotate(30, 5, 5) @ matrix(1, 0, math.tan(math.radians(10)), 1, 0, 0)
           @ matrix(1, math.tan(math.radians(-5)), 0, 1, 0, 0) @ matrix(1, 0.1, -0.2, 1, 3, 4))

# Each path with the subpaths' (start, end) points in its own coordinates.
PATHS = [
    ("M1 2L3 4 5 6", [((1, 2), (5, 6))]),                                           # implicit repeated L
    ("m1,2 3,4 5-6", [((1, 2), (9, 0))]),                                           # relative, implicit l, no separator
    ("M1e1 2E0h5v-3H0V.5", [((10, 2), (0, 0.5))]),                                  # exponents, H/V, ".5"
    ("M0 0C1 2 3 4 5 6S9 9 10 10Q12 12 14 10T20 10", [((0, 0), (20, 10))]),        # C S Q T
    ("M0 0c1 2 3 4 5 6s1 1 2 2q1 1 2 0t4 0", [((0, 0), (13, 8))]),                  # relative curves
    ("M10 10A5 5 0 0 1 20 10a5 3 30 1 0 10 0", [((10, 10), (30, 10))]),             # arcs
    ("M0 0L10 0L10 10ZM20 20l5 5zl1 1", [((0, 0), (0, 0)), ((20, 20), (20, 20)), ((20, 20), (21, 21))]),
    ("M-1.5-2.5L.5.5-3e-1 4", [((-1.5, -2.5), (-0.3, 4))]),                         # 0.5.5 is two numbers
]


def svg_text():
    paths = "\n".join(f'<path d="{d}"/>' for d, _ in PATHS)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 800">
<!-- a comment --><defs><path d="M0 0L99 99"/></defs>
<g transform="{OUTER}"><g transform="{INNER}">
{paths}
</g>
<line x1="1" y1="2" x2="3" y2="4"/><polyline points="0,0 1,1 2,0"/><polygon points="5 5 6 6 7 5"/>
</g></svg>
"""


def expected_ends():
    ends = []
    for _, subpaths in PATHS:
        for start, end in subpaths:
            ends.append((mapped(OUTER_M @ INNER_M, *start), mapped(OUTER_M @ INNER_M, *end)))
    ends += [(mapped(OUTER_M, 1, 2), mapped(OUTER_M, 3, 4)), (mapped(OUTER_M, 0, 0), mapped(OUTER_M, 2, 0)),
             (mapped(OUTER_M, 5, 5), mapped(OUTER_M, 5, 5))]
    return ends


def test_subpaths_are_strokes_in_order_whose_end_points_are_the_transformed_ones(sketchprep, tmp_path):
    (tmp_path / "in" / "grammar").mkdir(parents=True)
    (tmp_path / "in" / "grammar" / "all.svg").write_text(svg_text())
    run(sketchprep, "convert", tmp_path / "in", "--to", "ndjson", "-o", tmp_path / "out", "-q")
    record = json.loads((tmp_path / "out" / "grammar.ndjson").read_text())
    assert record["word"] == "grammar" and record["key_id"] == "grammar/all.svg"
    assert record["countrycode"] == "" and record["timestamp"] == "" and record["recognized"] is True
    strokes = record["drawing"]
    ends = expected_ends()
    assert len(strokes) == len(ends)
    times = [t for stroke in strokes for t in stroke[2]]
    assert times == list(range(len(times)))  # t: the point's index in the drawing
    for stroke, (start, end) in zip(strokes, ends):
        assert np.allclose([stroke[0][0], stroke[1][0]], start, rtol=0, atol=1e-9)
        assert np.allclose([stroke[0][-1], stroke[1][-1]], end, rtol=0, atol=1e-9)
    assert len(strokes[3][0]) > 4  # curves are flattened into many points


def test_tuberlin_sketches_go_through_every_command_and_read_back_raw(sketchprep, tmp_path):
    files = sorted(TUBERLIN.glob("*/*.svg"))
    run(sketchprep, "convert", TUBERLIN, "--to", "ndjson", "-o", tmp_path / "ndjson", "-q")
    written = [json.loads(line) for path in sorted((tmp_path / "ndjson").glob("*.ndjson")) for line in open(path)]
    assert sorted(r["key_id"] for r in written) == sorted(f"{p.parent.name}/{p.name}" for p in files)
    assert all(len(stroke) == 3 for r in written for stroke in r["drawing"])  # raw: x, y and t
    run(sketchprep, "simplify", TUBERLIN, "-o", tmp_path / "from-svg.ndjson", "-q")
    run(sketchprep, "simplify", tmp_path / "ndjson", "-o", tmp_path / "from-ndjson.ndjson", "-q")
    assert sorted(open(tmp_path / "from-svg.ndjson")) == sorted(open(tmp_path / "from-ndjson.ndjson"))
    run(sketchprep, "encode", TUBERLIN, "-o", tmp_path / "tensors.npy", "-q")
    run(sketchprep, "bitmap", TUBERLIN, "-o", tmp_path / "bitmaps.npy", "-q")
    assert np.load(tmp_path / "tensors.npy").shape == (len(files), 75, 3)
    assert np.load(tmp_path / "bitmaps.npy").reshape(len(files), -1).max(axis=1).min() > 0  # every sketch drew ink
    run(sketchprep, "convert", TUBERLIN, "--to", "stroke3", "-o", tmp_path / "stroke3", "-q")
    run(sketchprep, "stats", TUBERLIN, "-o", tmp_path / "stats", "-q")
    run(sketchprep, "contact-sheet", TUBERLIN, "-o", tmp_path / "sheet.png")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("source: {kind: quickdraw-ndjson, file_format: svg}\nencode: {kind: raster, size: 28}\noutput: {format: npy}\n")
    run(sketchprep, "preprocess", "--pipeline", pipeline, "--input", TUBERLIN, "-o", tmp_path / "dataset", "-q")
    assert json.loads((tmp_path / "dataset" / "manifest.json").read_text())["records"]["written"] == len(files)


HOSTILE = {
    "laughs.svg": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                  '<svg><path d="M0 0L1 1" id="&b;"/></svg>',
    "external.svg": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg><path d="M0 0L1 1" id="&x;"/></svg>',
    "undeclared.svg": '<svg><path d="M0 0L1 1" id="&x;"/></svg>',
    "huge.svg": '<svg><path d="M0 0L1e400 1"/></svg>',
    "far.svg": '<svg><g transform="scale(1e8)"><path d="M0 0L100 1"/></g></svg>',
    "deep.svg": "<svg>" + "<g>" * 100 + '<path d="M0 0L1 1"/>' + "</g>" * 100 + "</svg>",
    "segments.svg": '<svg><path d="M0 0' + " L1 1 L2 2" * 150_000 + '"/></svg>',
    "broken.svg": '<svg><path d="M0 0L1 1"></svg>',
    "arc-underflow.svg": '<svg><path d="M0 0 A1e-300 1e-300 0 0 1 10 10"/></svg>',
    "far-control.svg": '<svg><g transform="scale(1000)"><path d="M0 0 C 5000 0 0 5000 10 10"/></g></svg>',
}


def test_hostile_svg_files_are_refused_one_by_one_with_a_reason_and_the_rest_read(sketchprep, tmp_path):
    directory = tmp_path / "in" / "cat"
    directory.mkdir(parents=True)
    for name, text in HOSTILE.items():
        (directory / name).write_text(text)
    (directory / "good.svg").write_text('<svg><path d="M0 0C10 10 20 10 30 0"/></svg>')
    start = time.monotonic()
    result = subprocess.run([str(sketchprep), "convert", tmp_path / "in", "--to", "ndjson", "-o", tmp_path / "out",
                             "--quarantine", tmp_path / "q.ndjson"], capture_output=True, text=True)
    assert time.monotonic() - start < 30
    assert result.returncode == 0, result.stderr
    assert f"read {len(HOSTILE) + 1} = written 1 + filtered 0 + rejected {len(HOSTILE)}" in result.stdout
    reasons = result.stderr
    for expected in ["internal subset", "entities are not expanded", "expected a number", "beyond ±1000000",
                     "nested deeper than 64", "more than 200000 path segments", "closes <path>", "arc radii",
                     "coordinate beyond the renderer's range"]:
        assert expected in reasons, expected
    assert json.loads((tmp_path / "out" / "cat.ndjson").read_text())["key_id"] == "cat/good.svg"
