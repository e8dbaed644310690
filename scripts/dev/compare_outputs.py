"""The two halves of scripts/dev/compare-outputs.sh that are easier in Python.

make-inputs: the inputs no sketchprep command writes, made the same way every time: every shared raw
drawing as Kaggle CSV (Python's csv module and str() of the stroke lists, as Kaggle's files were
made), and copies of some of the NDJSON and CSV files with seeded byte changes in every other record
(quarantine reasons and line numbers are output too).

compare: every file under two output trees, byte for byte. What differs between two runs of one
binary is set aside first, and only that: the measured values (floats) of `*timings.json`, in other
JSON files the keys named in VOLATILE_KEYS, and in standard error and output the progress lines
(PROGRESS). Every summary line, message, count and reason is compared.
"""

import argparse
import json
import pathlib
import random
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
from kaggle_csv_reference import write_train_csv  # noqa: E402  (the tests' writer: one way to write Kaggle's CSV)

# Keys whose values are measured, not computed: a run's wall time and its rate.
VOLATILE_KEYS = {"seconds", "items_per_second"}
# A progress line: its count of lines and their figures depend on when the clock ticked.
PROGRESS = re.compile(rb"^.*(?:[0-9a-z]/s\b|\bETA\b).*\n?", re.MULTILINE)

DAMAGE_WORDS = ["apple", "rainbow", "eye", "cat", "The Eiffel Tower", "bicycle"]
DAMAGE_BYTES = [b"0", b"9", b",", b".", b"-", b"[", b"]", b"\"", b" ", b"\t", b":", b"{", b"}", b"\x00", b"\xc3\xa9",
                b"\xb0", b"e", b"\n"]


def make_inputs(shared, out):
    raw = shared / "quickdraw" / "raw"
    (out / "csv").mkdir(parents=True)
    for path in sorted(raw.glob("*.ndjson")):
        rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        write_train_csv(out / "csv" / f"{path.stem}.csv", rows)
    rng = random.Random(29)
    for kind, source, suffix in [("damaged", raw, ".ndjson"), ("damaged-csv", out / "csv", ".csv")]:
        (out / kind).mkdir()
        for word in DAMAGE_WORDS:
            lines = (source / f"{word}{suffix}").read_bytes().split(b"\n")
            for i in range(1 if suffix == ".csv" else 0, len(lines), 2):
                line = bytearray(lines[i])
                for _ in range(rng.randint(1, 3)):
                    if line:
                        at = rng.randrange(len(line))
                        line[at:at + 1] = rng.choice(DAMAGE_BYTES)
                lines[i] = bytes(line)
            (out / kind / f"{word}{suffix}").write_bytes(b"\n".join(lines))


def normalized(path, sides):
    data = path.read_bytes()
    for side in sides:
        data = data.replace(side, b"SIDE")
    if path.suffix == ".json":
        try:
            value = json.loads(data)
        except ValueError:
            return data
        return json.dumps(strip_volatile(value, path.name.endswith("timings.json")), sort_keys=True).encode()
    if path.suffix in {".out", ".err"}:
        return PROGRESS.sub(b"", data)
    return data


def strip_volatile(value, measured):
    if isinstance(value, dict):
        return {k: strip_volatile(v, measured) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [strip_volatile(v, measured) for v in value]
    if measured and isinstance(value, float):
        return "#"
    return value


def compare(base, new):
    files = {p.relative_to(base) for p in base.rglob("*") if p.is_file()}
    files |= {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    sides = [str(base).encode(), str(new).encode()]  # a side's own path, in its messages, is the same text
    differing = []
    for name in sorted(files):
        a, b = base / name, new / name
        if not a.is_file() or not b.is_file():
            differing.append(f"{name}: only in {'base' if a.is_file() else 'new'}")
        elif normalized(a, sides) != normalized(b, sides):
            differing.append(f"{name}: differs")
    commands = len(list((base / "log").glob("*.rc")))
    failed = sum(1 for rc in (base / "log").glob("*.rc") if rc.read_text().strip() != "0")
    print(f"compare-outputs: {len(files)} files from {commands} commands ({failed} of them refusals or failures, "
          f"compared too)")
    if differing:
        print("\n".join(differing))
        print(f"compare-outputs: {len(differing)} files differ")
        return 1
    print("compare-outputs: identical")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make-inputs")
    make.add_argument("--shared", type=pathlib.Path, required=True)
    make.add_argument("--out", type=pathlib.Path, required=True)
    check = commands.add_parser("compare")
    check.add_argument("base", type=pathlib.Path)
    check.add_argument("new", type=pathlib.Path)
    args = parser.parse_args()
    if args.command == "make-inputs":
        make_inputs(args.shared, args.out)
        return 0
    return compare(args.base.resolve(), args.new.resolve())


if __name__ == "__main__":
    sys.exit(main())
