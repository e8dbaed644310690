"""Kaggle's competition CSV written the way Kaggle's files were made: Python's csv module, str() of the
stroke lists, `True`/`False`, and the timestamp with six fraction digits and no zone (docs/formats.md,
"Kaggle competition CSV"). Used by test_kaggle_csv.py and by scripts/dev/compare_outputs.py."""
import csv

TRAIN_HEADER = ["countrycode", "drawing", "key_id", "recognized", "timestamp", "word"]


def kaggle_timestamp(google):
    """Kaggle's text of a Google timestamp: `2017-03-08 21:12:07.26604 UTC` → `…07.266040`."""
    stamp = google.removesuffix(" UTC")
    whole, _, fraction = stamp.partition(".")
    return f"{whole}.{fraction.ljust(6, '0')}"


def write_train_csv(path, rows):
    """`rows` (Quick, Draw! records as dicts) as a Kaggle train CSV file at `path`."""
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(TRAIN_HEADER)
        for r in rows:
            writer.writerow([r["countrycode"], str(r["drawing"]), r["key_id"], str(r["recognized"]),
                             kaggle_timestamp(r["timestamp"]), r["word"]])
