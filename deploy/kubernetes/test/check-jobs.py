#!/usr/bin/env python3
"""Checks deploy/kubernetes without a cluster.

Static: the files are valid YAML and carry what map → reduce → finalize on a shared volume needs
(the map and reduce Jobs Indexed with completions = parallelism = n and R, failed indexes retried
alone, the counts in the pods' env, a one-task rendering for re-running task i alone, a
single-completion finalize Job, restartPolicy Never, the same PVC mounted at the same path by every
Job, run.sh applying each stage only after the one before reports condition Complete).

With --run BIN: runs deploy/kubernetes/run.sh here with a stand-in `kubectl` on PATH (this script,
`fake-kubectl`) that runs each applied Job's exact container command once per completion index
(JOB_COMPLETION_INDEX=0..completions-1, `sketchprep` from BIN on PATH, /data mapped to a temporary
directory) and reports Complete or Failed with the failed indexes. Map task 1 is made to fail (its
output path is a file), so run.sh stops; the recovery lines of docs/cluster.md re-run it alone
(`run.sh map 1`); then reduce pod 1 fails (the stand-in fails it, FAKE_KUBE_FAIL=reduce:1) and is
re-run alone (`run.sh reduce 1`); `run.sh finalize` ends it, and the dataset must equal a
single-process `preprocess` run byte for byte.

    deploy/kubernetes/test/check-jobs.py [--partitions 3 --reducers 2] [--run .build/release/sketchprep \
        --pipeline Pipelines/quickdraw-rnn.yaml --input SampleData/quickdraw/raw]
"""
import argparse
import filecmp
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import yaml

DEPLOY = pathlib.Path(__file__).resolve().parents[1]
MOUNT = "/data"
STAGES = ("map", "reduce", "finalize")


class CheckFailed(Exception):
    pass


def require(condition, message):
    if not condition:
        raise CheckFailed(message)


def render_text(text, partitions, reducers, completions, index="", image="sketchprep:check"):
    """The substitutions of run.sh's stage()."""
    for key, value in (("IMAGE", image), ("PARTITIONS", partitions), ("REDUCERS", reducers),
                       ("COMPLETIONS", completions), ("TASK_INDEX", index)):
        text = text.replace(f"__{key}__", str(value))
    return text


def render(stage, partitions, reducers, completions, index=""):
    return yaml.safe_load(render_text((DEPLOY / f"{stage}-job.yaml").read_text(), partitions, reducers, completions, index))


def only_container(job, name):
    pod = job["spec"]["template"]["spec"]
    require(pod.get("restartPolicy") == "Never", f"{name}: restartPolicy must be Never (a failed pod is retried as a new pod)")
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


def check_indexed(stage, partitions, reducers, tasks, claim):
    """The map or reduce Job: Indexed over `tasks`, and its one-task rendering for a re-run of task 1."""
    name = f"{stage}-job.yaml"
    job = render(stage, partitions, reducers, tasks)
    require(job["apiVersion"] == "batch/v1" and job["kind"] == "Job", f"{name}: must be a batch/v1 Job")
    require(job["metadata"]["name"] == f"sketchprep-{stage}", f"{name}: run.sh waits on job/sketchprep-{stage}")
    spec = job["spec"]
    require(spec.get("completionMode") == "Indexed", f"{name}: completionMode must be Indexed")
    require(spec.get("completions") == tasks and spec.get("parallelism") == tasks, f"{name}: completions and parallelism must be {tasks}")
    require(spec.get("backoffLimitPerIndex", 0) >= 1, f"{name}: a failed index must be retried alone (backoffLimitPerIndex)")
    pod, container = only_container(job, name)
    env = env_of(container)
    require(env.get("PARTITIONS") == str(partitions), f"{name}: env PARTITIONS must be n")
    require(env.get("TASK_INDEX") == "", f"{name}: env TASK_INDEX must be empty in the full run")
    require('"${TASK_INDEX:-$JOB_COMPLETION_INDEX}"' in " ".join(container["args"]),
            f"{name}: the task index must be TASK_INDEX, else JOB_COMPLETION_INDEX")
    require(claim_and_mount(pod, container, name) == claim, f"{name}: must mount the PVC of pvc.yaml")
    retry = render(stage, partitions, reducers, 1, 1)
    require(retry["spec"]["completions"] == 1 and env_of(only_container(retry, name)[1]).get("TASK_INDEX") == "1",
            f"{name}: the re-run of task 1 alone must have one completion and TASK_INDEX=1")
    return job


def check_static(partitions, reducers):
    pvc = yaml.safe_load((DEPLOY / "pvc.yaml").read_text())
    require(pvc["kind"] == "PersistentVolumeClaim", "pvc.yaml: kind must be PersistentVolumeClaim")
    require("ReadWriteMany" in pvc["spec"]["accessModes"], "pvc.yaml: pods on several nodes need ReadWriteMany")
    claim = pvc["metadata"]["name"]

    check_indexed("map", partitions, reducers, partitions, claim)
    reduce = check_indexed("reduce", partitions, reducers, reducers, claim)
    reduce_container = only_container(reduce, "reduce-job.yaml")[1]
    require(env_of(reduce_container).get("REDUCERS") == str(reducers), "reduce-job.yaml: env REDUCERS must be R")
    require("--reduce" in " ".join(reduce_container["args"]), "reduce-job.yaml: must run merge --reduce")

    finalize = render("finalize", partitions, reducers, 1)
    require(finalize["kind"] == "Job" and finalize["spec"].get("completions", 1) == 1, "finalize-job.yaml: must be a single-completion Job")
    require(finalize["metadata"]["name"] == "sketchprep-finalize", "finalize-job.yaml: run.sh waits on job/sketchprep-finalize")
    fpod, fcontainer = only_container(finalize, "finalize-job.yaml")
    require(env_of(fcontainer).get("PARTITIONS") == str(partitions), "finalize-job.yaml: env PARTITIONS must be n")
    require("--finalize" in " ".join(fcontainer["args"]), "finalize-job.yaml: must run merge --finalize")
    require(claim_and_mount(fpod, fcontainer, "finalize-job.yaml") == claim, "finalize-job.yaml: must mount the same PVC")

    run = (DEPLOY / "run.sh").read_text()
    order = [run.find('stage map "$PARTITIONS"'), run.find('stage reduce "$REDUCERS"'), run.find("stage finalize 1")]
    require(-1 not in order and order == sorted(order), "run.sh: must run the stages map, reduce, finalize in this order")
    require('*" Complete "*' in run and 'kubectl delete "$job"' in run,
            "run.sh: stage() must replace the Job and wait for condition Complete")


def fake_kubectl(argv):
    """A stand-in for the kubectl calls run.sh makes; Jobs run here, synchronously. State and the
    volume are under $FAKE_KUBE_ROOT."""
    root = pathlib.Path(os.environ["FAKE_KUBE_ROOT"])
    state = root / ".kube"
    state.mkdir(exist_ok=True)
    verb, rest = argv[0], argv[1:]
    if verb == "apply":
        text = sys.stdin.read() if rest[-1] == "-" else pathlib.Path(rest[-1]).read_text()
        obj = yaml.safe_load(text)
        if obj["kind"] == "Job":
            failed = run_job(obj, root)
            status = {"conditions": [{"type": "Failed" if failed else "Complete", "status": "True"}],
                      "failedIndexes": ",".join(map(str, failed))}
            (state / f"{obj['metadata']['name']}.json").write_text(json.dumps(status))
        print(f"{obj['kind'].lower()}/{obj['metadata']['name']} configured")
    elif verb == "delete":
        (state / f"{rest[0].split('/')[-1]}.json").unlink(missing_ok=True)
    elif verb == "get":
        status = json.loads((state / f"{rest[0].split('/')[-1]}.json").read_text())
        jsonpath = rest[rest.index("-o") + 1]
        print(status["failedIndexes"] if "failedIndexes" in jsonpath else " ".join(c["type"] for c in status["conditions"]), end="")
    else:
        sys.exit(f"fake-kubectl: run.sh called an unexpected verb {verb!r}")


def run_job(job, root):
    """Runs the container command once per completion index; returns the failed indexes."""
    container = job["spec"]["template"]["spec"]["containers"][0]
    env = dict(os.environ)
    for key, value in env_of(container).items():
        env[key] = value.replace(MOUNT, str(root), 1) if value.startswith(MOUNT) else value
    env["PATH"] = f"{os.environ['FAKE_KUBE_BIN']}{os.pathsep}{env['PATH']}"
    indexes = range(job["spec"]["completions"]) if job["spec"].get("completionMode") == "Indexed" else [None]
    stage = job["metadata"]["name"].removeprefix("sketchprep-")
    failed = []
    for index in indexes:
        if index is not None:
            env["JOB_COMPLETION_INDEX"] = str(index)
        if os.environ.get("FAKE_KUBE_FAIL") == f"{stage}:{index}":
            failed.append(index)  # the pod is lost before it runs
        elif subprocess.run(container["command"] + container["args"], env=env).returncode != 0:
            failed.append(index)
    return failed


def same_dataset(single, dataset):
    # timings.json holds wall-clock seconds: both runs write one, its bytes are not compared.
    listing = lambda d: sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())  # noqa: E731
    names = listing(single)
    require(names == listing(dataset), f"the files differ: {names} vs {listing(dataset)}")
    compared = [n for n in names if n != "timings.json"]
    _, mismatch, errors = filecmp.cmpfiles(single, dataset, compared, shallow=False)
    require(not mismatch and not errors, f"the dataset differs from the single run in: {mismatch + errors}")
    return len(names)


def check_run(partitions, reducers, binary, pipeline, source):
    require(partitions >= 2, "--run needs at least 2 map tasks (task 1 is made to fail)")
    binary = pathlib.Path(binary).resolve()
    with tempfile.TemporaryDirectory(prefix="sketchprep-k8s-") as tmp:
        root = pathlib.Path(tmp) / "volume"
        root.mkdir()
        shutil.copyfile(pipeline, root / "pipeline.yaml")
        source = pathlib.Path(source)
        if source.is_dir():
            shutil.copytree(source, root / "input")
        else:
            (root / "input").mkdir()
            shutil.copy(source, root / "input")
        (root / "work").mkdir()
        tools = pathlib.Path(tmp) / "bin"
        tools.mkdir()
        (tools / "kubectl").write_text(f'#!/bin/sh\nexec "{sys.executable}" "{pathlib.Path(__file__).resolve()}" fake-kubectl "$@"\n')
        (tools / "kubectl").chmod(0o755)
        env = dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ['PATH']}", FAKE_KUBE_ROOT=str(root), FAKE_KUBE_BIN=str(binary.parent),
                   IMAGE="sketchprep:check", PARTITIONS=str(partitions), REDUCERS=str(reducers))
        def run_sh(*args, fail=None, fails_at=None):
            """Runs run.sh ARGS; it must succeed, or with fails_at stop at that stage naming index 1."""
            result = subprocess.run([str(DEPLOY / "run.sh"), *args], env=env | ({"FAKE_KUBE_FAIL": fail} if fail else {}),
                                    capture_output=True, text=True)
            if fails_at:
                require(result.returncode != 0 and f"{fails_at} failed; indexes: 1" in result.stderr,
                        f"run.sh must stop at the {fails_at} stage naming index 1: rc {result.returncode}, {result.stderr[-500:]}")
            else:
                require(result.returncode == 0, f"run.sh {' '.join(args)} failed: {result.stderr[-2000:]}")

        (root / "work" / "part-1").touch()  # map task 1 cannot write its output
        run_sh(fails_at="map")
        (root / "work" / "part-1").unlink()
        run_sh("map", "1")
        run_sh("reduce", fail="reduce:1", fails_at="reduce")
        run_sh("reduce", "1")
        run_sh("finalize")

        single = pathlib.Path(tmp) / "single"
        subprocess.run([binary, "preprocess", "--pipeline", str(root / "pipeline.yaml"), "--input", str(root / "input"),
                        "--output", str(single), "--quiet"], check=True, stdout=subprocess.DEVNULL)
        files = same_dataset(single, root / "dataset")
        print(f"check-jobs: run.sh with {partitions} map pods → {reducers} reduce pods → finalize, map pod 1 and reduce pod 1 "
              f"failed and re-ran alone, == single run ({files} files, byte for byte)")


def main():
    if sys.argv[1:2] == ["fake-kubectl"]:
        return fake_kubectl(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--reducers", type=int, default=2)
    parser.add_argument("--run", metavar="BIN", help="sketchprep binary: run deploy/kubernetes/run.sh here with a stand-in kubectl")
    parser.add_argument("--pipeline", default="Pipelines/quickdraw-rnn.yaml")
    parser.add_argument("--input", default="SampleData/quickdraw/raw")
    args = parser.parse_args()
    try:
        check_static(args.partitions, args.reducers)
        print(f"check-jobs: deploy/kubernetes is a valid map → reduce → finalize for n={args.partitions}, R={args.reducers}")
        if args.run:
            check_run(args.partitions, args.reducers, args.run, args.pipeline, args.input)
    except CheckFailed as failure:
        print(f"check-jobs: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
