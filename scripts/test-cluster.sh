#!/bin/bash
# `make test-cluster`: a one-node Slurm cluster on this machine runs the real deploy/slurm job
# files on SampleData, and the merged dataset must equal a single-process run byte for byte.
#
# Starts munged (as the munge user), slurmctld and slurmd (SlurmUser=root) with their state,
# spool, logs and slurm.conf in a temporary directory, submits deploy/slurm/submit.sh, waits for
# the merge job, compares, and stops the daemons by pid. Needs root (slurmd runs jobs as root)
# and the Debian packages in scripts/apt-packages-cluster.txt.
#   scripts/test-cluster.sh BIN [PARTITIONS] [PIPELINE] [INPUT]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(realpath "${1:?usage: test-cluster.sh BIN [PARTITIONS] [PIPELINE] [INPUT]}")"
partitions="${2:-3}"
pipeline="${3:-Pipelines/quickdraw-rnn.yaml}"
input="${4:-SampleData/quickdraw/raw}"
[ "$(id -u)" -eq 0 ] || { echo "test-cluster: needs root (slurmd runs the jobs as SlurmUser=root)" >&2; exit 1; }

tmp="$(mktemp -d /tmp/sketchprep-slurm.XXXXXX)"
host="$(hostname -s)"
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
    if [ "${keep:-0}" = 1 ]; then echo "test-cluster: logs kept in $tmp" >&2; else rm -rf "$tmp"; fi
}
trap stop EXIT
fail() { keep=1; echo "test-cluster: $*" >&2; for log in "$tmp"/log/*; do echo "--- $log" >&2; tail -20 "$log" >&2; done; exit 1; }

# munge: a fresh key and socket in the temp dir, daemon as the munge user.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$tmp/munge"; chmod 700 "$tmp/munge"; chmod 400 "$tmp/munge/munge.key"
chmod 755 "$tmp"
socket="$tmp/munge/munge.socket"
runuser -u munge -- /usr/sbin/munged --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed" --force
for _ in $(seq 50); do [ -s "$tmp/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/munge/munged.pid")")

cat > "$tmp/slurm.conf" <<CONF
ClusterName=sketchprep-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
/usr/sbin/slurmctld -i
for _ in $(seq 100); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.1; done
[ -s "$tmp/slurmctld.pid" ] || fail "slurmctld did not start"
pids+=("$(cat "$tmp/slurmctld.pid")")
/usr/sbin/slurmd
for _ in $(seq 100); do [ -s "$tmp/slurmd.pid" ] && break; sleep 0.1; done
[ -s "$tmp/slurmd.pid" ] || fail "slurmd did not start"
pids+=("$(cat "$tmp/slurmd.pid")")
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
sinfo -h -o %T | grep -q idle || fail "the node never became idle: $(sinfo -h 2>&1)"

# The real job files, submitted from the repository so relative paths resolve as they do here.
cd "$repo"
submitted="$(SKETCHPREP="$bin" PIPELINE="$pipeline" INPUT="$input" WORK="$tmp/work" OUTPUT="$tmp/merged" \
    PARTITIONS="$partitions" deploy/slurm/submit.sh --cpus-per-task=1)"
echo "$submitted"
merge_job="$(echo "$submitted" | awk '/^merge:/ {print $3}')"
for _ in $(seq 600); do
    state="$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')"
    case "$state" in COMPLETED) break;; FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) fail "merge job $merge_job ended $state";; esac
    sleep 0.5
done
[ "$state" = COMPLETED ] || fail "merge job $merge_job did not complete in 300 s (state ${state:-unknown})"
for log in "$repo"/sketchprep-*.out; do [ -e "$log" ] && mv "$log" "$tmp/log/"; done

"$bin" preprocess --pipeline "$pipeline" --input "$input" --output "$tmp/single" --quiet >/dev/null
diff -r -x timings.json "$tmp/single" "$tmp/merged" >/dev/null || fail "merged output differs from the single-process run: $(diff -rq -x timings.json "$tmp/single" "$tmp/merged" | head -5)"
echo "test-cluster: $partitions Slurm array tasks + merge job == single-process run, byte for byte ($(ls "$tmp/merged" | wc -l) files)"
