#!/usr/bin/env python3
"""`make bench-scale`: every shipped pipeline at full-dataset shape, map and reduce measured apart;
writes the figures and the 50 M model's inputs into docs/scale.md.

1. Builds the Quick, Draw! inputs with Benchmarks/Scripts/make_scale_input.py (real raw drawings of all
   categories, repeated with fresh key_ids, 16 files, every fourth gzip) unless already there:
   --bytes for most pipelines, a share of it for the slow raster256 (PIPELINES below). The
   TU-Berlin pipeline reads the PNG set (--tuberlin) as it is (150×150 thumbnails), and again at
   the release's 1111×1111 (`tuberlin-1111`: the same PNGs scaled up bilinearly by Pillow, built
   once), where decoding a sketch costs what it costs on the published dataset.
2. Per pipeline, under /usr/bin/time (wall, CPU, peak RSS):
   a. `preprocess --jobs 1` and `--jobs 2` (one process: map, then its parallel reduce), with the
      map and reduce sides' CPU seconds from timings.json (stages `map` and `reduce`);
   b. the scheduler shape: n map processes (`--partition i/n --jobs 1`) at once, then one reducer
      alone (`merge --reduce 0/1`: the single-reducer write rate), then R reducers at once
      (`merge --reduce j/R`), then `merge --finalize`;
   the dataset of (b) and of --jobs 2 must equal --jobs 1's byte for byte (timings.json aside);
   c. for rnn, resume: a run SIGKILLed at 80 % of its map, then rerun (wall time against a clean run).
3. Measures this machine's disk write rate (dd, 512 MiB, conv=fdatasync), the one-box I/O bound.
4. Replaces the generated section of docs/scale.md (between the bench-scale markers) with the
   figures, the commands, and the model's inputs and times for 50 M drawings (formulas in the
   static text of docs/scale.md).

    Benchmarks/Scripts/bench_scale.py --sketchprep .build/release/sketchprep --raw ../shared/data/quickdraw/raw \
        --tuberlin ../shared/data/tuberlin --bytes 4e9 --work out/scale [--doc docs/scale.md] [--pipelines rnn,bitmap28]
"""
import argparse
import filecmp
import json
import os
import pathlib
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
# name: (pipeline file, input: "quickdraw" or "tuberlin", share of --bytes for the Quick, Draw! input)
PIPELINES = {
    "rnn": ("Pipelines/quickdraw-rnn.yaml", "quickdraw", 1),
    "rnn-tfrecord": ("Pipelines/quickdraw-rnn-tfrecord.yaml", "quickdraw", 1),
    "tutorial-tfrecord": ("Pipelines/quickdraw-tutorial-tfrecord.yaml", "quickdraw", 1),
    "sketchrnn": ("Pipelines/quickdraw-sketchrnn.yaml", "quickdraw", 1),
    "bitmap28": ("Pipelines/quickdraw-bitmap28.yaml", "quickdraw", 1),
    # 256×256 PNGs cost about 3 ms a drawing: 1/64 of the bytes keeps the run to minutes.
    "raster256": ("Pipelines/quickdraw-raster256.yaml", "quickdraw", 1 / 64),
    "tuberlin": ("Pipelines/tuberlin-cnn.yaml", "tuberlin", None),
    "tuberlin-1111": ("Pipelines/tuberlin-cnn.yaml", "tuberlin-1111", None),
}
# The TU-Berlin release's PNG size (docs/domain.md: 250 classes × 80 sketches, PNG 1111×1111).
TUBERLIN_RELEASE_SIZE = 1111
# Pipelines whose resume after a kill is measured (issue 28).
RESUME_PIPELINES = ("rnn",)
BEGIN, END = "<!-- bench-scale:begin -->", "<!-- bench-scale:end -->"
FULL = 50_000_000
# The model's I/O assumptions for a cluster (not measured here): the shared file system's aggregate
# bandwidth and one node's network link.
SHARED_FS_BYTES_PER_S = 10e9
NODE_LINK_BYTES_PER_S = 1.25e9
BOX_CORES = (2, 16, 64)
CLUSTER_NODES, CORES_PER_NODE = (8, 32, 128), 16


def start_timed(argv, label, work):
    """Starts argv under /usr/bin/time; `finish` collects its figures."""
    stats = work / f".time-{label}"
    command = ["/usr/bin/time", "-o", str(stats), "-f", "%e %U %S %M", *map(str, argv)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL), stats


def finish(started):
    process, stats = started
    if process.wait() != 0:
        sys.exit(f"bench-scale: failed: {shlex.join(process.args[5:])}")
    _, user, system, rss_kb = stats.read_text().split()[-4:]
    stats.unlink()
    return {"cpu_s": float(user) + float(system), "peak_rss_mb": int(rss_kb) / 1024}


def timed_group(argvs, label, work):
    """Runs argvs at once; wall of the group, CPU summed, the largest peak RSS."""
    start = time.monotonic()
    figures = [finish(p) for p in [start_timed(a, f"{label}-{i}", work) for i, a in enumerate(argvs)]]
    return {"wall_s": time.monotonic() - start, "cpu_s": sum(f["cpu_s"] for f in figures),
            "peak_rss_mb": max(f["peak_rss_mb"] for f in figures), "processes": len(argvs),
            "commands": [shlex.join(map(str, a)) for a in argvs]}


def tree_bytes(path, skip=()):
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and p.name not in skip)


def same_dataset(a, b):
    """Every file but timings.json (wall-clock figures) equal, and the same file names."""
    listing = lambda d: sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())  # noqa: E731
    names = listing(a)
    if names != listing(b):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, [n for n in names if n != "timings.json"], shallow=False)
    return not mismatch and not errors


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    return path


def preprocess(binary, pipeline, inputs, output, jobs, extra=()):
    return [binary, "preprocess", "--pipeline", pipeline, *sum((["--input", str(i)] for i in inputs), []),
            "--output", output, "--jobs", str(jobs), "--quiet", "--force", *extra]


def merge(binary, parts, output, *flags):
    return [binary, "merge", *parts, "-o", output, "--quiet", *flags]


def run_pipeline(binary, name, pipeline, inputs, work, partitions, reducers):
    result = {"pipeline": pipeline, "runs": {}}
    for jobs in (1, 2):
        out = fresh(work / f"{name}-jobs{jobs}")
        run = timed_group([preprocess(binary, pipeline, inputs, out, jobs)], f"{name}-jobs{jobs}", work)
        manifest = json.loads((out / "manifest.json").read_text())
        timings = out / "timings.json"
        run.update(items=manifest["records"]["read"], output_bytes=tree_bytes(out, skip=("timings.json",)),
                   timings=json.loads(timings.read_text()) if timings.exists() else {})
        result["runs"][jobs] = run
        print(f"bench-scale: {name} --jobs {jobs}: {run['items']:,} items in {run['wall_s']:.1f} s, "
              f"peak RSS {run['peak_rss_mb']:.0f} MB", file=sys.stderr)
    result["jobs2_identical"] = same_dataset(work / f"{name}-jobs1", work / f"{name}-jobs2")

    parts = [fresh(work / f"{name}-part-{i}") for i in range(partitions)]
    result["map"] = timed_group([preprocess(binary, pipeline, inputs, parts[i], 1, ["--partition", f"{i}/{partitions}"])
                                 for i in range(partitions)], f"{name}-map", work)
    result["map"]["partial_bytes"] = sum(tree_bytes(p) for p in parts)
    one = fresh(work / f"{name}-reduce1")
    result["one_reducer"] = timed_group([merge(binary, parts, one, "--reduce", "0/1")], f"{name}-reduce1", work)
    result["one_reducer"]["output_bytes"] = tree_bytes(one)
    fresh(one)
    out = fresh(work / f"{name}-cluster")
    reduces = [merge(binary, parts, out, "--reduce", f"{j}/{reducers}") for j in range(reducers)]
    result["reduce"] = timed_group(reduces, f"{name}-reduce", work)
    result["finalize"] = timed_group([merge(binary, parts, out, "--finalize")], f"{name}-finalize", work)
    result["cluster_identical"] = same_dataset(work / f"{name}-jobs1", out)
    for directory in [work / f"{name}-jobs1", work / f"{name}-jobs2", *parts, out]:  # gigabytes at full shape
        fresh(directory)
    reduce_share = result["reduce"]["cpu_s"] / result["map"]["cpu_s"]
    print(f"bench-scale: {name}: map {result['map']['wall_s']:.1f} s wall / {result['map']['cpu_s']:.1f} s CPU, "
          f"reduce ×{reducers} {result['reduce']['wall_s']:.1f} s wall / {result['reduce']['cpu_s']:.1f} s CPU "
          f"({reduce_share:.0%} of map), "
          f"one reducer {result['one_reducer']['output_bytes'] / result['one_reducer']['wall_s'] / 1e6:,.0f} MB/s", file=sys.stderr)
    return result


def disk_write_rate(work):
    """Bytes per second of a 512 MiB sequential write, flushed to the disk (dd conv=fdatasync)."""
    target = work / ".dd-test"
    start = time.monotonic()
    subprocess.run(["dd", "if=/dev/zero", f"of={target}", "bs=1M", "count=512", "conv=fdatasync", "status=none"], check=True)
    rate = (512 << 20) / (time.monotonic() - start)
    target.unlink()
    return rate


def model_inputs(result):
    """Per item: map CPU seconds, one reducer's wall seconds, bytes read, spilled and written; e."""
    items = result["runs"][1]["items"]
    one, two = result["runs"][1], result["runs"][2]
    return {"map_cpu_s": result["map"]["cpu_s"] / items, "reduce_wall_s": result["one_reducer"]["wall_s"] / items,
            "input_bytes": result["input_bytes"] / items, "run_bytes": result["map"]["partial_bytes"] / items,
            "output_bytes": one["output_bytes"] / items, "efficiency": one["wall_s"] / two["wall_s"] / 2,
            "finalize_s": result["finalize"]["wall_s"]}


def phases(map_cpu, map_io, reduce_cpu, reduce_io, finalize):
    """Map, then reduce, each as long as the slower of its CPU and I/O terms, then finalize; with
    the phases where I/O binds."""
    bound = [name for name, cpu, io in (("map", map_cpu, map_io), ("reduce", reduce_cpu, reduce_io)) if io >= cpu]
    return max(map_cpu, map_io) + max(reduce_cpu, reduce_io) + finalize, bound


def box_time(m, cores, disk):
    """50 M items on one box of c cores (`preprocess --jobs c`): c map threads, c reducers, one disk."""
    return phases(FULL * m["map_cpu_s"] / (cores * m["efficiency"]), FULL * (m["input_bytes"] + m["run_bytes"]) / disk,
                  FULL * m["reduce_wall_s"] / (cores * m["efficiency"]), FULL * (m["run_bytes"] + m["output_bytes"]) / disk,
                  m["finalize_s"])


def cluster_time(m, nodes):
    """50 M items on n nodes of 16 cores with R = n reducers: I/O through each node's link and the
    shared file system."""
    io = lambda bytes_per_item: max(FULL * bytes_per_item / (nodes * NODE_LINK_BYTES_PER_S),  # noqa: E731
                                    FULL * bytes_per_item / SHARED_FS_BYTES_PER_S)
    return phases(FULL * m["map_cpu_s"] / (nodes * CORES_PER_NODE * m["efficiency"]), io(m["input_bytes"] + m["run_bytes"]),
                  FULL * m["reduce_wall_s"] / nodes, io(m["run_bytes"] + m["output_bytes"]), m["finalize_s"])


def duration(seconds, io_bound):
    text = f"{seconds / 3600:.2f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min"
    return text + (f" (I/O: {', '.join(io_bound)})" if io_bound else "")


def resume_run(binary, name, pipeline, inputs, work, jobs=2, kill_at=0.8):
    """Resume: a clean `preprocess --jobs 2`, then a run SIGKILLed at `kill_at` of the clean run's map
    wall time (timings.json `map_wall`) and its rerun, which reuses the chunks the killed run finished
    (their content re-hashed, since `--force` skips the up-front measure). Wall times of the clean run
    and of the rerun; the rerun's dataset must equal the clean run's."""
    clean = fresh(work / f"{name}-resume-clean")
    start = time.monotonic()
    subprocess.run(list(map(str, preprocess(binary, pipeline, inputs, clean, jobs))), check=True, stdout=subprocess.DEVNULL)
    clean_wall = time.monotonic() - start
    map_wall = json.loads((clean / "timings.json").read_text())["stages"]["map_wall"]
    out = fresh(work / f"{name}-resume")
    killed = subprocess.Popen(list(map(str, preprocess(binary, pipeline, inputs, out, jobs))), stdout=subprocess.DEVNULL)
    time.sleep(kill_at * map_wall)
    killed.kill()
    killed.wait()
    start = time.monotonic()
    rerun = subprocess.run(list(map(str, preprocess(binary, pipeline, inputs, out, jobs))), check=True,
                           capture_output=True, text=True)
    rerun_wall = time.monotonic() - start
    reused = re.search(r"(\d+) input chunk\(s\) were mapped by an interrupted run and reused", rerun.stdout)
    result = {"clean_wall_s": clean_wall, "map_wall_s": map_wall, "killed_after_s": kill_at * map_wall,
              "rerun_wall_s": rerun_wall, "ratio": rerun_wall / clean_wall, "chunks": len(inputs),
              "reused_chunks": int(reused.group(1)) if reused else 0, "identical": same_dataset(clean, out),
              "command": shlex.join(map(str, preprocess(binary, pipeline, inputs, out, jobs))),
              "clean_stages": json.loads((clean / "timings.json").read_text())["stages"],
              "rerun_stages": json.loads((out / "timings.json").read_text())["stages"]}
    fresh(clean)
    fresh(out)
    print(f"bench-scale: {name} resume: clean {clean_wall:.1f} s, killed at {kill_at * map_wall:.1f} s of a "
          f"{map_wall:.1f} s map, rerun {rerun_wall:.1f} s = {result['ratio']:.0%} ({result['reused_chunks']} of "
          f"{len(inputs)} chunks reused)", file=sys.stderr)
    return result


def markdown(report):
    partitions, reducers = report["partitions"], report["reducers"]
    readers = lambda key: ", ".join(n for n, r in report["pipelines"].items() if r.get("input") == key)  # noqa: E731
    sources = [f"Quick, Draw! input: {info['drawings']:,} drawings, {info['bytes'] / 1e9:.2f} GB uncompressed in {info['files']} "
               f"file{'s' if info['files'] != 1 else ''}, {info['gzip_files']} gzip-compressed, built by `Benchmarks/Scripts/make_scale_input.py` "
               f"from the 238 categories of `../shared/data/quickdraw/raw` with fresh key_ids ({readers(key)})"
               for key, info in report["inputs"].items()]
    if "tuberlin" in report["pipelines"]:
        sources.append(f"TU-Berlin: the {report['pipelines']['tuberlin']['runs'][1]['items']:,} PNGs of `../shared/data/tuberlin` "
                       "(150×150 thumbnails)")
    if "tuberlin-1111" in report["pipelines"]:
        sources.append(f"TU-Berlin at the release's size (tuberlin-1111): the same "
                       f"{report['pipelines']['tuberlin-1111']['runs'][1]['items']:,} PNGs scaled up to "
                       f"{TUBERLIN_RELEASE_SIZE}×{TUBERLIN_RELEASE_SIZE} by Pillow (bilinear)")
    lines = [BEGIN, "", f"Generated by `make bench-scale` (`{report['command']}`) on {report['machine']}, "
             f"{report.get('load_at_end', '?')} at the end, {report['date']}. " + ". ".join(sources) + ".", ""]
    lines += ["One process, `preprocess --jobs J` (map, then the parallel reduce):", "",
              "| pipeline | items | jobs | wall | items/s | CPU time | map / reduce CPU (timings.json) | reduce / map CPU | "
              "peak RSS (cap 100 + 50·J MB) | same bytes as jobs 1 |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, result in report["pipelines"].items():
        for jobs, run in result["runs"].items():
            same = "—" if jobs == 1 else ("yes" if result["jobs2_identical"] else "**no**")
            sides = run["timings"].get("stages", {})
            split = (f"{sides['map']:.1f} / {sides['reduce']:.2f} s | {sides['reduce'] / sides['map']:.1%}"
                     if sides.get("map") and "reduce" in sides else "— | —")
            lines.append(f"| {name} | {run['items']:,} | {jobs} | {run['wall_s']:.1f} s | {run['items'] / run['wall_s']:,.0f} | "
                         f"{run['cpu_s']:.1f} s | {split} | {run['peak_rss_mb']:.0f} MB ({100 + 50 * jobs}) | {same} |")
    lines += ["", f"The scheduler shape: {partitions} map processes (`--partition i/{partitions} --jobs 1`) at once, then one "
              f"reducer alone (`merge --reduce 0/1`), then {reducers} reducers at once (`merge --reduce j/{reducers}`), then "
              "`merge --finalize`. Targets: reduce CPU ≤ 10 % of map CPU; one reducer ≥ 200 MB/s of output.", "",
              f"| pipeline | map wall | map CPU | runs / output bytes | one reducer | {reducers} reducers wall | reduce CPU | "
              "reduce / map CPU | finalize | peak RSS map / reduce | == jobs 1 |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, result in report["pipelines"].items():
        mapped, one, red, fin = result["map"], result["one_reducer"], result["reduce"], result["finalize"]
        out = result["runs"][1]["output_bytes"]
        lines.append(f"| {name} | {mapped['wall_s']:.1f} s | {mapped['cpu_s']:.1f} s | "
                     f"{mapped['partial_bytes'] / 1e6:,.0f} / {out / 1e6:,.0f} MB | "
                     f"{one['wall_s']:.2f} s, {one['output_bytes'] / one['wall_s'] / 1e6:,.0f} MB/s | "
                     f"{red['wall_s']:.2f} s | {red['cpu_s']:.2f} s | {red['cpu_s'] / mapped['cpu_s']:.1%} | {fin['wall_s']:.2f} s | "
                     f"{mapped['peak_rss_mb']:.0f} / {red['peak_rss_mb']:.0f} MB | "
                     f"{'yes' if result['cluster_identical'] else '**no**'} |")
    stages = {name: r["runs"][1]["timings"].get("stages", {}) for name, r in report["pipelines"].items()}
    stage_lines = [f"| {name} | " + ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in sorted(figures.items())) + " |"
                   for name, figures in stages.items() if figures]
    if stage_lines:
        lines += ["", "`timings.json` of the `--jobs 1` run (its stage keys as written):", "",
                  "| pipeline | stages |", "|---|---|", *stage_lines]
    disk = report["disk_write_bytes_per_s"]
    lines += ["", "### The 50 M model's inputs and times", "",
              f"Measured per item: m = map CPU seconds (the {partitions} map processes' CPU / items), w = one reducer's wall seconds "
              "(`--reduce 0/1` wall / items), e = two-core efficiency (jobs 1 wall / jobs 2 wall / 2, assumed to hold at c cores), "
              "b_in, b_run, b_out = bytes read, spilled as runs and written. f = finalize wall. D = this machine's disk write rate "
              f"(dd, 512 MiB, fdatasync) = {disk / 1e6:,.0f} MB/s. Assumed for the cluster: shared file system S = "
              f"{SHARED_FS_BYTES_PER_S / 1e9:.0f} GB/s aggregate, node link L = {NODE_LINK_BYTES_PER_S / 1e9:.2f} GB/s, "
              f"{CORES_PER_NODE} cores per node, R = n reducers. \"(I/O: …)\" names the phases where a bandwidth term, "
              "not the CPU, binds.", "",
              "| pipeline | m (µs) | w (µs) | e | b_in / b_run / b_out (KB) | f | "
              + " | ".join(f"box, {c} cores" for c in BOX_CORES) + " | "
              + " | ".join(f"Slurm, {n} nodes, R = {n}" for n in CLUSTER_NODES) + " |",
              "|---|---:|---:|---:|---:|---:|" + "---:|" * (len(BOX_CORES) + len(CLUSTER_NODES))]
    for name, result in report["pipelines"].items():
        m = model_inputs(result)
        boxes = [duration(*box_time(m, c, disk)) for c in BOX_CORES]
        clusters = [duration(*cluster_time(m, n)) for n in CLUSTER_NODES]
        lines.append(f"| {name} | {m['map_cpu_s'] * 1e6:,.1f} | {m['reduce_wall_s'] * 1e6:,.2f} | {m['efficiency']:.2f} | "
                     f"{m['input_bytes'] / 1e3:.2f} / {m['run_bytes'] / 1e3:.2f} / {m['output_bytes'] / 1e3:.2f} | "
                     f"{m['finalize_s']:.2f} s | "
                     + " | ".join(boxes + clusters) + " |")
    resumed = {name: r["resume"] for name, r in report["pipelines"].items() if "resume" in r}
    if resumed:
        lines += ["", "Resume: a clean `preprocess --jobs 2`, then a run killed (SIGKILL) at 80 % of the clean run's map wall "
                  "time and its rerun (`--force`, so the reused chunks' content is re-hashed). Target: rerun ≤ 35 % of the clean run.", "",
                  "| pipeline | clean wall | map wall | killed at | rerun wall | rerun / clean | chunks reused | == clean |",
                  "|---|---:|---:|---:|---:|---:|---:|---|"]
        for name, r in resumed.items():
            lines.append(f"| {name} | {r['clean_wall_s']:.1f} s | {r['map_wall_s']:.1f} s | {r['killed_after_s']:.1f} s | "
                         f"{r['rerun_wall_s']:.1f} s | {r['ratio']:.0%} | {r['reused_chunks']} of {r['chunks']} | "
                         f"{'yes' if r['identical'] else '**no**'} |")
    lines += ["", "Commands of each run: `out/scale/results.json`.", "", END]
    return "\n".join(lines)


def write_section(doc, section):
    """Replaces the bench-scale section of `doc` (or appends one)."""
    text = doc.read_text() if doc.exists() else "# Scale\n\n"
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Full-dataset shape: `make bench-scale`\n\n" + section + "\n"
    doc.write_text(text)


def quickdraw_input(raw, target, work):
    """The scale input of `target` bytes, built once (input.json records what was built)."""
    directory = work / f"input-{target:.0e}"
    stamp = directory / "input.json"
    if stamp.exists() and json.loads(stamp.read_text()).get("generator") == 3:
        info = json.loads(stamp.read_text())
    else:
        made = subprocess.run([sys.executable, str(pathlib.Path(__file__).resolve().with_name("make_scale_input.py")), "--raw", str(raw),
                               "--bytes", str(target), "-o", str(directory)], check=True, capture_output=True, text=True)
        info = dict(json.loads(made.stdout), target_bytes=target, generator=3,
                    gzip_files=sum(1 for p in directory.iterdir() if p.name.endswith(".gz")))
        stamp.write_text(json.dumps(info))
    return sorted(p for p in directory.iterdir() if p.name.startswith("scale-")), info


def tuberlin_release_input(tuberlin, work):
    """The PNG set at the release's 1111×1111 (bilinear), built once; the class directories kept."""
    from PIL import Image

    directory = work / f"tuberlin-{TUBERLIN_RELEASE_SIZE}"
    stamp = work / f"tuberlin-{TUBERLIN_RELEASE_SIZE}.json"
    if not stamp.exists():
        fresh(directory)
        for source in sorted(tuberlin.rglob("*.png")):
            target = directory / source.relative_to(tuberlin)
            target.parent.mkdir(parents=True, exist_ok=True)
            with Image.open(source) as image:
                image.convert("L").resize((TUBERLIN_RELEASE_SIZE,) * 2, Image.BILINEAR).save(target)
        stamp.write_text(json.dumps({"size": TUBERLIN_RELEASE_SIZE, "from": str(tuberlin)}))
    return directory


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sketchprep", required=True, type=pathlib.Path)
    parser.add_argument("--raw", required=True, type=pathlib.Path)
    parser.add_argument("--tuberlin", required=True, type=pathlib.Path, help="directory of the TU-Berlin PNGs")
    parser.add_argument("--bytes", type=float, default=4e9)
    parser.add_argument("--partitions", type=int, default=2, help="map processes n (default 2: this machine's cores)")
    parser.add_argument("--reducers", type=int, default=2, help="reduce processes R (default 2)")
    parser.add_argument("--pipelines", default=",".join(PIPELINES), help="comma-separated names (default: all)")
    parser.add_argument("--work", type=pathlib.Path, default=REPO / "out" / "scale")
    parser.add_argument("--doc", type=pathlib.Path, help="markdown file whose bench-scale section is replaced")
    parser.add_argument("--from-results", action="store_true", help="rewrite the section from WORK/results.json without running")
    parser.add_argument("--only-resume", action="store_true",
                        help="measure only the resume after a kill (c.) of the chosen pipelines and print it as JSON")
    args = parser.parse_args()
    if args.from_results:
        report = json.loads((args.work / "results.json").read_text())
        for result in report["pipelines"].values():
            result["runs"] = {int(jobs): run for jobs, run in result["runs"].items()}
        write_section(args.doc, markdown(report))
        return
    names = args.pipelines.split(",")
    unknown = [n for n in names if n not in PIPELINES]
    if unknown:
        sys.exit(f"bench-scale: unknown pipelines {unknown}; known: {', '.join(PIPELINES)}")

    args.work.mkdir(parents=True, exist_ok=True)
    binary = args.sketchprep.resolve()
    if args.only_resume:
        for name in names:
            if name in RESUME_PIPELINES and PIPELINES[name][1] == "quickdraw":
                inputs, info = quickdraw_input(args.raw, float(f"{args.bytes * PIPELINES[name][2]:.0e}"), args.work)
                result = resume_run(binary, name, PIPELINES[name][0], inputs, args.work)
                print(json.dumps(dict(result, input_bytes=info["bytes"], drawings=info["drawings"]), indent=2))
        return
    report = {"command": f"Benchmarks/Scripts/bench_scale.py --bytes {args.bytes:.0e} --partitions {args.partitions} --reducers {args.reducers}",
              "machine": f"{os.cpu_count()} CPUs, {platform.machine()}, load average {os.getloadavg()[0]:.2f} at the start",
              "date": time.strftime("%Y-%m-%d"), "partitions": args.partitions, "reducers": args.reducers,
              "disk_write_bytes_per_s": disk_write_rate(args.work), "inputs": {}, "pipelines": {}}
    for name in names:
        pipeline, source, share = PIPELINES[name]
        if source == "quickdraw":
            target = max(args.bytes * share, 1.0)
            inputs, info = quickdraw_input(args.raw, float(f"{target:.0e}"), args.work)
            key, input_bytes = f"{target:.0e}", info["bytes"]
            report["inputs"][key] = info
        elif source == "tuberlin":
            inputs, input_bytes, key = [args.tuberlin], tree_bytes(args.tuberlin), "tuberlin"
        else:
            release = tuberlin_release_input(args.tuberlin, args.work)
            inputs, input_bytes, key = [release], tree_bytes(release), "tuberlin-1111"
        result = run_pipeline(binary, name, pipeline, inputs, args.work, args.partitions, args.reducers)
        result.update(input=key, input_bytes=input_bytes)
        if name in RESUME_PIPELINES:
            result["resume"] = resume_run(binary, name, pipeline, inputs, args.work)
        report["pipelines"][name] = result
    report["load_at_end"] = f"{os.getloadavg()[0]:.2f}"
    (args.work / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    section = markdown(report)
    print(section)
    if args.doc:
        write_section(args.doc, section)
    failures = [n for n, r in report["pipelines"].items()
                if not (r["jobs2_identical"] and r["cluster_identical"] and r.get("resume", {}).get("identical", True))]
    if failures:
        sys.exit(f"bench-scale: datasets differ between jobs 1, jobs 2 and map → reduce → finalize for {failures}")


if __name__ == "__main__":
    main()
