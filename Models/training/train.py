"""Trains one of the bundled models on SketchPrep shards (CPU, seeded) and exports it to ONNX.

    python3 Models/training/train.py quickdraw-rnn --shards out/shards/quickdraw-rnn --out Models/quickdraw-rnn

Writes into --out: model.onnx (input name/shape per model, output `classProbabilities` (N, classes)),
classes.txt (one class word per line, index order) and training.json (settings and per-epoch
loss/accuracy). Same shards + same seed + same torch version → same weights (deterministic
algorithms, fixed thread count, seeded shuffles). See Models/README.md.
"""
import argparse
import hashlib
import json
import pathlib
import random
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from architectures import BitmapCNN, SketchCNN, StrokeRNN, WithSoftmax  # noqa: E402
from shards import load_splits, most_drawn_classes  # noqa: E402

# name: (network factory, ONNX input name, per-example input shape, default epochs, batch, learning rate, augment)
MODELS = {
    "quickdraw-rnn": (StrokeRNN, "strokeSeq", (75, 3), 30, 32, 1e-3, False),
    "quickdraw-bitmap28": (BitmapCNN, "image", (1, 28, 28), 4, 128, 1e-3, False),
    "tuberlin-cnn": (SketchCNN, "image", (1, 256, 256), 25, 32, 1e-3, True),
}
OUTPUT_NAME = "classProbabilities"


def seed_everything(seed, threads):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.set_flush_denormal(True)  # denormal LSTM gradients are very slow on CPU
    torch.use_deterministic_algorithms(True)


def shift_and_flip(images, generator):
    """Augmentation for raster sketches: random horizontal flip and a shift of up to 1/16 of the
    side, filling with the background value (the image's maximum: white paper = 1.0)."""
    out = images.clone()
    side = images.shape[-1]
    limit = side // 16
    for i in range(len(out)):
        image = out[i]
        if torch.rand(1, generator=generator).item() < 0.5:
            image = image.flip(-1)
        dx, dy = (int(v) for v in torch.randint(-limit, limit + 1, (2,), generator=generator))
        shifted = torch.full_like(image, float(image.max()))
        src = image[..., max(0, -dy):side - max(0, dy), max(0, -dx):side - max(0, dx)]
        shifted[..., max(0, dy):max(0, dy) + src.shape[-2], max(0, dx):max(0, dx) + src.shape[-1]] = src
        out[i] = shifted
    return out


def accuracy(network, features, labels, batch=256):
    network.eval()
    correct = 0
    with torch.no_grad():
        for start in range(0, len(features), batch):
            logits = network(features[start:start + batch])
            correct += int((logits.argmax(1) == labels[start:start + batch]).sum())
    return correct / max(len(features), 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("--shards", required=True, nargs="+",
                        help="SketchPrep NPY shard directories (train and val splits); a key_id seen in an earlier "
                             "directory is skipped in later ones")
    parser.add_argument("--top-classes", type=int, default=0,
                        help="train on the N classes with the most distinct drawings (0 = every class of the first directory)")
    parser.add_argument("--out", required=True, help="model directory to write")
    parser.add_argument("--epochs", type=int, help="training epochs (default per model)")
    parser.add_argument("--max-per-class", type=int, default=0,
                        help="cap on training examples per class, first ones in shard order (0 = no cap)")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads (1 is fastest on a busy 2-core machine: no thread barriers)")
    args = parser.parse_args()

    factory, input_name, input_shape, default_epochs, batch, learning_rate, augment = MODELS[args.model]
    epochs = args.epochs or default_epochs
    seed_everything(args.seed, args.threads)
    chosen = most_drawn_classes(args.shards, args.top_classes) if args.top_classes else None
    train, classes = load_splits(args.shards, "train", chosen)
    try:
        val, _ = load_splits(args.shards, "val", classes)
    except (FileNotFoundError, ValueError):  # e.g. TU-Berlin: train/test only; the test split is never looked at here
        val = None
    train_x = torch.from_numpy(train.features).reshape(-1, *input_shape)
    train_y = torch.from_numpy(train.labels)
    if args.max_per_class:
        keep = torch.cat([torch.nonzero(train_y == c).flatten()[:args.max_per_class] for c in range(len(classes))]).sort().values
        train_x, train_y = train_x[keep], train_y[keep]
    val_x = torch.from_numpy(val.features).reshape(-1, *input_shape) if val else torch.zeros(0, *input_shape)
    val_y = torch.from_numpy(val.labels) if val else torch.zeros(0, dtype=torch.int64)
    print(f"{args.model}: {len(classes)} classes, {len(train_x)} train, {len(val_x)} val, {epochs} epochs", file=sys.stderr)

    network = factory(len(classes))
    counts = torch.bincount(train_y, minlength=len(classes)).clamp(min=1).float()
    loss_function = nn.CrossEntropyLoss(weight=counts.sum() / (len(classes) * counts))  # balanced classes
    optimiser = torch.optim.Adam(network.parameters(), lr=learning_rate)
    generator = torch.Generator().manual_seed(args.seed)
    history = []
    for epoch in range(1, epochs + 1):
        started = time.time()
        network.train()
        order = torch.randperm(len(train_x), generator=generator)
        total_loss, correct = 0.0, 0
        for start in range(0, len(order), batch):
            index = order[start:start + batch]
            inputs = shift_and_flip(train_x[index], generator) if augment else train_x[index]
            optimiser.zero_grad()
            logits = network(inputs)
            loss = loss_function(logits, train_y[index])
            loss.backward()
            optimiser.step()
            total_loss += loss.item() * len(index)
            correct += int((logits.argmax(1) == train_y[index]).sum())
        record = {"epoch": epoch, "loss": round(total_loss / len(order), 5),
                  "train_accuracy_running": round(correct / len(order), 5),
                  "val_accuracy": round(accuracy(network, val_x, val_y), 5) if len(val_x) else None,
                  "seconds": round(time.time() - started, 1)}
        history.append(record)
        print(json.dumps(record), file=sys.stderr)

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    exported = WithSoftmax(network).eval()
    torch.onnx.export(exported, torch.zeros(1, *input_shape), str(out / "model.onnx"), input_names=[input_name],
                      output_names=[OUTPUT_NAME], dynamic_axes={input_name: {0: "batch"}, OUTPUT_NAME: {0: "batch"}},
                      opset_version=17, dynamo=False)
    (out / "classes.txt").write_text("".join(word + "\n" for word in classes))
    manifests = {directory: hashlib.sha256((pathlib.Path(directory) / "manifest.json").read_bytes()).hexdigest()
                 for directory in args.shards}
    summary = {"model": args.model, "shards": args.shards, "shard_manifest_sha256": manifests, "seed": args.seed, "threads": args.threads,
               "epochs": epochs, "batch": batch, "learning_rate": learning_rate, "augment": augment,
               "max_per_class": args.max_per_class, "top_classes": args.top_classes, "train_examples": len(train_x), "val_examples": len(val_x),
               "torch": torch.__version__, "history": history}
    (out / "training.json").write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
