#!/usr/bin/env bash
# The repository's Python environment for the tests, parity references and benchmarks: creates the
# virtual environment VENV (default .venv, gitignored) with the first `python3` on PATH and installs
# scripts/requirements.txt into it — never into the system interpreter, and without the system's
# site-packages, so the tests see only what requirements.txt names. Re-installs when requirements.txt
# is newer than the environment's stamp; quiet when nothing changed.
#   scripts/setup-venv.sh [VENV]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-$here/../.venv}"
stamp="$venv/requirements.stamp"
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating the virtual environment $venv" >&2
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ] || [ "$here/requirements.txt" -nt "$stamp" ]; then
  echo "setup: installing PyPI packages from scripts/requirements.txt into $venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  touch "$stamp"
fi
