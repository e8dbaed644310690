"""Hatchling build hook: puts the native SketchCore library and the ``sketchprep`` CLI into the
wheel and makes the wheel platform-specific (``py3-none-<platform>``: the library is loaded with
ctypes and the CLI is a program, so any CPython 3 on this platform can use them).

The library is ``$SKETCHPREP_NATIVE_LIBRARY`` when set (``make wheel`` builds it once and reuses
it), otherwise ``native/build.sh`` builds it into the build directory (needs ``swiftc``). The CLI
is ``$SKETCHPREP_CLI`` when set (``make wheel`` passes ``.build/release/sketchprep``), otherwise
``swift build -c release --product sketchprep --static-swift-stdlib`` builds it in the repository;
either way a stripped copy goes into the wheel as ``sketchprep/bin/sketchprep``.
"""
import os
import pathlib
import shutil
import subprocess
import sysconfig

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class NativeLibraryHook(BuildHookInterface):
    """Adds ``sketchprep/libsketchprep_core.so``, ``sketchprep/bin/sketchprep`` and the platform tag."""

    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        library = os.environ.get("SKETCHPREP_NATIVE_LIBRARY")
        if not library:
            library = str(pathlib.Path(self.directory) / "native" / "libsketchprep_core.so")
            subprocess.run([str(pathlib.Path(self.root) / "native" / "build.sh"), library], check=True)
        build_data["force_include"][library] = "sketchprep/libsketchprep_core.so"
        build_data["force_include"][self._stripped_cli()] = "sketchprep/bin/sketchprep"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"

    def _stripped_cli(self):
        """A stripped copy of the release CLI in the build directory (symbols are a third of its size)."""
        cli = os.environ.get("SKETCHPREP_CLI")
        if not cli:
            repository = pathlib.Path(self.root).parent
            subprocess.run(["swift", "build", "-c", "release", "--product", "sketchprep", "--static-swift-stdlib"],
                           cwd=repository, check=True)
            cli = str(repository / ".build" / "release" / "sketchprep")
        stripped = pathlib.Path(self.directory) / "cli" / "sketchprep"
        stripped.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cli, stripped)
        subprocess.run(["strip", "--strip-all", str(stripped)], check=True)
        stripped.chmod(0o755)
        return str(stripped)
