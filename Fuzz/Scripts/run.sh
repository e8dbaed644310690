#!/usr/bin/env bash
# Builds the libFuzzer harnesses (release, -sanitize=fuzzer,address) and runs each for
# FUZZ_SECONDS. Fails (exit 1) if any harness finds a crash, sanitizer report, leak, timeout or
# out-of-memory; the reproducer is left in out/fuzz/<harness>/ (see docs/fuzzing.md).
#
#   Fuzz/Scripts/run.sh [harness...]            # all harnesses when none is named
#   FUZZ_SECONDS=60 FUZZ_RSS_MB=1024 FUZZ_TIMEOUT=10 Fuzz/Scripts/run.sh
set -uo pipefail

cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
RSS_MB=${FUZZ_RSS_MB:-1024}
TIMEOUT=${FUZZ_TIMEOUT:-10}
OUT=${FUZZ_OUT:-out/fuzz}
ALL=(FuzzNDJSONLine FuzzGzipReader FuzzBinReader FuzzPNGImport FuzzPipelineYAML FuzzNPZReader FuzzRawInflate FuzzNPYReader FuzzDatasetFiles FuzzHTMLReport FuzzSVGSketch FuzzKaggleCSV FuzzRunFileOrder FuzzPythonLoaders)
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=("${ALL[@]}")

# SwiftPM names a path dependency after its directory (symbolic links resolved): in a checkout
# directory called `fuzz` the root package would share the identity `fuzz` with this package and
# the build fails ("product not found"). Such a checkout is mirrored (manifests and sources, mtimes
# kept so builds stay incremental) into .build/fuzz-checkout/sketchprep and built there.
PACKAGE=Fuzz
if [ "$(basename "$PWD" | tr '[:upper:]' '[:lower:]')" = fuzz ]; then
    mirror=.build/fuzz-checkout/sketchprep
    mkdir -p "$mirror"
    rm -rf "$mirror/Sources" "$mirror/Fuzz/Sources"
    files=(Package.swift Sources Fuzz/Package.swift Fuzz/Sources)
    [ -f Package.resolved ] && files+=(Package.resolved)
    tar -c "${files[@]}" | tar -x -C "$mirror" || exit 1
    # Files added since the last build keep their old mtimes in the copy: make SwiftPM plan anew.
    rm -f Fuzz/.build/release.yaml
    PACKAGE="$mirror/Fuzz"
fi
BUILD=(build -c release --package-path "$PACKAGE" --scratch-path Fuzz/.build -Xswiftc -sanitize=fuzzer,address)
echo "fuzz: building (release, fuzzer + address sanitizer)"
$SWIFT "${BUILD[@]}" || exit 1
BIN=$($SWIFT "${BUILD[@]}" --show-bin-path) || exit 1
# FuzzPythonLoaders loads the Python package with its native library (the loaders' checks are the
# Swift ones): the package's files and the library `make native` built (SKETCHPREP_NATIVE_LIBRARY,
# which `make fuzz` passes) copied into $OUT/python/sketchprep.
if [[ " ${HARNESSES[*]} " == *" FuzzPythonLoaders "* ]]; then
    library=${SKETCHPREP_NATIVE_LIBRARY:?FuzzPythonLoaders needs the native library: run it through make fuzz}
    rm -rf "$OUT/python" && mkdir -p "$OUT/python" && cp -R python/sketchprep "$OUT/python/" || exit 1
    cp "$library" "$OUT/python/sketchprep/libSketchPrepNative.so" || exit 1
    export SKETCHPREP_FUZZ_PACKAGE="$OUT/python/sketchprep"
fi

# libFuzzer prints its own report; Swift's backtracer would only delay it.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}

failed=()
for harness in "${HARNESSES[@]}"; do
    seeds="Fuzz/Corpus/$harness"
    work="$OUT/$harness"
    [ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 1; }
    rm -rf "$work"
    mkdir -p "$work/corpus"
    dict=()
    case $harness in FuzzNDJSONLine|FuzzGzipReader) dict=(-dict=Fuzz/ndjson.dict) ;; esac
    # FuzzPythonLoaders is the atheris harness of the Python package (Fuzz/Python, PyPI atheris).
    runner=("$BIN/$harness")
    [ "$harness" = FuzzPythonLoaders ] && runner=("${PYTHON:-python3}" "Fuzz/Python/$harness.py")
    echo "fuzz: $harness for ${SECONDS_EACH}s (rss limit ${RSS_MB} MB, timeout ${TIMEOUT}s per input)"
    # New inputs go to $work/corpus; the committed seeds are only read.
    "${runner[@]}" "${dict[@]}" -max_total_time="$SECONDS_EACH" -rss_limit_mb="$RSS_MB" \
        -timeout="$TIMEOUT" -print_final_stats=1 -artifact_prefix="$work/" \
        "$work/corpus" "$seeds" >"$work/log.txt" 2>&1
    status=$?
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "$work/log.txt" | sed "s/^/fuzz: $harness /"
    units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt")
    if [ $status -eq 0 ] && [ "${units:-0}" -eq 0 ]; then
        echo "fuzz: $harness ran no input (is libFuzzer's main linked? see $work/log.txt)" >&2
        failed+=("$harness")
    elif [ $status -ne 0 ]; then
        echo "fuzz: $harness FAILED (exit $status); log $work/log.txt; reproducer:" >&2
        ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | sed "s|^|  $work/|" >&2
        grep -E "ERROR: |==ERROR|Fatal error|deadly signal|out-of-memory|timeout" "$work/log.txt" | head -5 >&2
        failed+=("$harness")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: no findings"
