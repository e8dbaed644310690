#!/usr/bin/env bash
# Sets up ONNX Runtime for SketchEval, idempotently, into .deps/onnxruntime/ (gitignored):
#   - the C header, from Debian trixie's libonnxruntime-dev, fetched with `apt-get download` through a
#     TEMPORARY sources list (the machine's own apt sources are never changed) and unpacked with dpkg-deb;
#   - the shared library, from PyPI's `onnxruntime` wheel (installed by scripts/requirements.txt):
#     its path is written to .deps/onnxruntime/library-path for the Makefile and tests.
# The header only has to be as new as the API we request (ORT_API_VERSION); a newer library serves
# older API versions, so trixie's header with the newest wheel works.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.deps/onnxruntime"
header="$dest/include/onnxruntime/onnxruntime_c_api.h"
# The Debian mirror this machine's apt already uses (deb822 `URIs:` or one-line `deb` entries), so the
# temporary list points at the same archive; SKETCHPREP_DEBIAN_MIRROR overrides it.
machine_mirror() {
  { grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{for (i = 2; i <= NF; i++) print $i}'
    grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break }}'
  } | grep -E '/debian/?$' | head -n 1 || true
}
mirror="${SKETCHPREP_DEBIAN_MIRROR:-$(machine_mirror)}"

if [ ! -f "$header" ]; then
  [ -n "$mirror" ] || { echo "setup-onnxruntime: no Debian mirror found in this machine's apt sources; set SKETCHPREP_DEBIAN_MIRROR" >&2; exit 1; }
  echo "setup-onnxruntime: fetching libonnxruntime-dev (Debian trixie) for the C header" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/parts"
  printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie main\n' "$mirror" \
    > "$work/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/parts"
            -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
  apt-get "${apt_opts[@]}" update -qq
  (cd "$work" && apt-get "${apt_opts[@]}" download libonnxruntime-dev >/dev/null)
  mkdir -p "$work/root"
  dpkg-deb -x "$work"/libonnxruntime-dev_*.deb "$work/root"
  found="$(find "$work/root" -name onnxruntime_c_api.h | head -n 1)"
  [ -n "$found" ] || { echo "setup-onnxruntime: onnxruntime_c_api.h not found in libonnxruntime-dev" >&2; exit 1; }
  mkdir -p "$dest/include"
  rm -rf "$dest/include/onnxruntime.tmp"
  cp -R "$(dirname "$found")" "$dest/include/onnxruntime.tmp"
  mv "$dest/include/onnxruntime.tmp" "$dest/include/onnxruntime"
  # The shim compiled without the header before: make SwiftPM rebuild it now that the header exists.
  touch "$root/Sources/COnnxRuntime/sketchprep_ort.c"
fi

library="$(python3 -c 'import glob, os, onnxruntime as o
c = sorted(glob.glob(os.path.join(os.path.dirname(o.__file__), "capi", "libonnxruntime.so*")))
print(c[0] if c else "")' 2>/dev/null || true)"
if [ -z "$library" ]; then
  echo "setup-onnxruntime: python3 cannot import onnxruntime (pip install onnxruntime) — the ORT tests will report it" >&2
  exit 1
fi
mkdir -p "$dest"
if [ "$(cat "$dest/library-path" 2>/dev/null)" != "$library" ]; then
  printf '%s\n' "$library" > "$dest/library-path.tmp" && mv "$dest/library-path.tmp" "$dest/library-path"
fi
