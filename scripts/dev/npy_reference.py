"""What the framework checks (check_hf_webdataset.py, check_hf_imagefolder.py) compare against: a
pipeline run over three SampleData classes in a given output format, and the NPY dataset of the
same pipeline read back as {key_id: (array, label)} per split."""
import pathlib
import subprocess

import numpy as np

INPUTS = [f"SampleData/quickdraw/raw/{w}.ndjson" for w in ["cat", "apple", "airplane"]]


def preprocess(cli, work: pathlib.Path, name, output_format, encode):
    """Runs the pipeline `encode` (YAML flow text) with `output_format` into work/name."""
    pipeline = work / f"{name}.yaml"
    pipeline.write_text(f"source: {{kind: quickdraw-ndjson}}\nencode: {encode}\n"
                        f"output: {{format: {output_format}, examples_per_shard: 40}}\n")
    args = [cli, "preprocess", "--pipeline", str(pipeline), "-o", str(work / name), "-q"]
    for path in INPUTS:
        args += ["--input", path]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return work / name


def npy_examples(npy: pathlib.Path, split):
    """{key_id: (array, label)} of one split of the NPY dataset `npy`."""
    expected = {}
    for x_path in sorted(npy.glob(f"{split}-*.x.npy")):
        stem = str(x_path)[: -len(".x.npy")]
        keys = open(stem + ".keys.txt").read().splitlines()
        for key, x, y in zip(keys, np.load(x_path), np.load(stem + ".y.npy")):
            expected[key] = (x, int(y))
    return expected
