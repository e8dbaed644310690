#!/bin/bash
# Submits a partitioned preprocess to Slurm: an array job of n map tasks, then the merge job
# with --dependency=afterok on the whole array. Prints the two job ids.
#
#   SKETCHPREP=/shared/bin/sketchprep PIPELINE=Pipelines/quickdraw-rnn.yaml \
#   INPUT=/shared/quickdraw/raw WORK=/shared/work/rnn OUTPUT=/shared/datasets/rnn \
#   PARTITIONS=64 deploy/slurm/submit.sh [extra sbatch options, e.g. --partition=cpu]
#
# Tasks start in the directory submit.sh was called from, so relative paths resolve as they do
# here; every path must be visible under the same name on every node (a shared file system).
# Recovery: if array task i fails, the merge job never starts (afterok); re-run that task with
#   sbatch --array=i ... deploy/slurm/partition.sbatch   and then submit merge.sbatch alone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${SKETCHPREP:?}" "${PIPELINE:?}" "${INPUT:?}" "${WORK:?}" "${OUTPUT:?}" "${PARTITIONS:?}"
case "$PARTITIONS" in ''|*[!0-9]*|0) echo "submit.sh: PARTITIONS must be a positive integer, got '$PARTITIONS'" >&2; exit 64;; esac
export SKETCHPREP PIPELINE INPUT WORK OUTPUT PARTITIONS
mkdir -p "$WORK"

array_job=$(sbatch --parsable --export=ALL --chdir="$PWD" --array="0-$((PARTITIONS - 1))" "$@" "$here/partition.sbatch")
array_job=${array_job%%;*}
merge_job=$(sbatch --parsable --export=ALL --chdir="$PWD" --dependency="afterok:$array_job" "$@" "$here/merge.sbatch")
merge_job=${merge_job%%;*}
echo "partitions: job $array_job (array 0-$((PARTITIONS - 1)))"
echo "merge:      job $merge_job (after every partition succeeds)"
