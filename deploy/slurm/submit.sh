#!/bin/bash
# Submits a partitioned preprocess to Slurm as map → reduce → finalize: an array job of n map
# tasks, an array job of R reduce tasks with --dependency=afterok on the map job, and the finalize
# job with --dependency=afterok on the reduce job. Prints the three job ids.
#
#   SKETCHPREP=/shared/bin/sketchprep PIPELINE=Pipelines/quickdraw-rnn.yaml \
#   INPUT=/shared/quickdraw/raw WORK=/shared/work/rnn OUTPUT=/shared/datasets/rnn \
#   PARTITIONS=64 REDUCERS=16 deploy/slurm/submit.sh [extra sbatch options, e.g. --partition=cpu]
#
# Tasks start in the directory submit.sh was called from, so relative paths resolve as they do
# here; every path must be visible under the same name on every node (a shared file system).
# Recovery (docs/cluster.md): a failed map task i or reduce task j is re-run alone with
#   sbatch --export=ALL --array=i deploy/slurm/map.sbatch     (then scontrol update the reduce job's dependency)
#   sbatch --export=ALL --array=j deploy/slurm/reduce.sbatch  (then scontrol update the finalize job's dependency)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${SKETCHPREP:?}" "${PIPELINE:?}" "${INPUT:?}" "${WORK:?}" "${OUTPUT:?}" "${PARTITIONS:?}" "${REDUCERS:?}"
for count in PARTITIONS REDUCERS; do
    case "${!count}" in ''|*[!0-9]*|0) echo "submit.sh: $count must be a positive integer, got '${!count}'" >&2; exit 64;; esac
done
export SKETCHPREP PIPELINE INPUT WORK OUTPUT PARTITIONS REDUCERS
mkdir -p "$WORK"

submit() { local id; id=$(sbatch --parsable --export=ALL --chdir="$PWD" "$@"); echo "${id%%;*}"; }
map_job=$(submit --array="0-$((PARTITIONS - 1))" "$@" "$here/map.sbatch")
reduce_job=$(submit --array="0-$((REDUCERS - 1))" --dependency="afterok:$map_job" "$@" "$here/reduce.sbatch")
finalize_job=$(submit --dependency="afterok:$reduce_job" "$@" "$here/finalize.sbatch")
echo "map:      job $map_job (array 0-$((PARTITIONS - 1)))"
echo "reduce:   job $reduce_job (array 0-$((REDUCERS - 1)), after every map task succeeds)"
echo "finalize: job $finalize_job (after every reduce task succeeds)"
