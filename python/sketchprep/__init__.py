"""SketchPrep from Python: the ``sketchprep`` tool's own code behind a Python API. Drawings read
from every input format, Google's simplification, the stroke-tensor recipe, Google's 28×28
bitmaps and larger rasters come from the bundled native library (byte-identical to the CLI);
``preprocess``, ``parity``, ``verify`` and ``info`` run the bundled CLI and return its report; the
loaders read the datasets it writes (NPY, TFRecord, stroke-3 ``.npz``).

    import sketchprep
    drawings = sketchprep.read("airplane.ndjson")        # SketchDrawing: word, key_id, strokes, …
    images = sketchprep.bitmap(drawings)                 # uint8 (N, 28, 28), Google's bitmaps
    simplified = sketchprep.simplify(raw_drawing)        # Google's simplified strokes
    tensor = sketchprep.encode(simplified)               # float32 (75, 3), the RNN input
    manifest = sketchprep.preprocess("Pipelines/quickdraw-rnn.yaml", output="out/rnn")
    x, y, keys = sketchprep.load_split("out/rnn", "train")
"""
from ._native import NATIVE_VERSION as __version__
from .commands import info, parity, preprocess, verify
from .datasets import (ShardDataset, Split, classes, load_split, manifest, tf_dataset)
from .errors import CommandError, DatasetError, DrawingError, SketchPrepError
from .reading import Reader, Rejection, SketchDrawing, read
from .rendering import bitmap, raster
from .stroke3 import load_stroke3
from .strokes import (Drawing, StrokeBatch, encode, encode_batch, simplify, simplify_batch, to_stroke3)

__all__ = [
    "__version__", "read", "Reader", "SketchDrawing", "Rejection", "bitmap", "raster", "simplify", "simplify_batch",
    "encode", "encode_batch", "to_stroke3", "StrokeBatch", "Drawing", "preprocess", "parity", "verify", "info",
    "load_split", "classes", "manifest", "Split", "ShardDataset", "tf_dataset", "load_stroke3",
    "SketchPrepError", "DrawingError", "DatasetError", "CommandError",
]
