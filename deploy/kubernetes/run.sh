#!/bin/bash
# Runs a partitioned preprocess on Kubernetes: the PVC, the Indexed Job of n partitions, a wait
# for condition=complete, then the merge Job.
#
#   IMAGE=registry.example.com/sketchprep:1.0 PARTITIONS=64 deploy/kubernetes/run.sh
#
# Before: copy the pipeline file to /data/pipeline.yaml and the raw NDJSON to /data/input/ on
# the volume. After: the dataset is in /data/dataset/. If a partition pod keeps failing, the wait
# times out (TIMEOUT, default 24h) and the merge Job is not applied.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${IMAGE:?image with sketchprep on PATH}" "${PARTITIONS:?number of partitions n}"
case "$PARTITIONS" in ''|*[!0-9]*|0) echo "run.sh: PARTITIONS must be a positive integer, got '$PARTITIONS'" >&2; exit 64;; esac
render() { sed -e "s|__IMAGE__|$IMAGE|g" -e "s|__PARTITIONS__|$PARTITIONS|g" "$here/$1"; }

kubectl apply -f "$here/pvc.yaml"
kubectl delete job sketchprep-partition sketchprep-merge --ignore-not-found
render partition-job.yaml | kubectl apply -f -
kubectl wait --for=condition=complete job/sketchprep-partition --timeout="${TIMEOUT:-24h}"
render merge-job.yaml | kubectl apply -f -
kubectl wait --for=condition=complete job/sketchprep-merge --timeout="${TIMEOUT:-24h}"
