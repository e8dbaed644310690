"""The scheduler files in deploy/ are well-formed: shell syntax, Slurm directives, the Kubernetes
Indexed Job checks of scripts/check-kubernetes.py. (Running them is `make test-cluster` and
`make test-kubernetes`.)"""
import pathlib
import subprocess
import sys

from conftest import REPO

SLURM = REPO / "deploy" / "slurm"


def test_deploy_shell_scripts_parse():
    scripts = [*SLURM.glob("*.sbatch"), SLURM / "submit.sh", REPO / "deploy/kubernetes/run.sh", REPO / "scripts/test-cluster.sh"]
    for script in scripts:
        subprocess.run(["bash", "-n", str(script)], check=True)


def test_partition_array_task_uses_the_zero_based_array_index():
    text = (SLURM / "partition.sbatch").read_text()
    assert '--partition "$SLURM_ARRAY_TASK_ID/$PARTITIONS"' in text
    assert "#SBATCH --job-name=" in text


def test_merge_job_waits_for_every_partition():
    text = (SLURM / "submit.sh").read_text()
    assert '--array="0-$((PARTITIONS - 1))"' in text
    assert '--dependency="afterok:$array_job"' in text


def test_kubernetes_files_form_an_indexed_job_and_a_merge_job():
    for n in (1, 3, 7):
        result = subprocess.run([sys.executable, str(REPO / "scripts/check-kubernetes.py"), "--partitions", str(n)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
