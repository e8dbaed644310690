#!/usr/bin/env bash
# `make eval`: preprocesses the evaluation data with the pipelines and runs the three bundled models
# (Models/*) through `sketchprep eval`; trains nothing. Reports land in out/eval/<report>/.
#   usage: Models/evaluate.sh SKETCHPREP_BINARY SHARED_DATA_DIR
set -euo pipefail
bin="$1"
shared="$2"
out=out/eval
shards="$out/shards"
qd="$shared/quickdraw"
bitmap_words=(apple bicycle bowtie cat diamond eye fish lollipop rainbow)

echo "== preprocessing (pipelines → $shards)" >&2
# Stroke tensors of Google's simplified drawings, and of SketchPrep's simplification of the raw ones.
"$bin" preprocess --quiet --pipeline Pipelines/quickdraw-rnn.yaml --input "$qd/simplified" --output "$shards/quickdraw-simplified"
"$bin" preprocess --quiet --pipeline Pipelines/quickdraw-rnn.yaml --input "$qd/raw" --output "$shards/quickdraw-raw"
# Official 28×28 bitmaps, rows 0–24 (never trained on), keyed by key_id; and SketchPrep's renders of the same drawings.
"$bin" import-bitmaps --input "$qd/bitmap" --simplified "$qd/simplified" --row-count 25 --split 0/0/100 \
  --output "$shards/bitmap28-official-heldout"
"$bin" preprocess --quiet --pipeline Pipelines/quickdraw-bitmap28.yaml --input "$qd/simplified" \
  $(printf -- '--category %s ' "${bitmap_words[@]}") --output "$shards/bitmap28-rendered"
# TU-Berlin 40-class subset, its own train/test directories as the split.
"$bin" preprocess --quiet --pipeline Pipelines/tuberlin-cnn.yaml --input "$shared/tuberlin" --output "$shards/tuberlin"

echo "== evaluating (reports → $out)" >&2
# RNN: held-out (test split) drawings, official simplified first, raw-only drawings simplified by SketchPrep.
"$bin" eval --model Models/quickdraw-rnn --shards "$shards/quickdraw-simplified" --shards "$shards/quickdraw-raw" \
  --split test --report "$out/quickdraw-rnn"
# RNN agreement: every drawing with both an official and a SketchPrep simplification (all splits, all categories).
"$bin" eval --model Models/quickdraw-rnn --shards "$shards/quickdraw-simplified" --split all \
  --compare-shards "$shards/quickdraw-raw" --report "$out/quickdraw-rnn-agreement"
# Bitmap CNN: official held-out bitmaps; agreement with SketchPrep's renders of the same simplified drawings.
"$bin" eval --model Models/quickdraw-bitmap28 --shards "$shards/bitmap28-official-heldout" --split test \
  --compare-shards "$shards/bitmap28-rendered" --compare-split all --report "$out/quickdraw-bitmap28"
# TU-Berlin CNN: test split.
"$bin" eval --model Models/tuberlin-cnn --shards "$shards/tuberlin" --split test --report "$out/tuberlin-cnn"

for report in quickdraw-rnn quickdraw-rnn-agreement quickdraw-bitmap28 tuberlin-cnn; do
  echo "$out/$report/report.html" >&2
done
