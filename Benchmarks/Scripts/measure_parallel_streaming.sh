#!/usr/bin/env bash
# Wall clock of the streaming commands with --jobs 1 (pinned to CPU 0) and --jobs 2 (CPUs 0,1),
# and the machine's own ceiling: two independent --jobs 1 processes on the two halves of the
# input, run concurrently on CPUs 0 and 1 (wall = the slower one). Prints a Markdown table.
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
# seconds CMD...: wall-clock seconds of one run
seconds() { fresh; /usr/bin/time -f %e -o t.txt "$@" >/dev/null 2>&1; cat t.txt; }
# best of $repeats
best() { local b=""; for _ in $(seq "$repeats"); do s=$(seconds "$@"); b=$(python3 -c "print(min(float('$s'), float('${b:-1e9}')))"); done; echo "$b"; }
# ceiling: the two halves' commands (the first and second half of the arguments, same length)
# run concurrently on CPUs 0 and 1; the slower one's wall clock, best of $repeats
ceiling() {
  local b=""
  for _ in $(seq "$repeats"); do
    fresh
    ( /usr/bin/time -f %e -o c0.txt taskset -c 0 "${@:1:$#/2}" >/dev/null 2>&1 ) &
    ( /usr/bin/time -f %e -o c1.txt taskset -c 1 "${@:$#/2+1}" >/dev/null 2>&1 ) &
    wait
    b=$(python3 -c "print(min(max(float(open('c0.txt').read()), float(open('c1.txt').read())), float('${b:-1e9}')))")
  done
  echo "$b"
}
row() {  # name, jobs1, jobs2, ceiling
  python3 -c "
j1, j2, c = map(float, ('$2', '$3', '$4'))
print(f'| $1 | {j1:.2f} | {j2:.2f} | {j1 / j2:.2f}× | {c:.2f} | {j1 / c:.2f}× | {100 * c / j2:.0f} % |')"
}

echo "| command | jobs 1 (s) | jobs 2 (s) | speed-up | ceiling (s) | ceiling speed-up | jobs 2 / ceiling |"
echo "|---|---|---|---|---|---|---|"
j1=$(best taskset -c 0 "$bin" simplify raw.ndjson -o out/s.ndjson -q -j 1)
j2=$(best taskset -c 0,1 "$bin" simplify raw.ndjson -o out/s.ndjson -q -j 2)
c=$(ceiling "$bin" simplify raw.a.ndjson -o out/sa.ndjson -q -j 1 "$bin" simplify raw.b.ndjson -o out/sb.ndjson -q -j 1)
row simplify "$j1" "$j2" "$c"
j1=$(best taskset -c 0 "$bin" encode raw.ndjson -o out/e.npy -q -j 1)
j2=$(best taskset -c 0,1 "$bin" encode raw.ndjson -o out/e.npy -q -j 2)
c=$(ceiling "$bin" encode raw.a.ndjson -o out/ea.npy -q -j 1 "$bin" encode raw.b.ndjson -o out/eb.npy -q -j 1)
row encode "$j1" "$j2" "$c"
j1=$(best taskset -c 0 "$bin" bitmap simplified.ndjson -o out/b.npy -q -j 1)
j2=$(best taskset -c 0,1 "$bin" bitmap simplified.ndjson -o out/b.npy -q -j 2)
c=$(ceiling "$bin" bitmap simplified.a.ndjson -o out/ba.npy -q -j 1 "$bin" bitmap simplified.b.ndjson -o out/bb.npy -q -j 1)
row bitmap "$j1" "$j2" "$c"
j1=$(best taskset -c 0 "$bin" raster png.a png.b -o out/r.npy -q -j 1)
j2=$(best taskset -c 0,1 "$bin" raster png.a png.b -o out/r.npy -q -j 2)
c=$(ceiling "$bin" raster png.a -o out/ra.npy -q -j 1 "$bin" raster png.b -o out/rb.npy -q -j 1)
row raster "$j1" "$j2" "$c"

# Every shipped pipeline (Pipelines/*.yaml; PIPELINES=dir to measure others), same columns, plus
# the CPU seconds (user + system, best of $repeats) of --jobs 1 and --jobs 2: the engine's jobs
# target is jobs 2 at ≥ 95 % of the ceiling with no more CPU than jobs 1. Drawing pipelines read
# the raw drawings ×6 (raster256, 25× the CPU per drawing, the shared raw drawings once:
# raw1.*); tuberlin-cnn the TU-Berlin PNGs ×4 as <class>/ directories, halves tub.a and tub.b.
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
# cpu CMD...: user + system seconds of one run, best of $repeats
cpu() { local b=""; for _ in $(seq "$repeats"); do fresh; /usr/bin/time -f "%U %S" -o t.txt "$@" >/dev/null 2>&1; s=$(awk '{print $1 + $2}' t.txt); b=$(python3 -c "print(min(float('$s'), float('${b:-1e9}')))"); done; echo "$b"; }
echo
echo "| pipeline | jobs 1 (s) | jobs 2 (s) | speed-up | ceiling (s) | ceiling speed-up | jobs 2 / ceiling | CPU jobs 1 (s) | CPU jobs 2 (s) |"
echo "|---|---|---|---|---|---|---|---|---|"
for file in "$pipelines"/*.yaml; do
  name=$(basename "$file" .yaml)
  case $name in
    tuberlin-*) whole=(--input tub.a --input tub.b); a=(--input tub.a); b=(--input tub.b) ;;
    *raster256*) whole=(--input raw1.ndjson); a=(--input raw1.a.ndjson); b=(--input raw1.b.ndjson) ;;
    *) whole=(--input raw.ndjson); a=(--input raw.a.ndjson); b=(--input raw.b.ndjson) ;;
  esac
  pre=(preprocess --pipeline "$file" --force -q)
  j1=$(best taskset -c 0 "$bin" "${pre[@]}" "${whole[@]}" -o out/p -j 1)
  j2=$(best taskset -c 0,1 "$bin" "${pre[@]}" "${whole[@]}" -o out/p -j 2)
  c=$(ceiling "$bin" "${pre[@]}" "${a[@]}" -o out/pa -j 1 "$bin" "${pre[@]}" "${b[@]}" -o out/pb -j 1)
  u1=$(cpu taskset -c 0 "$bin" "${pre[@]}" "${whole[@]}" -o out/p -j 1)
  u2=$(cpu taskset -c 0,1 "$bin" "${pre[@]}" "${whole[@]}" -o out/p -j 2)
  echo "$(row "$name" "$j1" "$j2" "$c") $u1 | $u2 |"
done
