#!/usr/bin/env bash
# The byte check a change that must keep output bytes runs ("every shipped pipeline, every command and every format
# compared byte for byte between the change and the commit it lands on"): the same commands run with two release
# binaries, and every file they write, their standard output and error and their exit codes are compared. Only what
# differs between two runs of one binary is set aside: measured times and rates, progress lines
# (scripts/dev/compare_outputs.py names each). Inputs in the other formats (.bin, stroke-3, Kaggle CSV, damaged
# NDJSON and CSV) are made once, by the base binary and by a seeded script, so both sides read the same bytes.
# About 45 s a side on 2 cores.
#   git worktree add /tmp/base BASE_COMMIT && (cd /tmp/base && swift build -c release --product sketchprep --static-swift-stdlib)
#   scripts/dev/compare-outputs.sh /tmp/base/.build/release/sketchprep .build/release/sketchprep [SHARED_DATA]
# Exit 0 and "identical" when nothing differs; exit 1 with the differing files listed otherwise.
set -euo pipefail
base="$(realpath "$1")"
new="$(realpath "$2")"
shared="$(realpath "${3:-../shared/data}")"
repo="$PWD"
work="$PWD/out/compare-outputs"
python="${PYTHON:-python3}"
rm -rf "$work"
mkdir -p "$work/inputs"

# Inputs every side reads: the shared data as it is, plus the other formats made once.
inputs="$work/inputs"
"$base" convert "$shared/quickdraw/simplified" --to bin -o "$inputs/bin" --quiet
"$base" convert "$shared/quickdraw/simplified" --to stroke3 -o "$inputs/stroke3" --quiet
"$python" "$repo/scripts/dev/compare_outputs.py" make-inputs --shared "$shared" --out "$inputs"

# run NAME COMMAND...: one command, its stdout, stderr and exit code kept under the side's log/.
run() {
  local name="$1"
  shift
  local rc=0
  (cd "$side" && "$@" >"log/$name.out" 2>"log/$name.err") || rc=$?
  echo "$rc" >"$side/log/$name.rc"
}

commands() {
  local b="$1"
  local raw="$shared/quickdraw/raw" simplified="$shared/quickdraw/simplified"
  # The record commands, on every input format.
  run simplify-raw "$b" simplify "$raw" -o simplify/raw.ndjson --quarantine simplify/raw.quarantine.ndjson --report-json simplify/raw.json
  run simplify-simplified "$b" simplify "$simplified" -o simplify/simplified.ndjson --report-json simplify/simplified.json
  run simplify-damaged "$b" simplify "$inputs/damaged" -o simplify/damaged.ndjson --quarantine simplify/damaged.quarantine.ndjson --report-json simplify/damaged.json
  run simplify-damaged-csv "$b" simplify "$inputs/damaged-csv" -o simplify/damaged-csv.ndjson --quarantine simplify/damaged-csv.quarantine.ndjson --report-json simplify/damaged-csv.json
  run simplify-damaged-strict "$b" simplify "$inputs/damaged" -o simplify/damaged-strict.ndjson --strict
  for input in raw simplified bin stroke3 csv damaged damaged-csv svg; do
    case "$input" in
      raw) path="$raw" ;;
      simplified) path="$simplified" ;;
      svg) path="$shared/tuberlin-svg" ;;
      *) path="$inputs/$input" ;;
    esac
    run "encode-$input" "$b" encode "$path" -o "encode/$input.npy" --quarantine "encode/$input.quarantine.ndjson" --jobs 2
    run "encode-$input-jobs1" "$b" encode "$path" -o "encode/$input-jobs1.npy" --quarantine "encode/$input-jobs1.quarantine.ndjson" --jobs 1
    run "convert-$input" "$b" convert "$path" --to ndjson -o "convert/$input-ndjson" --report-json "convert/$input-ndjson.json"
    run "bitmap-$input" "$b" bitmap "$path" --size 28 -o "bitmap/$input.npy"
  done
  run convert-raw-bin "$b" convert "$raw" --to bin -o convert/raw-bin
  run convert-raw-stroke3 "$b" convert "$raw" --to stroke3 -o convert/raw-stroke3
  run convert-sketchrnn "$b" convert "$shared/sketchrnn/omniglot.npz" --to ndjson -o convert/omniglot --word omniglot
  run bitmap-64 "$b" bitmap "$raw" --size 64 -o bitmap/raw-64.npy
  run raster "$b" raster "$shared/tuberlin/train" -o raster/train.npy --jobs 2
  run parity "$b" parity --raw "$raw" --simplified "$simplified" --report-json parity/report.json --report-md parity/report.md
  run stats "$b" stats "$simplified" -o stats
  run contact-sheet "$b" contact-sheet "$simplified" -o contact/sheet.png
  run import-bitmaps "$b" import-bitmaps --input "$shared/quickdraw/bitmap" --output import --simplified "$simplified"
  # Every shipped pipeline, then verify and info of its dataset.
  for pipeline in "$repo"/Pipelines/*.yaml; do
    p="$(basename "$pipeline" .yaml)"
    input=(--input "$raw")
    [ "$p" = tuberlin-cnn ] && input=(--input "$shared/tuberlin")
    run "preprocess-$p" "$b" preprocess --pipeline "$pipeline" "${input[@]}" -o "datasets/$p" --jobs 2
    run "verify-$p" "$b" verify "datasets/$p" --report-json "datasets/$p.verify.json"
    run "info-$p" "$b" info "datasets/$p" --report-json "datasets/$p.info.json"
  done
  # Partitions and merge, one-process and in reduce parts, for a shard format and the .npz one.
  for p in quickdraw-rnn quickdraw-sketchrnn; do
    for i in 0 1 2; do
      run "partition-$p-$i" "$b" preprocess --pipeline "$repo/Pipelines/$p.yaml" --input "$raw" --partition "$i/3" -o "partials/$p-$i" --jobs 1
    done
    partials=("partials/$p-0" "partials/$p-1" "partials/$p-2")
    run "merge-$p" "$b" merge "${partials[@]}" -o "merged/$p"
    for r in 0 1; do
      run "merge-$p-reduce-$r" "$b" merge "${partials[@]}" -o "reduced/$p" --reduce "$r/2"
    done
    run "merge-$p-finalize" "$b" merge "${partials[@]}" -o "reduced/$p" --finalize
    run "verify-merged-$p" "$b" verify "merged/$p" --report-json "merged/$p.verify.json"
    run "verify-reduced-$p" "$b" verify "reduced/$p" --report-json "reduced/$p.verify.json"
  done
  # Refusals: their messages and exit codes are output too.
  run missing-input "$b" encode "$inputs/no-such-file.ndjson" -o refusals/missing.npy
  run bad-option "$b" bitmap "$raw" --size 0 -o refusals/size.npy
  run unknown-pipeline "$b" preprocess --pipeline no-such-pipeline -o refusals/pipeline
}

for name in base new; do
  side="$work/$name"
  mkdir -p "$side/log"
  commands "$([ "$name" = base ] && echo "$base" || echo "$new")"
done
"$python" "$repo/scripts/dev/compare_outputs.py" compare "$work/base" "$work/new"
