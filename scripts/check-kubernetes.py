#!/usr/bin/env python3
"""Checks deploy/kubernetes without a cluster.

Static: the files are valid YAML and carry what an Indexed Job on a shared volume needs
(completionMode Indexed, completions = parallelism = n, the partition count in the pods' env,
restartPolicy Never, the same PVC mounted at the same path by both Jobs, run.sh applying the merge
Job only after `kubectl wait --for=condition=complete` on the partition Job).

With --run BIN: runs the Jobs' exact container commands here, one process per completion index
(JOB_COMPLETION_INDEX=0..n-1, `sketchprep` from BIN on PATH, /data mapped to a temporary
directory), then the merge Job's command, and checks the merged dataset equals a single-process
`preprocess` run byte for byte.

    scripts/check-kubernetes.py [--partitions 3] [--run .build/release/sketchprep \
        --pipeline Pipelines/quickdraw-rnn.yaml --input SampleData/quickdraw/raw]
"""
import argparse
import filecmp
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import yaml

DEPLOY = pathlib.Path(__file__).resolve().parents[1] / "deploy" / "kubernetes"
MOUNT = "/data"


class CheckFailed(Exception):
    pass


def require(condition, message):
    if not condition:
        raise CheckFailed(message)


def render(name, partitions, image="sketchprep:check"):
    text = (DEPLOY / name).read_text()
    return yaml.safe_load(text.replace("__IMAGE__", image).replace("__PARTITIONS__", str(partitions)))


def only_container(job, name):
    pod = job["spec"]["template"]["spec"]
    require(pod.get("restartPolicy") in ("Never", "OnFailure"), f"{name}: restartPolicy must be Never or OnFailure")
    containers = pod["containers"]
    require(len(containers) == 1, f"{name}: expected one container")
    return pod, containers[0]


def claim_and_mount(pod, container, name):
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = container.get("volumeMounts", [])
    require(len(mounts) == 1 and mounts[0]["mountPath"] == MOUNT, f"{name}: the shared volume must be mounted at {MOUNT}")
    volume = volumes.get(mounts[0]["name"])
    require(volume is not None and "persistentVolumeClaim" in volume, f"{name}: the mounted volume must be a PVC")
    return volume["persistentVolumeClaim"]["claimName"]


def env_of(container):
    return {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}


def check_static(partitions):
    pvc = yaml.safe_load((DEPLOY / "pvc.yaml").read_text())
    require(pvc["kind"] == "PersistentVolumeClaim", "pvc.yaml: kind must be PersistentVolumeClaim")
    require("ReadWriteMany" in pvc["spec"]["accessModes"], "pvc.yaml: pods on several nodes need ReadWriteMany")

    part = render("partition-job.yaml", partitions)
    require(part["apiVersion"] == "batch/v1" and part["kind"] == "Job", "partition-job.yaml: must be a batch/v1 Job")
    spec = part["spec"]
    require(spec.get("completionMode") == "Indexed", "partition-job.yaml: completionMode must be Indexed")
    require(spec.get("completions") == partitions, "partition-job.yaml: completions must be the partition count")
    require(spec.get("parallelism") == partitions, "partition-job.yaml: parallelism must be the partition count")
    pod, container = only_container(part, "partition-job.yaml")
    require(env_of(container).get("PARTITIONS") == str(partitions), "partition-job.yaml: env PARTITIONS must equal completions")
    script = " ".join(container["args"])
    require("$JOB_COMPLETION_INDEX/$PARTITIONS" in script, "partition-job.yaml: --partition must use JOB_COMPLETION_INDEX")
    claim = claim_and_mount(pod, container, "partition-job.yaml")
    require(claim == pvc["metadata"]["name"], "partition-job.yaml: must mount the PVC of pvc.yaml")

    merge = render("merge-job.yaml", partitions)
    require(merge["kind"] == "Job" and merge["spec"].get("completions", 1) == 1, "merge-job.yaml: must be a single-completion Job")
    mpod, mcontainer = only_container(merge, "merge-job.yaml")
    require(env_of(mcontainer).get("PARTITIONS") == str(partitions), "merge-job.yaml: env PARTITIONS must equal the partition count")
    require(claim_and_mount(mpod, mcontainer, "merge-job.yaml") == claim, "merge-job.yaml: must mount the same PVC")

    run = (DEPLOY / "run.sh").read_text()
    order = [run.find("partition-job.yaml"), run.find("--for=condition=complete job/sketchprep-partition"), run.find("merge-job.yaml")]
    require(-1 not in order and order == sorted(order), "run.sh: must apply the partition Job, wait for condition=complete, then apply the merge Job")
    require(part["metadata"]["name"] == "sketchprep-partition" and merge["metadata"]["name"] == "sketchprep-merge", "run.sh waits on jobs named sketchprep-partition / sketchprep-merge")
    return part, merge


def run_container(container, env_overrides, root, binary, extra_env=None):
    env = dict(os.environ)
    for key, value in env_of(container).items():
        env[key] = value.replace(MOUNT, str(root), 1) if value.startswith(MOUNT) else value
    env.update(extra_env or {})
    env["PATH"] = f"{pathlib.Path(binary).resolve().parent}{os.pathsep}{env['PATH']}"
    env.update(env_overrides)
    subprocess.run(container["command"] + container["args"], env=env, check=True)


def check_run(part, merge, partitions, binary, pipeline, source):
    with tempfile.TemporaryDirectory(prefix="sketchprep-k8s-") as tmp:
        root = pathlib.Path(tmp)
        shutil.copyfile(pipeline, root / "pipeline.yaml")
        source = pathlib.Path(source)
        if source.is_dir():
            shutil.copytree(source, root / "input")
        else:
            (root / "input").mkdir()
            shutil.copy(source, root / "input")
        (root / "work").mkdir()
        _, container = only_container(part, "partition-job.yaml")
        for index in range(partitions):
            run_container(container, {"JOB_COMPLETION_INDEX": str(index)}, root, binary)
        _, mcontainer = only_container(merge, "merge-job.yaml")
        run_container(mcontainer, {}, root, binary)

        single = root / "single"
        subprocess.run([binary, "preprocess", "--pipeline", str(root / "pipeline.yaml"), "--input", str(root / "input"),
                        "--output", str(single), "--quiet"], check=True)
        merged = root / "dataset"
        # timings.json holds wall-clock seconds: not reproducible, not compared.
        listing = lambda d: sorted(p.name for p in d.iterdir() if p.name != "timings.json")  # noqa: E731
        names = listing(single)
        require(names == listing(merged), f"merged files differ: {names} vs {listing(merged)}")
        _, mismatch, errors = filecmp.cmpfiles(single, merged, names, shallow=False)
        require(not mismatch and not errors, f"merged output differs from the single run in: {mismatch + errors}")
        print(f"check-kubernetes: {partitions} indexed pods + merge == single run ({len(names)} files, byte for byte)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--run", metavar="BIN", help="sketchprep binary: run the Jobs' commands locally")
    parser.add_argument("--pipeline", default="Pipelines/quickdraw-rnn.yaml")
    parser.add_argument("--input", default="SampleData/quickdraw/raw")
    args = parser.parse_args()
    try:
        part, merge = check_static(args.partitions)
        print(f"check-kubernetes: deploy/kubernetes is a valid Indexed Job + merge Job for n={args.partitions}")
        if args.run:
            check_run(part, merge, args.partitions, args.run, args.pipeline, args.input)
    except CheckFailed as failure:
        print(f"check-kubernetes: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
