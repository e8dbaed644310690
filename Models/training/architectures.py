"""The three networks, in PyTorch, as the book describes them (docs/domain.md §3 and §4)."""
import torch
from torch import nn


class StrokeRNN(nn.Module):
    """Quick, Draw! RNN (TF tutorial / book): Conv1D 48 k5 → 64 k5 → 96 k3 → 128 k3 (same padding,
    linear, dropout 0.3 after each) → 3 × BiLSTM 128 (return sequences) → Flatten → Dense softmax.
    Input (N, 75, 3) stroke deltas; output (N, classes) probabilities."""

    def __init__(self, classes, steps=75):
        super().__init__()
        layers, channels = [], 3
        for width, kernel in [(48, 5), (64, 5), (96, 3), (128, 3)]:
            layers += [nn.Conv1d(channels, width, kernel, padding=kernel // 2), nn.Dropout(0.3)]
            channels = width
        self.convolutions = nn.Sequential(*layers)
        self.lstm = nn.LSTM(128, 128, num_layers=3, bidirectional=True, batch_first=True)
        self.classifier = nn.Linear(steps * 256, classes)

    def forward(self, strokes):
        hidden = self.convolutions(strokes.transpose(1, 2)).transpose(1, 2)
        sequence, _ = self.lstm(hidden)
        return self.classifier(sequence.flatten(1))


class BitmapCNN(nn.Module):
    """A small CNN for Google's 28×28 bitmaps: two conv/pool blocks and a dense layer.
    Input (N, 1, 28, 28) in [0, 1] (white ink on black); output (N, classes) logits."""

    def __init__(self, classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(64 * 7 * 7, 128), nn.ReLU(),
                                        nn.Linear(128, classes))

    def forward(self, image):
        return self.classifier(self.features(image))


class SketchCNN(nn.Module):
    """The book's TU-Berlin CNN: Conv 16 7×7 stride 3 → pool → 32 5×5 → pool → 64 5×5 → pool →
    128 5×5 → pool → Dense 512 → Dense softmax. Input (N, 1, 256, 256), white background = 1.0
    (the book's input, unchanged); the first step inside the network is 1 − x, so that the mostly
    white paper is zero and only ink activates the convolutions (without it training stalls at chance)."""

    def __init__(self, classes):
        super().__init__()
        blocks, channels = [], 1
        for width, kernel, stride in [(16, 7, 3), (32, 5, 1), (64, 5, 1), (128, 5, 1)]:
            blocks += [nn.Conv2d(channels, width, kernel, stride=stride, padding=kernel // 2 if stride == 1 else 0),
                       nn.ReLU(), nn.MaxPool2d(2)]
            channels = width
        self.features = nn.Sequential(*blocks)
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(128 * 5 * 5, 512), nn.ReLU(),
                                        nn.Dropout(0.5), nn.Linear(512, classes))

    def forward(self, image):
        return self.classifier(self.features(1.0 - image))


class WithSoftmax(nn.Module):
    """Wraps a logits network so the exported model outputs class probabilities."""

    def __init__(self, network):
        super().__init__()
        self.network = network

    def forward(self, x):
        return torch.softmax(self.network(x), dim=1)
