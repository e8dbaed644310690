"""Writes what the wheel's tests compare against, with the CLI, before the tests run in a
fresh virtual environment (possibly with /opt/swift hidden, where the CLI cannot run):

    python3 Tests/python/package/make_fixtures.py --sketchprep BIN --shared ../shared/data --out DIR

DIR gets: version.txt (`sketchprep --version`), simplified.ndjson (`sketchprep simplify` of every
shared raw drawing), encoded-simplified.npy and encoded-raw.npy (`sketchprep encode` of the
shared simplified and raw drawings; the raw ones with a back-padded length of 40 as well),
datasets/<pipeline>/ (`sketchprep preprocess` of SampleData with the bundled pipelines), and
console-preprocess/ (`sketchprep preprocess --pipeline quickdraw-rnn`, the shipped pipeline by
name, of one shared raw category, run with the arguments in console-preprocess.json, which the
wheel's console script repeats), pipelines.json (the names of Pipelines/*.yaml), and read/ (every input
format of the shared data — raw and simplified NDJSON, `.bin` and Kaggle CSV made from the
simplified files, stroke-3 `.npz`, SVG — with `sketchprep convert --to ndjson --input-format raw`
of each into read/<format>/converted, listed in read.json, for `sketchprep.read`'s test).
"""
import argparse
import csv
import json
import pathlib
import shutil
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[3]
PIPELINES = ("quickdraw-rnn", "quickdraw-bitmap28", "quickdraw-rnn-tfrecord", "quickdraw-sketchrnn")
CONSOLE_CATEGORY = "syringe"  # one small shared raw file (SampleData's fish where the shared data is absent)


def run(*arguments):
    subprocess.run([str(a) for a in arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sketchprep", required=True, type=pathlib.Path)
    parser.add_argument("--shared", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    options = parser.parse_args()
    cli, out = options.sketchprep.resolve(), options.out
    quickdraw = options.shared / "quickdraw"
    if not (quickdraw / "raw").is_dir():
        quickdraw = REPO / "SampleData" / "quickdraw"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    version = subprocess.run([cli, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    (out / "version.txt").write_text(version + "\n")
    (out / "quickdraw.txt").write_text(str(quickdraw.resolve()) + "\n")
    run(cli, "simplify", quickdraw / "raw", "-o", out / "simplified.ndjson", "--quarantine", out / "simplify-quarantine.ndjson")
    run(cli, "encode", quickdraw / "simplified", "-o", out / "encoded-simplified.npy", "--input-format", "simplified",
        "--quarantine", out / "q1.ndjson")
    run(cli, "encode", quickdraw / "raw", "-o", out / "encoded-raw.npy", "--input-format", "raw", "--quarantine", out / "q2.ndjson")
    run(cli, "encode", quickdraw / "raw", "-o", out / "encoded-raw-40-back.npy", "--input-format", "raw", "--length", "40",
        "--padding", "back", "--truncation", "front", "--quarantine", out / "q3.ndjson")
    for pipeline in PIPELINES:
        run(cli, "preprocess", "--pipeline", REPO / "Pipelines" / f"{pipeline}.yaml",
            "--input", REPO / "SampleData" / "quickdraw" / "raw", "--output", out / "datasets" / pipeline)
    # The bitmap28 pipeline as an image folder: same inputs, same seed, so the same examples in the same order.
    folder = out / "quickdraw-bitmap28-imagefolder.yaml"
    folder.write_text((REPO / "Pipelines" / "quickdraw-bitmap28.yaml").read_text().replace("  format: npy\n", "  format: imagefolder\n"))
    run(cli, "preprocess", "--pipeline", folder, "--input", REPO / "SampleData" / "quickdraw" / "raw",
        "--output", out / "datasets" / "quickdraw-bitmap28-imagefolder")
    category = CONSOLE_CATEGORY if (quickdraw / "raw" / f"{CONSOLE_CATEGORY}.ndjson").is_file() else "fish"
    # The shipped pipeline by name (this CLI finds Pipelines/, the wheel's its sketchprep/pipelines/) and an
    # absolute input: the manifest records --pipeline and --input as given, and the console script runs elsewhere.
    (out / "pipelines.json").write_text(json.dumps(sorted(p.stem for p in (REPO / "Pipelines").glob("*.yaml"))) + "\n")
    arguments = ["preprocess", "--pipeline", "quickdraw-rnn",
                 "--input", str((quickdraw / "raw" / f"{category}.ndjson").resolve()), "--category", category]
    (out / "console-preprocess.json").write_text(json.dumps(arguments) + "\n")
    run(cli, *arguments, "-o", out / "console-preprocess")
    write_read_fixtures(cli, options.shared, quickdraw, out / "read")


def write_read_fixtures(cli, shared, quickdraw, out):
    """Each shared input format, and the CLI's reading of it (every drawing simplified: `convert
    --to ndjson --input-format raw`), listed in read.json as format → {inputs, format}."""
    simplified = sorted((quickdraw / "simplified").glob("*.ndjson"))
    made = out / "inputs"
    run(cli, "convert", *simplified, "--to", "bin", "-o", made / "bin")
    (made / "csv").mkdir(parents=True)
    for path in simplified:
        with open(path, encoding="utf-8") as source, open(made / "csv" / f"{path.stem}.csv", "w", newline="") as target:
            writer = csv.writer(target)
            writer.writerow(["countrycode", "drawing", "key_id", "recognized", "timestamp", "word"])
            for line in source:
                r = json.loads(line)
                whole, _, fraction = r["timestamp"].removesuffix(" UTC").partition(".")
                writer.writerow([r["countrycode"], str(r["drawing"]), r["key_id"], str(r["recognized"]),
                                 f"{whole}.{fraction.ljust(6, '0')}", r["word"]])
    cases = {"ndjson-raw": ([quickdraw / "raw"], None), "ndjson-simplified": ([quickdraw / "simplified"], None),
             "bin": ([made / "bin"], "bin"), "csv": ([made / "csv"], "csv")}
    if (shared / "sketchrnn" / "short_kanji.npz").is_file():
        cases["stroke3"] = ([shared / "sketchrnn" / "short_kanji.npz"], None)
    if (shared / "tuberlin-svg").is_dir():
        cases["svg"] = ([path for path in sorted((shared / "tuberlin-svg").iterdir()) if path.is_dir()], "svg")
    listed = {}
    for name, (inputs, file_format) in cases.items():
        option = ["--format", file_format] if file_format else []
        run(cli, "convert", *inputs, *option, "--to", "ndjson", "--input-format", "raw", "-o", out / name / "converted",
            "--quarantine", out / name / "quarantine.ndjson")
        listed[name] = {"inputs": [str(path.resolve()) for path in inputs], "format": file_format}
    (out / "read.json").write_text(json.dumps(listed, indent=1) + "\n")


if __name__ == "__main__":
    main()
