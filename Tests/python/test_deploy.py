"""The scheduler files in deploy/ are well-formed: shell syntax, the Slurm map → reduce → finalize
chain, the Kubernetes checks of deploy/kubernetes/test/check-jobs.py. (Running them is `make test-cluster`,
`make test-cluster-nodes` and `make test-kubernetes`.)"""
import subprocess
import sys

from conftest import REPO

SLURM = REPO / "deploy" / "slurm"


def test_deploy_shell_scripts_parse():
    scripts = [*SLURM.glob("*.sbatch"), SLURM / "submit.sh", REPO / "deploy/kubernetes/run.sh", REPO / "deploy/slurm/test/run-local-cluster.sh"]
    for script in scripts:
        subprocess.run(["bash", "-n", str(script)], check=True)


def test_map_and_reduce_array_tasks_use_the_zero_based_array_index():
    map_job = (SLURM / "map.sbatch").read_text()
    assert '--partition "$SLURM_ARRAY_TASK_ID/$PARTITIONS"' in map_job
    assert '--output "$WORK/part-$SLURM_ARRAY_TASK_ID"' in map_job
    assert '--reduce "$SLURM_ARRAY_TASK_ID/$REDUCERS"' in (SLURM / "reduce.sbatch").read_text()
    assert "--finalize" in (SLURM / "finalize.sbatch").read_text()
    for job in SLURM.glob("*.sbatch"):
        assert "#SBATCH --job-name=sketchprep-" + job.stem in job.read_text()


def test_reduce_waits_for_every_map_task_and_finalize_for_every_reduce_task():
    text = (SLURM / "submit.sh").read_text()
    assert 'map_job=$(submit --array="0-$((PARTITIONS - 1))"' in text
    assert 'reduce_job=$(submit --array="0-$((REDUCERS - 1))" --dependency="afterok:$map_job"' in text
    assert 'finalize_job=$(submit --dependency="afterok:$reduce_job"' in text


def test_kubernetes_files_form_indexed_map_and_reduce_jobs_and_a_finalize_job():
    for n, r in ((1, 1), (3, 2), (7, 4)):
        result = subprocess.run([sys.executable, str(REPO / "deploy/kubernetes/test/check-jobs.py"), "--partitions", str(n), "--reducers", str(r)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
