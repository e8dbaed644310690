"""Hatchling build hook: puts the native SketchCore library into the wheel and makes the wheel
platform-specific (``py3-none-<platform>``: the library is loaded with ctypes, so any CPython 3
on this platform can use it).

The library is ``$SKETCHPREP_NATIVE_LIBRARY`` when set (``make wheel`` builds it once and reuses
it), otherwise ``native/build.sh`` builds it into the build directory (needs ``swiftc``).
"""
import os
import pathlib
import subprocess
import sysconfig

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class NativeLibraryHook(BuildHookInterface):
    """Adds ``sketchprep/libsketchprep_core.so`` and the platform tag."""

    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        library = os.environ.get("SKETCHPREP_NATIVE_LIBRARY")
        if not library:
            library = str(pathlib.Path(self.directory) / "native" / "libsketchprep_core.so")
            subprocess.run([str(pathlib.Path(self.root) / "native" / "build.sh"), library], check=True)
        build_data["force_include"][library] = "sketchprep/libsketchprep_core.so"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
