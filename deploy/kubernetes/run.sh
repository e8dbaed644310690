#!/bin/bash
# Runs a partitioned preprocess on Kubernetes as map → reduce → finalize: the PVC, the Indexed
# Job of n map tasks, the Indexed Job of R reduce tasks, then the finalize Job, each applied only
# when the one before reports condition Complete.
#
#   IMAGE=registry.example.com/sketchprep:1.0 PARTITIONS=64 REDUCERS=16 deploy/kubernetes/run.sh
#
# Before: copy the pipeline file to /data/pipeline.yaml and the input to /data/input/ on the
# volume. After: the dataset is in /data/dataset/. Kubernetes retries a failed index alone
# (backoffLimitPerIndex); when a stage fails for good, run.sh stops and prints its failed indexes.
# Recovery: re-run one task alone, then the stages after it (docs/cluster.md):
#   deploy/kubernetes/run.sh map I      # or: run.sh reduce J
#   deploy/kubernetes/run.sh reduce && deploy/kubernetes/run.sh finalize
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${IMAGE:?image with sketchprep on PATH}" "${PARTITIONS:?number of map tasks n}" "${REDUCERS:?number of reduce tasks R}"
for count in PARTITIONS REDUCERS; do
    case "${!count}" in ''|*[!0-9]*|0) echo "run.sh: $count must be a positive integer, got '${!count}'" >&2; exit 64;; esac
done

# stage NAME TASKS [INDEX]: (re)applies NAME-job.yaml with TASKS completions, or task INDEX alone,
# and waits until the Job is Complete; exits if it Failed or TIMEOUT seconds pass (default 86400).
stage() {
    local name="$1" completions="$2" index="${3:-}" job="job/sketchprep-$1" waited=0 conditions
    [ -z "$index" ] || completions=1
    kubectl delete "$job" --ignore-not-found
    sed -e "s|__IMAGE__|$IMAGE|g" -e "s|__PARTITIONS__|$PARTITIONS|g" -e "s|__REDUCERS__|$REDUCERS|g" \
        -e "s|__COMPLETIONS__|$completions|g" -e "s|__TASK_INDEX__|$index|g" "$here/$name-job.yaml" | kubectl apply -f -
    until conditions="$(kubectl get "$job" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')" &&
        [[ " $conditions " == *" Complete "* ]]; do
        if [[ " $conditions " == *" Failed "* ]]; then
            echo "run.sh: $name failed; indexes: $(kubectl get "$job" -o jsonpath='{.status.failedIndexes}')" >&2
            exit 1
        fi
        [ "$waited" -lt "${TIMEOUT:-86400}" ] || { echo "run.sh: $name not complete after ${TIMEOUT:-86400} s" >&2; exit 1; }
        sleep 10; waited=$((waited + 10))
    done
    echo "run.sh: $name complete"
}

case "${1:-all}" in
    all)
        kubectl apply -f "$here/pvc.yaml"
        stage map "$PARTITIONS"
        stage reduce "$REDUCERS"
        stage finalize 1;;
    map) stage map "$PARTITIONS" "${2:-}";;
    reduce) stage reduce "$REDUCERS" "${2:-}";;
    finalize) stage finalize 1;;
    *) echo "usage: run.sh [all | map [I] | reduce [J] | finalize]" >&2; exit 64;;
esac
