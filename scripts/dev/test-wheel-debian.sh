#!/usr/bin/env bash
# make test-wheel-debian (not in CI): the wheel in a minimal Debian root, as a user without the Swift
# toolchain, the -dev packages or anything else would install it.
#   scripts/dev/test-wheel-debian.sh
# `debootstrap --variant=minbase` makes a Debian 12 (bookworm: the glibc the wheel is built against)
# root in out/wheel-debian/root with python3, python3-pip and python3-venv and, as docs/python.md says
# the wheel needs, the X11 client libraries Debian's cairo links (libx11-6, libxext6, libxrender1;
# SKETCHPREP_DEBIAN_X11=0 leaves them out to show that need). It needs root and a Debian mirror:
# $DEBIAN_MIRROR, default http://deb.debian.org/debian (the root is kept and reused; delete it to
# start again). numpy, the wheel's one dependency, is downloaded here with pip (the repository's
# environment) for the root's CPython and installed from that file. In the root, a fresh virtual
# environment gets dist/sketchprep-*.whl, then runs `sketchprep --help`, a `sketchprep preprocess`
# of the shipped quickdraw-rnn pipeline by name (the root has no Pipelines/) through the console
# script, and Tests/python/package/run_examples.py: the Python examples of README.md and docs/python.md.
set -euo pipefail
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work="$PWD/out/wheel-debian"
root="$work/root"
python="${PYTHON:-$PWD/.venv/bin/python}"
wheel="$(ls dist/sketchprep-*.whl)"
[ "$(id -u)" = 0 ] || { echo "test-wheel-debian: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "test-wheel-debian: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
packages=python3,python3-pip,python3-venv
[ "${SKETCHPREP_DEBIAN_X11:-1}" = 1 ] && packages="$packages,libx11-6,libxext6,libxrender1"
if [ ! -x "$root/usr/bin/python3" ]; then
  rm -rf "$root"
  mkdir -p "$work"
  echo "test-wheel-debian: debootstrap bookworm from $mirror into $root" >&2
  debootstrap --variant=minbase --include="$packages" bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -5 "$work/debootstrap.log" >&2
    echo "test-wheel-debian: debootstrap failed: it needs a reachable Debian mirror (DEBIAN_MIRROR=$mirror)" >&2
    exit 1
  }
fi
if [ "${SKETCHPREP_DEBIAN_X11:-1}" = 1 ] && [ ! -e "$root/usr/lib/x86_64-linux-gnu/libX11.so.6" ]; then
  cp /etc/resolv.conf "$root/etc/resolv.conf"   # a root made with SKETCHPREP_DEBIAN_X11=0 gets them from its mirror
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -ec \
    'apt-get update -q && apt-get install -y -q --no-install-recommends libx11-6 libxext6 libxrender1' >>"$work/debootstrap.log" 2>&1
fi
version="$(chroot "$root" python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
rm -rf "$root/work" && mkdir -p "$root/work/wheels" "$root/work/repo/docs" "$root/work/repo/Tests/python/package"
"$python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: --python-version "$version" \
  --platform manylinux2014_x86_64 --dest "$root/work/wheels" numpy
cp "$wheel" "$root/work/wheels/"
cp -r README.md SampleData "$root/work/repo/"   # no Pipelines/: the wheel's own shipped pipelines run by name
cp docs/python.md "$root/work/repo/docs/"
cp Tests/python/package/run_examples.py "$root/work/repo/Tests/python/package/"
# A booted system has /proc: glibc's loader reads /proc/self/exe to resolve $ORIGIN in the RPATH that points the
# bundled CLI at the wheel's grafted libraries. The user's environment is a clean one (env -i).
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 /bin/sh -euc '
  python3 -m venv /work/env
  /work/env/bin/pip install --quiet --no-index --find-links /work/wheels sketchprep
  cd /work/repo
  /work/env/bin/sketchprep --help >/dev/null
  /work/env/bin/sketchprep preprocess --pipeline quickdraw-rnn --input SampleData/quickdraw/raw -o /work/out/rnn -q
  /work/env/bin/sketchprep verify /work/out/rnn
  /work/env/bin/python Tests/python/package/run_examples.py README.md docs/python.md
'
echo "test-wheel-debian: the wheel installs and runs in a minimal Debian 12 root ($packages)" >&2
