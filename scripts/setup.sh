#!/usr/bin/env bash
# Installs the Debian packages the build needs, by package name only, from scripts/apt-packages.txt
# (what `make build` and `make preprocess` need: nothing from PyPI, nothing for the tests).
# `setup.sh NAME…` also installs scripts/apt-packages-NAME.txt (`test` for make test, `cluster` for
# make test-cluster, `browser` for make test-browser). The Python test tools go into the repository's
# virtual environment instead (scripts/setup-venv.sh). Idempotent and quiet when everything is present.
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
