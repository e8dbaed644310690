"""Hatchling build hook: puts the native library (the SwiftPM product ``SketchPrepNative``), the
``sketchprep`` CLI and the shipped pipelines (``Pipelines/*.yaml`` → ``sketchprep/pipelines/``, where
the CLI finds them by name) into the wheel and makes the wheel platform-specific (``py3-none-<platform>``:
the library is loaded with ctypes and the CLI is a program, so any CPython 3 on this platform can
use them).

The library is ``$SKETCHPREP_NATIVE_LIBRARY`` when set (``make wheel`` passes
``.build-native/release/libSketchPrepNative.so``), otherwise ``make native`` builds it (the
Makefile holds its flags: the Swift runtime linked statically); either way a stripped copy goes
into the wheel as ``sketchprep/libSketchPrepNative.so``. The CLI is ``$SKETCHPREP_CLI`` when set
(``make wheel`` passes ``.build-native/sketchprep-launcher``, the launcher that runs the CLI in that
library), otherwise ``make native`` builds it; either way a stripped copy goes into the wheel as
``sketchprep/bin/sketchprep``.
"""
import os
import pathlib
import shutil
import subprocess
import sysconfig

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class NativeLibraryHook(BuildHookInterface):
    """Adds ``sketchprep/libSketchPrepNative.so``, ``sketchprep/bin/sketchprep``, ``sketchprep/pipelines/`` and the platform tag."""

    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        library = self._stripped("SKETCHPREP_NATIVE_LIBRARY", "native", ".build-native/release/libSketchPrepNative.so", 0o644)
        build_data["force_include"][library] = "sketchprep/libSketchPrepNative.so"
        cli = self._stripped("SKETCHPREP_CLI", "native", ".build-native/sketchprep-launcher", 0o755)
        build_data["force_include"][cli] = "sketchprep/bin/sketchprep"
        # The shipped pipelines, where the CLI looks for them by name: sketchprep/bin/../pipelines.
        for pipeline in sorted((pathlib.Path(self.root).parent / "Pipelines").glob("*.yaml")):
            build_data["force_include"][str(pipeline)] = f"sketchprep/pipelines/{pipeline.name}"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"

    def _stripped(self, variable, target, path, mode):
        """A stripped copy (symbols are a third of the size) of ``$variable``, else of what ``make
        target`` builds at ``path`` in the repository, in the build directory."""
        built = os.environ.get(variable)
        if not built:
            repository = pathlib.Path(self.root).parent
            subprocess.run(["make", "--no-print-directory", target], cwd=repository, check=True)
            built = str(repository / path)
        name = pathlib.Path(built).name
        stripped = pathlib.Path(self.directory) / "native" / name
        stripped.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, stripped)
        subprocess.run(["strip", "--strip-all", str(stripped)], check=True)
        stripped.chmod(mode)
        return str(stripped)
