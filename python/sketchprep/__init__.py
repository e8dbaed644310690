"""SketchPrep from Python: Google's Quick, Draw! simplification, the stroke-tensor recipe and
stroke-3 arrays computed by the same native code as the ``sketchprep`` CLI (byte-identical
results), and loaders for the datasets the CLI writes (NPY, TFRecord, stroke-3 ``.npz``).

    import sketchprep
    simplified = sketchprep.simplify(raw_drawing)      # Google's simplified strokes
    tensor = sketchprep.encode(simplified)             # float32 (75, 3), the RNN input
    x, y, keys = sketchprep.load_split("out/quickdraw-rnn", "train")
"""
from ._native import NATIVE_VERSION as __version__
from .datasets import (ShardDataset, Split, classes, load_split, manifest, tf_dataset)
from .errors import DatasetError, DrawingError, SketchPrepError
from .info import info
from .stroke3 import load_stroke3
from .strokes import (Drawing, StrokeBatch, encode, encode_batch, simplify, simplify_batch, to_stroke3)

__all__ = [
    "__version__", "simplify", "simplify_batch", "encode", "encode_batch", "to_stroke3", "StrokeBatch", "Drawing",
    "load_split", "classes", "manifest", "info", "Split", "ShardDataset", "tf_dataset", "load_stroke3",
    "SketchPrepError", "DrawingError", "DatasetError",
]
