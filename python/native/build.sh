#!/bin/sh
# Builds the Python package's native library: SketchCore's sources and python/native's C entry
# points compiled into one shared library with the Swift runtime linked statically, so the
# library needs nothing from the Swift toolchain at run time (no /opt/swift RUNPATH).
#   python/native/build.sh OUTPUT.so
set -eu
out="$1"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$(dirname "$out")"
"${SWIFTC:-swiftc}" -O -wmo -static-stdlib -emit-library \
  -module-name SketchCoreNative -package-name SketchPrep \
  -Xlinker --gc-sections -Xlinker --strip-all \
  "$root"/Sources/SketchCore/*.swift "$here"/*.swift -o "$out.tmp"
mv "$out.tmp" "$out"
