#!/usr/bin/env bash
# Installs what the build, tests and benchmarks need, by package name only:
# Debian packages from scripts/apt-packages.txt and PyPI packages from scripts/requirements.txt.
# `setup.sh NAME…` also installs scripts/apt-packages-NAME.txt (e.g. `cluster` for make test-cluster).
# Idempotent and quiet when everything is already present.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

packages() { grep -v '^\s*#' "$1" | grep -v '^\s*$'; }

missing=()
lists=("$here/apt-packages.txt")
for extra in "$@"; do lists+=("$here/apt-packages-$extra.txt"); done
for p in $(for list in "${lists[@]}"; do packages "$list"; done); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp="$here/../.deps/pip.stamp"
if [ ! -f "$stamp" ] || [ "$here/requirements.txt" -nt "$stamp" ]; then
  echo "setup: installing PyPI packages from scripts/requirements.txt" >&2
  python3 -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
