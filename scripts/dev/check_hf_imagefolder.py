"""HF `datasets`' imagefolder builder (and torchvision's `ImageFolder`, when torchvision is
installed) read SketchPrep's image-folder output (make test-frameworks): every image and label
equal the NPY dataset of the same pipeline and inputs, key by key.

    python scripts/dev/check_hf_imagefolder.py SKETCHPREP_BINARY WORK_DIR
"""
import importlib.util
import pathlib
import sys

import numpy as np
from datasets import Image, load_dataset
from npy_reference import npy_examples, preprocess

cli, work = sys.argv[1], pathlib.Path(sys.argv[2])
npy = preprocess(cli, work, "npy", "npy", "{kind: raster, size: 28}")
folder = preprocess(cli, work, "imagefolder", "imagefolder", "{kind: raster, size: 28}")
classes = (folder / "classes.txt").read_text().splitlines()
for split in ["train", "val", "test"]:
    expected = npy_examples(npy, split)
    files = sorted(str(p) for p in (folder / split).glob("*/*.png"))
    if not files:
        assert not expected, f"{split}: NPY has {len(expected)} examples, the image folder none"
        continue
    dataset = load_dataset("imagefolder", data_files={split: files}, split=split)
    assert len(dataset) == len(expected), (split, len(dataset), len(expected))
    names = dataset.features["label"].names  # the builder's labels: the class directories, sorted
    paths = dataset.cast_column("image", Image(decode=False))["image"]
    for stored, sample in zip(paths, dataset):
        path = stored["path"]
        x, label = expected[pathlib.Path(path).stem]  # digit key_ids are their own file names
        assert np.array_equal(np.asarray(sample["image"]), x), path
        assert names[sample["label"]] == classes[label], path
    print(f"HF datasets imagefolder: {split}: {len(dataset)} images equal the NPY dataset's")
    if importlib.util.find_spec("torchvision") is None:
        print("torchvision ImageFolder: skipped (torchvision is not installed)")
        continue
    from torchvision.datasets import ImageFolder

    images = ImageFolder(str(folder / split))
    assert len(images) == len(expected)
    for (path, index), (image, _) in zip(images.samples, images):
        x, label = expected[pathlib.Path(path).stem]
        assert np.array_equal(np.asarray(image.convert("L")), x) and images.classes[index] == classes[label], path
    print(f"torchvision ImageFolder: {split}: {len(images)} images equal the NPY dataset's")
