"""The names of a dataset's files, read from ``layout.json``: the table that a Swift test
(``DatasetLayoutTests``) checks against ``DatasetLayout``, the one place the CLI names a file."""

import json
import pathlib
from typing import Dict

NAMES: Dict[str, str] = json.loads((pathlib.Path(__file__).parent / "layout.json").read_text(encoding="utf-8"))

MANIFEST = NAMES["manifest"]
FEATURES = NAMES["features_suffix"]
LABELS = NAMES["labels_suffix"]
KEYS = NAMES["keys_suffix"]
STROKE3 = NAMES["stroke3_suffix"]
