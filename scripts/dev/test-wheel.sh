#!/usr/bin/env bash
# make test's wheel step: install dist/sketchprep-*.whl into a fresh virtual environment and run
# Tests/python/package there (never from the source tree), against what the CLI writes first
# (Tests/python/package/make_fixtures.py, with the source-built SKETCHPREP_BINARY, whose bytes the
# wheel's console script must repeat). When we may (root, `unshare -m`), the tests run with
# /opt/swift hidden behind an empty bind mount, so the wheel is shown to need no Swift toolchain.
# numpy and pytest come from the repository's Python environment ($PYTHON, default .venv/bin/python),
# made visible to the fresh one by a .pth file placed after its own site-packages.
#   scripts/dev/test-wheel.sh SKETCHPREP_BINARY SHARED_DATA
set -euo pipefail
cli="$1"
shared="$2"
work="$PWD/out/wheel-tests"
wheel="$(ls dist/sketchprep-*.whl)"
python="${PYTHON:-$PWD/.venv/bin/python}"   # not realpath: the venv's python is a link to the base interpreter
"$python" Tests/python/package/make_fixtures.py --sketchprep "$cli" --shared "$shared" --out "$work/fixtures"
rm -rf "$work/venv"
"$python" -m venv "$work/venv"   # sketchprep from the wheel; numpy and pytest from the repository's environment
"$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
  >"$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/repository-venv.pth"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-index "$wheel"
tests="$PWD/Tests/python/package"
run=("$work/venv/bin/python" -m pytest -q -p no:cacheprovider --confcutdir="$tests" "$tests")
cd "$work"
export SKETCHPREP_FIXTURES="$work/fixtures"
unset SKETCHPREP_BIN   # sketchprep.info runs the wheel's own CLI
if [ -d /opt/swift ] && unshare -m true 2>/dev/null; then
  mkdir -p "$work/empty"
  echo "test-wheel: running the wheel's tests with /opt/swift hidden" >&2
  SKETCHPREP_SWIFT_HIDDEN=1 unshare -m sh -c 'mount --bind "$0" /opt/swift && exec "$@"' "$work/empty" "${run[@]}"
else
  echo "test-wheel: cannot hide /opt/swift here (needs root and unshare -m); running the wheel's tests with it visible" >&2
  "${run[@]}"
fi
