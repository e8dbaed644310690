#!/bin/bash
# `make test-cluster` and `make test-cluster-nodes`: a Slurm cluster on this machine runs the real
# deploy/slurm job files (map array → reduce array → finalize) on SampleData, and the dataset must
# equal a single-process run byte for byte.
#
#   deploy/slurm/test/run-local-cluster.sh [--nodes N] [--fail-map I] [--fail-reduce J] BIN PARTITIONS REDUCERS [PIPELINE] [INPUT]
#
# Starts munged (as the munge user), slurmctld and N slurmd (SlurmUser=root) with their state,
# spool, logs and slurm.conf in a temporary directory, submits deploy/slurm/submit.sh, waits for
# the finalize job, compares, and stops every daemon it started by pid (a trap, also on failure).
# N = 1: one slurmd in this machine's namespaces. N > 1: each slurmd runs in its own network
# namespace (a veth pair to a bridge on a private /24) and UTS namespace (its own host name
# nodeK), and the test asserts from `scontrol show job` and from the tasks' logs that tasks ran on
# at least 2 nodes; the namespaces, veths and bridge are removed on exit. The file system is this
# machine's, so it is the cluster's shared file system and munge's socket is reachable from every
# namespace.
# --fail-map I: map task I is made to fail (its output path is a file), then re-run alone with the
# recovery lines of docs/cluster.md (sbatch --array=I map.sbatch; scontrol update of the reduce
# job's dependency), and the run must still equal the single-process one. --fail-reduce J: reduce
# task J fails once (SKETCHPREP is then a wrapper that exits 1 the first time it runs as array task
# J of a merge) and is re-run alone the same way (reduce.sbatch; the finalize job's dependency).
# Needs root (namespaces; slurmd runs jobs as root) and scripts/apt-packages-cluster.txt.
set -euo pipefail
nodes=1
fail_map=""
fail_reduce=""
while [ $# -gt 0 ]; do
    case "$1" in
        --nodes) nodes="$2"; shift 2;;
        --fail-map) fail_map="$2"; shift 2;;
        --fail-reduce) fail_reduce="$2"; shift 2;;
        *) break;;
    esac
done
usage="usage: run-local-cluster.sh [--nodes N] [--fail-map I] [--fail-reduce J] BIN PARTITIONS REDUCERS [PIPELINE] [INPUT]"
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="$(realpath "${1:?$usage}")"
partitions="${2:?$usage}"
reducers="${3:?$usage}"
pipeline="${4:-Pipelines/quickdraw-rnn.yaml}"
input="${5:-SampleData/quickdraw/raw}"
[ "$(id -u)" -eq 0 ] || { echo "test-cluster: needs root (namespaces; slurmd runs the jobs as SlurmUser=root)" >&2; exit 1; }
started=$SECONDS

tmp="$(mktemp -d /tmp/sketchprep-slurm.XXXXXX)"
tag="sp$$"                     # names of this run's namespaces and links (≤ 15 characters)
subnet="10.213.17"             # private /24 of the bridge; the controller is .1, nodeK is .(10+K)
bridge="${tag}br"
pids=()
namespaces=()
stop() {
    if [ -n "${SLURM_CONF:-}" ] && [ -e "$tmp/slurmctld.pid" ]; then scancel --quiet --user=root 2>/dev/null || true; fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
    for k in "${!namespaces[@]}"; do
        ip link delete "$tag-v$((k + 1))" 2>/dev/null || true
        ip netns delete "${namespaces[$k]}" 2>/dev/null || true
    done
    ip link delete "$bridge" 2>/dev/null || true
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

# Nodes: the machine itself, or nodeK in namespace $tag-nodeK behind veth $tag-vK on the bridge.
host="$(hostname -s)"
if [ "$nodes" -eq 1 ]; then
    controller="$host"
    node_lines="NodeName=$host CPUs=$(nproc) State=UNKNOWN"
    node_names="$host"
else
    ! ip route show | grep -q "^$subnet\." || fail "$subnet.0/24 is already in use on this machine"
    ip link add "$bridge" type bridge
    ip addr add "$subnet.1/24" dev "$bridge"
    ip link set "$bridge" up
    controller="$host($subnet.1)"
    node_lines=""
    for k in $(seq "$nodes"); do
        ns="$tag-node$k"
        ip netns add "$ns"
        namespaces+=("$ns")
        mkdir -p "$tmp/spool/node$k"
        ip link add "$tag-v$k" type veth peer name eth0 netns "$ns"
        ip link set "$tag-v$k" master "$bridge" up
        ip -n "$ns" addr add "$subnet.$((10 + k))/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        # One CPU per node: the scheduler places concurrent tasks on different nodes.
        node_lines+="NodeName=node$k NodeHostname=node$k NodeAddr=$subnet.$((10 + k)) CPUs=1 State=UNKNOWN"$'\n'
    done
    node_names="node[1-$nodes]"
fi

cat > "$tmp/slurm.conf" <<CONF
ClusterName=sketchprep-test
SlurmctldHost=$controller
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
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/spool/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
SlurmctldPort=16817
SlurmdPort=16818
$node_lines
PartitionName=test Nodes=$node_names Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
/usr/sbin/slurmctld -D -i >"$tmp/log/slurmctld.out" 2>&1 &
pids+=("$!")
if [ "$nodes" -eq 1 ]; then
    mkdir -p "$tmp/spool/$host"
    /usr/sbin/slurmd -D >"$tmp/log/slurmd.out" 2>&1 &
    pids+=("$!")
else
    for k in $(seq "$nodes"); do
        # nsenter, unshare and sh exec in turn, so $! is slurmd's own pid. (Not `ip netns exec`:
        # it remounts /sys, which hides /sys/fs/cgroup from slurmd.)
        nsenter --net="/run/netns/$tag-node$k" unshare --uts sh -c "hostname node$k && exec /usr/sbin/slurmd -D -N node$k" \
            >"$tmp/log/slurmd-node$k.out" 2>&1 &
        pids+=("$!")
    done
fi
idle=0
for _ in $(seq 150); do
    idle="$(sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)"
    [ "$idle" -eq "$nodes" ] && break
    sleep 0.2
done
[ "$idle" -eq "$nodes" ] || fail "$idle of $nodes nodes became idle: $(sinfo -h -N 2>&1)"

# The states of a job's tasks, e.g. "COMPLETED" or "COMPLETED FAILED".
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | paste -sd' '; }

# The real job files, submitted from the repository so relative paths resolve as they do here.
cd "$repo"
export SKETCHPREP="$bin" PIPELINE="$pipeline" INPUT="$input" WORK="$tmp/work" OUTPUT="$tmp/dataset"
export PARTITIONS="$partitions" REDUCERS="$reducers"
sbatch_options=(--cpus-per-task=1 "--output=$tmp/log/%x-%j.out")
[ -z "$fail_map" ] || touch "$WORK/part-$fail_map"
if [ -n "$fail_reduce" ]; then
    touch "$tmp/fail-reduce"
    SKETCHPREP="$tmp/flaky-sketchprep"
    cat > "$SKETCHPREP" <<WRAPPER
#!/bin/sh
if [ "\$1" = merge ] && [ "\${SLURM_ARRAY_TASK_ID:-}" = "$fail_reduce" ] && rm "$tmp/fail-reduce" 2>/dev/null; then
    echo "test-cluster: reduce task $fail_reduce made to fail" >&2; exit 1
fi
exec "$bin" "\$@"
WRAPPER
    chmod +x "$SKETCHPREP"
fi
submitted="$(deploy/slurm/submit.sh "${sbatch_options[@]}")"
echo "$submitted"
job_of() { echo "$submitted" | awk -v stage="$1:" '$1 == stage {print $3}'; }
map_job="$(job_of map)"; reduce_job="$(job_of reduce)"; finalize_job="$(job_of finalize)"
expected_failures=""

# recover FILE TASK HELD [REPAIR…]: task TASK of the array job FILE failed, so job HELD never
# becomes eligible; once it is held, run REPAIR, re-run the task alone and point HELD at the
# re-run (docs/cluster.md, "Recovery"). Sets rerun to the re-run's job id.
recover() {
    local file="$1" task="$2" held="$3" reason=""
    shift 3
    for _ in $(seq 300); do
        reason="$(squeue -h -j "$held" -o %r 2>/dev/null | sort -u)"
        [ "$reason" = DependencyNeverSatisfied ] && break
        sleep 0.2
    done
    [ "$reason" = DependencyNeverSatisfied ] || fail "job $held is not held after task $task of $file failed: '$reason'"
    echo "test-cluster: task $task of $file failed; re-running it alone"
    "$@"
    rerun="$(sbatch --parsable --export=ALL "${sbatch_options[@]}" --array="$task" "deploy/slurm/$file")"
    rerun="${rerun%%;*}"
    scontrol update JobId="$held" Dependency="afterok:$rerun"
}
if [ -n "$fail_map" ]; then
    recover map.sbatch "$fail_map" "$reduce_job" rm "$WORK/part-$fail_map"
    expected_failures+=" $map_job"
    map_job="$map_job $rerun"
fi
if [ -n "$fail_reduce" ]; then
    recover reduce.sbatch "$fail_reduce" "$finalize_job"
    expected_failures+=" $reduce_job"
    reduce_job="$reduce_job $rerun"
fi

state=""
for _ in $(seq 600); do
    state="$(job_state "$finalize_job")"
    case "$state" in
        COMPLETED) break;;
        *FAILED*|*CANCELLED*|*TIMEOUT*|*NODE_FAIL*|*OUT_OF_MEMORY*) fail "finalize job $finalize_job ended $state";;
    esac
    for job in $map_job $reduce_job; do
        [[ " $expected_failures " == *" $job "* ]] && continue
        case "$(job_state "$job")" in *FAILED*|*CANCELLED*|*TIMEOUT*) fail "job $job ended $(job_state "$job")";; esac
    done
    sleep 0.2
done
[ "$state" = COMPLETED ] || fail "finalize job $finalize_job did not complete in 120 s (state ${state:-unknown})"

if [ "$nodes" -gt 1 ]; then
    # Where the tasks ran: Slurm's record (NodeList of every task) and each task's own host name.
    tally() { sort | uniq -c | awk '{print $2 "×" $1}' | paste -sd' '; }   # node names → "node1×4 node2×3"
    scheduled="$(for job in $map_job $reduce_job $finalize_job; do scontrol show job "$job"; done |
        sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p' | tally)"
    logged="$(cat "$tmp"/log/sketchprep-*.out | sed -n 's/^sketchprep .* on \([^ ]*\)$/\1/p' | tally)"
    echo "test-cluster: tasks per node from scontrol show job: $scheduled"
    echo "test-cluster: tasks per node from the tasks' host names: $logged"
    [ "$scheduled" = "$logged" ] || fail "scontrol's NodeList ($scheduled) and the tasks' host names ($logged) disagree"
    [ "$(echo "$scheduled" | wc -w)" -ge 2 ] || fail "every task ran on one node: $scheduled"
fi

"$bin" preprocess --pipeline "$pipeline" --input "$input" --output "$tmp/single" --quiet >/dev/null
# timings.json holds wall-clock seconds: both runs must write one, its bytes are not compared.
files() { (cd "$1" && find . -type f | sort); }
[ "$(files "$tmp/single")" = "$(files "$tmp/dataset")" ] ||
    fail "the files differ: $(diff <(files "$tmp/single") <(files "$tmp/dataset") | head -5)"
diff -r -x timings.json "$tmp/single" "$tmp/dataset" >/dev/null ||
    fail "the dataset differs from the single-process run: $(diff -rq -x timings.json "$tmp/single" "$tmp/dataset" | head -5)"
recovered="${fail_map:+, map task $fail_map}${fail_reduce:+, reduce task $fail_reduce}"
recovered="${recovered:+$recovered failed and re-ran alone}"
echo "test-cluster: $nodes node(s), $partitions map tasks → $reducers reduce tasks → finalize$recovered" \
    "== single-process run, byte for byte ($(files "$tmp/dataset" | wc -l) files) in $((SECONDS - started)) s"
