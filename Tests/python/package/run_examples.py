"""Runs the Python examples of Markdown files as a user would paste them, from the repository root:

    python3 Tests/python/package/run_examples.py README.md docs/python.md

Every ```python block of README's "From Python" section and of the other files is run in order in
one namespace per file, except blocks that import a module this environment lacks (README's
PyTorch, TensorFlow and ONNX Runtime blocks run in `make test-frameworks`); a block that calls
`sketchprep.read` or `sketchprep.bitmap` must run. Used by Tests/python/package/test_api.py and
scripts/dev/test-wheel-debian.sh."""
import importlib.util
import pathlib
import re
import sys

#: The section of README.md that holds its Python examples.
README_SECTION = "## From Python"


def python_blocks(path):
    """The ```python blocks of a Markdown file (README.md: of its "From Python" section)."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    if pathlib.Path(path).name == "README.md":
        start = text.index(README_SECTION)
        end = text.find("\n## ", start + len(README_SECTION))
        text = text[start:end if end > 0 else len(text)]
    return re.findall(r"```python\n(.*?)```", text, re.S)


def runnable(block):
    """Whether every module the block imports is installed."""
    modules = re.findall(r"^\s*(?:import|from) (\w+)", block, re.M)
    return all(importlib.util.find_spec(module) is not None for module in modules)


def run(path):
    """Runs the examples of `path`; returns how many ran. Raises when an API example cannot run."""
    namespace = {}
    ran = 0
    for block in python_blocks(path):
        api = "sketchprep.read" in block or "sketchprep.bitmap" in block
        if not runnable(block):
            if api:
                raise RuntimeError(f"{path}: an API example imports a module that is not installed:\n{block}")
            continue
        exec(compile(block, f"{path} example", "exec"), namespace)  # noqa: S102 (the documentation's own code)
        ran += 1
    return ran


if __name__ == "__main__":
    for document in sys.argv[1:]:
        print(f"{document}: {run(document)} Python examples ran")
