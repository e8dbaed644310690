"""Independent numpy implementation of the stroke-tensor recipe (docs/domain.md §3), written the way the
TensorFlow Quick, Draw! tutorial's `parse_line` writes it: float32 arrays throughout."""
import json

import numpy as np


def tutorial_deltas(strokes):
    """Variable-length (N-1, 3) float32 deltas of a drawing given as [[xs, ys(, ts)], ...]."""
    total = sum(len(stroke[0]) for stroke in strokes)
    ink = np.zeros((total, 3), dtype=np.float32)
    current = 0
    for stroke in strokes:
        n = len(stroke[0])
        ink[current:current + n, 0] = stroke[0]
        ink[current:current + n, 1] = stroke[1]
        current += n
        ink[current - 1, 2] = 1
    lower = np.min(ink[:, 0:2], axis=0)
    upper = np.max(ink[:, 0:2], axis=0)
    scale = upper - lower
    scale[scale == 0] = 1
    ink[:, 0:2] = (ink[:, 0:2] - lower) / scale
    deltas = ink[1:].copy()
    deltas[:, 0:2] = ink[1:, 0:2] - ink[:-1, 0:2]
    return deltas


def book_tensor(strokes, length=75, padding="front", truncation="back"):
    """Fixed (length, 3) float32 tensor: deltas cut at `truncation`, zero rows at `padding`."""
    deltas = tutorial_deltas(strokes)
    kept = deltas[:length] if truncation == "back" else deltas[max(len(deltas) - length, 0):]
    out = np.zeros((length, 3), dtype=np.float32)
    if len(kept):
        if padding == "front":
            out[length - len(kept):] = kept
        else:
            out[:len(kept)] = kept
    return out


def read_drawings(paths):
    """(key_id, word, strokes) of every line of the NDJSON files, in order."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    record = json.loads(line)
                    out.append((record["key_id"], record["word"], record["drawing"]))
    return out
