#!/usr/bin/env python3
"""`make bench-scale`: preprocess at full-dataset shape and write the figures into docs/scale.md.

1. Builds the input with scripts/make_scale_input.py (real raw drawings of all categories,
   repeated with fresh key_ids, several files, every fourth gzip) unless it is already there.
2. Runs the RNN and bitmap28 pipelines with --jobs 1 and --jobs 2 under /usr/bin/time: wall time,
   CPU time, CPU utilisation, peak RSS; per-stage throughput from the run's timings.json.
3. Measures the machine's own two-core ceiling: the two halves (--partition 0/2 and 1/2, --jobs 1)
   run concurrently, then `merge` joins them; the merged dataset must equal the --jobs 1 run.
4. Checks --jobs 1 and --jobs 2 wrote the same bytes.
5. Replaces the generated section of docs/scale.md (between the bench-scale markers) with the
   figures, the commands, and an extrapolation to 50 M drawings labelled as a model.

    scripts/bench_scale.py --sketchprep .build/release/sketchprep --raw ../shared/data/quickdraw/raw \
        --bytes 4e9 --work out/scale [--doc docs/scale.md]
"""
import argparse
import filecmp
import json
import os
import pathlib
import platform
import shlex
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
PIPELINES = {"rnn": "Pipelines/quickdraw-rnn.yaml", "bitmap28": "Pipelines/quickdraw-bitmap28.yaml"}
BEGIN, END = "<!-- bench-scale:begin -->", "<!-- bench-scale:end -->"
FULL_DRAWINGS, FULL_BYTES = 50_000_000, 195e9


def timed(argv, label):
    """Runs argv under /usr/bin/time; returns wall, cpu seconds and peak RSS in MB."""
    stats = pathlib.Path(f"/tmp/bench-scale-{os.getpid()}-{label}.time")
    start = time.monotonic()
    subprocess.run(["/usr/bin/time", "-o", str(stats), "-f", "%e %U %S %M", *argv], check=True)
    wall = time.monotonic() - start
    _, user, system, rss_kb = stats.read_text().split()[-4:]
    stats.unlink()
    return {"wall_s": wall, "cpu_s": float(user) + float(system), "peak_rss_mb": int(rss_kb) / 1024}


def same_dataset(a, b):
    names = sorted(p.name for p in a.iterdir() if p.name != "timings.json")
    if names != sorted(p.name for p in b.iterdir() if p.name != "timings.json"):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


def preprocess(binary, pipeline, inputs, output, jobs, extra=()):
    return [str(binary), "preprocess", "--pipeline", pipeline, *sum((["--input", str(i)] for i in inputs), []),
            "--output", str(output), "--jobs", str(jobs), "--quiet", "--force", *extra]


def stage_rates(output, drawings):
    path = output / "timings.json"
    if not path.exists():
        return {}
    stages = json.loads(path.read_text()).get("stages", {})
    return {name: drawings / seconds for name, seconds in stages.items() if seconds > 0}


def run_pipeline(binary, name, inputs, work):
    pipeline = PIPELINES[name]
    result = {"pipeline": pipeline, "runs": {}}
    for jobs in (1, 2):
        out = work / f"{name}-jobs{jobs}"
        argv = preprocess(binary, pipeline, inputs, out, jobs)
        figures = timed(argv, f"{name}-{jobs}")
        manifest = json.loads((out / "manifest.json").read_text())
        drawings = manifest["records"]["read"]
        figures.update(drawings=drawings, drawings_per_s=drawings / figures["wall_s"],
                       cpu_utilisation=figures["cpu_s"] / figures["wall_s"] / jobs,
                       stages_drawings_per_cpu_s=stage_rates(out, drawings), command=shlex.join(argv))
        result["runs"][jobs] = figures
        print(f"bench-scale: {name} --jobs {jobs}: {drawings} drawings in {figures['wall_s']:.1f} s "
              f"({figures['drawings_per_s']:,.0f}/s), peak RSS {figures['peak_rss_mb']:.0f} MB", file=sys.stderr)
    result["identical_across_jobs"] = same_dataset(work / f"{name}-jobs1", work / f"{name}-jobs2")

    halves = [work / f"{name}-half{i}" for i in (0, 1)]
    argvs = [preprocess(binary, pipeline, inputs, halves[i], 1, ["--partition", f"{i}/2"]) for i in (0, 1)]
    start = time.monotonic()
    procs = [subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", f"/tmp/bench-scale-half{i}", *a]) for i, a in enumerate(argvs)]
    if any(p.wait() != 0 for p in procs):
        sys.exit("bench-scale: a partition run failed")
    map_wall = time.monotonic() - start
    merged = work / f"{name}-merged"
    merge_argv = [str(binary), "merge", *map(str, halves), "-o", str(merged), "--quiet"]
    merge = timed(merge_argv, f"{name}-merge")
    # The ceiling produces the same dataset as one process: both halves' map sides, then the merge.
    result["ceiling"] = {"map_wall_s": map_wall, "drawings_per_s": result["runs"][1]["drawings"] / (map_wall + merge["wall_s"]),
                         "merge": merge, "commands": [shlex.join(a) for a in argvs] + [shlex.join(merge_argv)]}
    result["merge_identical"] = same_dataset(work / f"{name}-jobs1", merged)
    return result


def model(result):
    """Extrapolation to the full dataset: a model, with its inputs named."""
    one, two = result["runs"][1], result["runs"][2]
    per_core = one["drawings_per_s"]
    efficiency = two["drawings_per_s"] / (2 * per_core)
    merge_rate = one["drawings"] / result["ceiling"]["merge"]["wall_s"]
    rows = []
    for cores in (2, 16, 64):
        rows.append((f"one box, {cores} cores", FULL_DRAWINGS / (per_core * cores * efficiency)))
    for nodes in (8, 32):
        rows.append((f"Slurm, {nodes} nodes × 16 cores", FULL_DRAWINGS / (per_core * 16 * nodes * efficiency) + FULL_DRAWINGS / merge_rate))
    return per_core, efficiency, merge_rate, rows


def hours(seconds):
    return f"{seconds / 3600:.2f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min"


def markdown(report):
    lines = [BEGIN, "", f"Generated by `make bench-scale` ({report['command']}) on {report['machine']}, "
             f"{report['date']}. Input: {report['input']['drawings']:,} drawings, "
             f"{report['input']['bytes'] / 1e9:.2f} GB uncompressed in {report['input']['files']} files "
             "(every fourth gzip), built by `scripts/make_scale_input.py` from the 238 categories of "
             "`../shared/data/quickdraw/raw` with fresh key_ids.", ""]
    lines += ["| pipeline | jobs | wall | drawings/s | CPU time | CPU use per job | peak RSS | same bytes as jobs 1 |",
              "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, result in report["pipelines"].items():
        for jobs, run in result["runs"].items():
            lines.append(f"| {name} | {jobs} | {run['wall_s']:.1f} s | {run['drawings_per_s']:,.0f} | {run['cpu_s']:.1f} s | "
                         f"{run['cpu_utilisation'] * 100:.0f} % | {run['peak_rss_mb']:.0f} MB | "
                         f"{'—' if jobs == 1 else ('yes' if result['identical_across_jobs'] else '**no**')} |")
    lines += ["", "Two-core ceiling: the two halves (`--partition 0/2` and `1/2`, `--jobs 1`) run concurrently, then "
              "`merge` joins them into the same dataset; ceiling rate = drawings / (halves' wall + merge wall):", "",
              "| pipeline | jobs 2 / jobs 1 | ceiling / jobs 1 | jobs 2 / ceiling | merge wall | merge == single run |",
              "|---|---:|---:|---:|---:|---|"]
    for name, result in report["pipelines"].items():
        one, two, ceiling = result["runs"][1], result["runs"][2], result["ceiling"]
        lines.append(f"| {name} | {two['drawings_per_s'] / one['drawings_per_s']:.2f}× | "
                     f"{ceiling['drawings_per_s'] / one['drawings_per_s']:.2f}× | "
                     f"{two['drawings_per_s'] / ceiling['drawings_per_s'] * 100:.0f} % | {ceiling['merge']['wall_s']:.1f} s | "
                     f"{'yes' if result['merge_identical'] else '**no**'} |")
    stage_lines = []
    for name, result in report["pipelines"].items():
        stages = result["runs"][1]["stages_drawings_per_cpu_s"]
        if stages:
            stage_lines.append(f"| {name} | " + ", ".join(f"{stage} {rate:,.0f}" for stage, rate in stages.items()) + " |")
    if stage_lines:
        lines += ["", "Per stage, drawings per CPU-second (`timings.json` of the `--jobs 1` run):", "",
                  "| pipeline | stages |", "|---|---|", *stage_lines]
    lines += ["", "### Extrapolation to 50 M drawings (a model, not a measurement)", "",
              "T(box, c cores) = 50 M / (r · c · e); T(Slurm, n nodes × c) = 50 M / (r · c · n · e) + 50 M / m, "
              "with r the measured `--jobs 1` drawings/s, e the measured two-core efficiency (jobs 2 rate / 2r, "
              "assumed to hold at c cores) and m the measured merge rate (drawings/s; the merge is one process). "
              f"It ignores I/O: reading 195 GB takes {FULL_BYTES / 500e6 / 60:.0f} min at 500 MB/s and "
              f"{FULL_BYTES / 2e9 / 60:.0f} min at 2 GB/s, so below those times the storage, not the CPU, is the bound.", "",
              "| pipeline | r (drawings/s/core) | e | m (drawings/s) | " + " | ".join(label for label, _ in model(next(iter(report["pipelines"].values())))[3]) + " |",
              "|---|---:|---:|---:|" + "---:|" * 5]
    for name, result in report["pipelines"].items():
        per_core, efficiency, merge_rate, rows = model(result)
        lines.append(f"| {name} | {per_core:,.0f} | {efficiency:.2f} | {merge_rate:,.0f} | " + " | ".join(hours(t) for _, t in rows) + " |")
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sketchprep", required=True, type=pathlib.Path)
    parser.add_argument("--raw", required=True, type=pathlib.Path)
    parser.add_argument("--bytes", type=float, default=4e9)
    parser.add_argument("--work", type=pathlib.Path, default=REPO / "out" / "scale")
    parser.add_argument("--doc", type=pathlib.Path, help="markdown file whose bench-scale section is replaced")
    parser.add_argument("--from-results", action="store_true", help="rewrite the section from WORK/results.json without running")
    args = parser.parse_args()
    if args.from_results:
        report = json.loads((args.work / "results.json").read_text())
        for result in report["pipelines"].values():
            result["runs"] = {int(jobs): run for jobs, run in result["runs"].items()}
            ceiling = result["ceiling"]
            ceiling["drawings_per_s"] = result["runs"][1]["drawings"] / (ceiling["map_wall_s"] + ceiling["merge"]["wall_s"])
        write_section(args.doc, markdown(report))
        return

    inputs_dir = args.work / "input"
    stamp = inputs_dir / "input.json"
    if stamp.exists() and json.loads(stamp.read_text()).get("target_bytes") == args.bytes and json.loads(stamp.read_text()).get("generator") == 2:
        info = json.loads(stamp.read_text())
    else:
        made = subprocess.run([sys.executable, str(REPO / "scripts" / "make_scale_input.py"), "--raw", str(args.raw),
                               "--bytes", str(args.bytes), "-o", str(inputs_dir)], check=True, capture_output=True, text=True)
        info = dict(json.loads(made.stdout), target_bytes=args.bytes, generator=2)
        stamp.write_text(json.dumps(info))
    inputs = sorted(p for p in inputs_dir.iterdir() if p.name.startswith("scale-"))

    report = {"command": f"scripts/bench_scale.py --bytes {args.bytes:.0e}", "machine": f"{os.cpu_count()} CPUs, {platform.machine()}, load average {os.getloadavg()[0]:.2f} at the start",
              "date": time.strftime("%Y-%m-%d"), "input": info, "pipelines": {}}
    for name in PIPELINES:
        report["pipelines"][name] = run_pipeline(args.sketchprep, name, inputs, args.work)
    (args.work / "results.json").write_text(json.dumps(report, indent=2) + "\n")
    section = markdown(report)
    print(section)
    if args.doc:
        write_section(args.doc, section)
    failures = [n for n, r in report["pipelines"].items() if not (r["identical_across_jobs"] and r["merge_identical"])]
    if failures:
        sys.exit(f"bench-scale: outputs differ between jobs / merge for {failures}")


if __name__ == "__main__":
    main()
