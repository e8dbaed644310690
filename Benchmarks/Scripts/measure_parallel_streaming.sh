#!/usr/bin/env bash
# Wall clock of the streaming commands with --jobs 1 (pinned to CPU 0) and --jobs 2 (CPUs 0,1),
# and the machine's own ceiling: two independent --jobs 1 processes on the two halves of the
# input, run concurrently on CPUs 0 and 1 (wall = the slower one), in REPEATS rounds of the three
# back to back. Prints Markdown tables of the medians.
# Usage: Benchmarks/Scripts/measure_parallel_streaming.sh BIN SHARED_DATA WORKDIR [REPEATS]
set -euo pipefail
bin=$(realpath "$1"); shared=$(realpath "$2"); work=$3; repeats=${4:-3}
pipelines=${PIPELINES:-$(dirname "$(realpath "$0")")/../../Pipelines}
mkdir -p "$work"; cd "$work"

# Inputs: the shared raw drawings ×6, the shared simplified drawings ×30.
[ -f raw.ndjson ] || for _ in 1 2 3 4 5 6; do cat "$shared"/quickdraw/raw/*.ndjson; done > raw.ndjson
[ -f simplified.ndjson ] || for _ in $(seq 30); do cat "$shared"/quickdraw/simplified/*.ndjson; done > simplified.ndjson
for f in raw simplified; do
  [ -f $f.a.ndjson ] && continue
  split -n l/2 -d --additional-suffix=.ndjson $f.ndjson $f.part
  mv $f.part00.ndjson $f.a.ndjson; mv $f.part01.ndjson $f.b.ndjson
done
# The TU-Berlin PNGs ×4 as links in two directories, png.a and png.b, a half each. Directories, not
# file lists: swift-argument-parser's parsing time grows with the square of the argument count
# (about 0.3 s for 3,200 paths), which would weigh on jobs 1 and 2 and not on the halves.
if [ ! -d png.b ]; then
  mapfile -t pngs < <(find "$shared/tuberlin" -name '*.png' | LC_ALL=C sort)
  half=$(( ${#pngs[@]} / 2 ))
  mkdir -p png.a png.b
  for copy in 0 1 2 3; do
    for i in "${!pngs[@]}"; do
      dir=png.a; [ "$i" -ge "$half" ] && dir=png.b
      ln -s "${pngs[$i]}" "$dir/$copy-$(printf %05d "$i").png"
    done
  done
fi

# Outputs go to out/, emptied before every run: replacing an existing file by rename makes ext4
# write the new file's data back first (auto_da_alloc), a serial cost of the file system that is
# the same for every job count and would blur the comparison.
fresh() { rm -rf out; mkdir out; }
# run_times CMD...: "wall cpu" seconds of one run (cpu: user + system)
run_times() { fresh; /usr/bin/time -f "%e %U %S" -o t.txt "$@" >/dev/null 2>&1; awk '{print $1, $2 + $3}' t.txt; }
# ceiling: "wall cpu" of CA and CB (the two halves' commands) run concurrently on CPUs 0 and 1:
# the slower one's wall clock, the two CPU times together
ceiling() {
  fresh
  ( /usr/bin/time -f "%e %U %S" -o c0.txt taskset -c 0 "${CA[@]}" >/dev/null 2>&1 ) &
  ( /usr/bin/time -f "%e %U %S" -o c1.txt taskset -c 1 "${CB[@]}" >/dev/null 2>&1 ) &
  wait
  awk '{w = $1 > w ? $1 : w; c += $2 + $3} END {print w, c}' c0.txt c1.txt
}
# measure NAME: $repeats rounds, each running J1 (jobs 1, CPU 0), J2 (jobs 2, CPUs 0-1) and the
# ceiling back to back, so that the machine's changes of speed fall on the three alike; prints the
# row: the median of each time, and the median of the rounds' ratios.
measure() {
  local rounds=()
  for _ in $(seq "$repeats"); do
    rounds+=("$(run_times taskset -c 0 "${J1[@]}") $(run_times taskset -c 0,1 "${J2[@]}") $(ceiling)")
  done
  python3 - "$1" "$cpu_columns" "${rounds[@]}" <<'PY'
import statistics, sys
name, cpu_columns, rounds = sys.argv[1], sys.argv[2] == "1", [list(map(float, r.split())) for r in sys.argv[3:]]
med = lambda f: statistics.median(f(r) for r in rounds)
j1, c1, j2, c2, c, cc = (med(lambda r, i=i: r[i]) for i in range(6))
row = (f"| {name} | {j1:.2f} | {j2:.2f} | {med(lambda r: r[0] / r[2]):.2f}× | {c:.2f} | {med(lambda r: r[0] / r[4]):.2f}× "
       f"| {100 * med(lambda r: r[4] / r[2]):.0f} % |")
if cpu_columns:
    row += f" {c1:.2f} | {c2:.2f} | {100 * med(lambda r: r[3] / r[1]):.0f} % | {100 * med(lambda r: r[5] / r[1]):.0f} % |"
print(row)
PY
}

echo "Medians of $repeats rounds (each: jobs 1, jobs 2, ceiling); ratios are medians of the rounds' ratios."
echo
echo "| command | jobs 1 (s) | jobs 2 (s) | speed-up | ceiling (s) | ceiling speed-up | jobs 2 / ceiling |"
echo "|---|---|---|---|---|---|---|"
cpu_columns=0
J1=("$bin" simplify raw.ndjson -o out/s.ndjson -q -j 1); J2=("$bin" simplify raw.ndjson -o out/s.ndjson -q -j 2)
CA=("$bin" simplify raw.a.ndjson -o out/sa.ndjson -q -j 1); CB=("$bin" simplify raw.b.ndjson -o out/sb.ndjson -q -j 1)
measure simplify
J1=("$bin" encode raw.ndjson -o out/e.npy -q -j 1); J2=("$bin" encode raw.ndjson -o out/e.npy -q -j 2)
CA=("$bin" encode raw.a.ndjson -o out/ea.npy -q -j 1); CB=("$bin" encode raw.b.ndjson -o out/eb.npy -q -j 1)
measure encode
J1=("$bin" bitmap simplified.ndjson -o out/b.npy -q -j 1); J2=("$bin" bitmap simplified.ndjson -o out/b.npy -q -j 2)
CA=("$bin" bitmap simplified.a.ndjson -o out/ba.npy -q -j 1); CB=("$bin" bitmap simplified.b.ndjson -o out/bb.npy -q -j 1)
measure bitmap
J1=("$bin" raster png.a png.b -o out/r.npy -q -j 1); J2=("$bin" raster png.a png.b -o out/r.npy -q -j 2)
CA=("$bin" raster png.a -o out/ra.npy -q -j 1); CB=("$bin" raster png.b -o out/rb.npy -q -j 1)
measure raster

# Every shipped pipeline (Pipelines/*.yaml; PIPELINES=dir to measure others), same columns, plus
# the CPU seconds (user + system) of --jobs 1 and --jobs 2 from the same runs, and the CPU of jobs 2
# and of the ceiling's two halves together next to jobs 1's: the engine's jobs target is jobs 2 at
# ≥ 95 % of the ceiling with no more CPU than jobs 1 (the ceiling's CPU shows what running on both
# cores at once costs the machine itself). Drawing pipelines read the raw drawings ×6 (raster256,
# 25× the CPU per drawing, the shared raw drawings once: raw1.*); tuberlin-cnn the TU-Berlin PNGs
# ×4 as <class>/ directories, halves tub.a and tub.b.
[ -f raw1.ndjson ] || cat "$shared"/quickdraw/raw/*.ndjson > raw1.ndjson
[ -f raw1.a.ndjson ] || { split -n l/2 -d --additional-suffix=.ndjson raw1.ndjson raw1.part; mv raw1.part00.ndjson raw1.a.ndjson; mv raw1.part01.ndjson raw1.b.ndjson; }
if [ ! -d tub.b ]; then
  for half in a b; do
    for copy in 0 1 2 3; do
      for link in png.$half/$copy-*.png; do
        target=$(readlink "$link"); class=$(basename "$(dirname "$target")")
        mkdir -p "tub.$half/$class"; ln -s "$target" "tub.$half/$class/$copy-$(basename "$target")"
      done
    done
  done
fi
echo
echo "| pipeline | jobs 1 (s) | jobs 2 (s) | speed-up | ceiling (s) | ceiling speed-up | jobs 2 / ceiling | CPU jobs 1 (s) | CPU jobs 2 (s) | CPU jobs 2 / jobs 1 | CPU ceiling / jobs 1 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cpu_columns=1
for file in "$pipelines"/*.yaml; do
  name=$(basename "$file" .yaml)
  case $name in
    tuberlin-*) whole=(--input tub.a --input tub.b); a=(--input tub.a); b=(--input tub.b) ;;
    *raster256*) whole=(--input raw1.ndjson); a=(--input raw1.a.ndjson); b=(--input raw1.b.ndjson) ;;
    *) whole=(--input raw.ndjson); a=(--input raw.a.ndjson); b=(--input raw.b.ndjson) ;;
  esac
  pre=("$bin" preprocess --pipeline "$file" --force -q)
  J1=("${pre[@]}" "${whole[@]}" -o out/p -j 1); J2=("${pre[@]}" "${whole[@]}" -o out/p -j 2)
  CA=("${pre[@]}" "${a[@]}" -o out/pa -j 1); CB=("${pre[@]}" "${b[@]}" -o out/pb -j 1)
  measure "$name"
done
